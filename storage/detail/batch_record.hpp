// The two records a deferred batch (storage/dcsr_pipeline.hpp) shares with the device: its status
// and the chain of batches it belongs to. Plain structs, so the pipeline can hold them in arrays
// without the kernel interface.
#pragma once
#include "core/types.hpp"

namespace fg::detail {

/// What a batch's kernels report (CUDA twin): zeroed before the batch, read by the host after it
/// (one record per batch: at its end, or for a deferred batch when the pipeline settles).
struct batch_record {
  unsigned long long bad;  ///< max of ~(edge << 2 | reason): the first bad edge; 0 when none
  unsigned max_row1;       ///< largest row id + 1 (0: none)
  unsigned max_col1;
  int unsorted, overflow, at_limit, max_nseg, room, written;
  int skipped;             ///< deferred: an earlier batch of the chain stalled, so this one wrote nothing
  unsigned long long segments;  ///< new segments
  unsigned long long runs;      ///< rows that receive at least one entry
  offset_t kept, total;
  offset_t m;                   ///< small path: runs of the sorted batch (what the probe loops over)
  unsigned long long holes;     ///< deletion: stored entries found (counted past the hole list's room too)
  unsigned long long matched;   ///< deletion: distinct keys found
};

/// The device-side state a chain of deferred batches (dcsr_pipeline) threads through: each batch
/// reads what the batches before it left and its last kernel updates it, so no batch waits for the
/// host. The host writes it when a chain starts and derives the same values again when it settles.
struct batch_chain {
  offset_t alloc_ptr = 0;  ///< the bump allocator's position
  offset_t nnz = 0;        ///< stored entries (the slack of new segments follows the mean row)
  vertex_t rows = 0, cols = 0;
  int stalled = 0;         ///< a batch of the chain wrote nothing: every later one skips
};

}  // namespace fg::detail
