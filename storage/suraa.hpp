// SURAA (Mohammed, Albeshri, Katib, Mehmood, Appl. Sci. 2019, §4): rows sorted by nonzeros per row
// (npr), descending, and stored in that order (CSR arrays rearranged, perm maps back); the sorted rows
// are cut into equal segments whose size comes from the Freedman–Diaconis rule, and the segments
// form three groups by their mean npr: G1 (longest rows: a child grid per row by dynamic
// parallelism, or a block per row), G2 (vector kernel, Y threads per row, Y a multiple of 32) and
// G3 (scalar kernel, a thread per row), each segment on its own CUDA stream (Algorithm 1).
//
// Where the paper is ambiguous or unworkable, and what this code does instead:
//  - Segment size. Algorithm 2 sets Seg_size = 2 IQR(npr) / m^(1/3), the Freedman–Diaconis bin
//    width, which is in npr units, not rows (on graphs it is below one). We use it as the rule is
//    meant: bin width h = max(2 IQR / m^(1/3), 1) over the npr histogram, bins k = ceil((max - min)
//    / h), clamped to [1, max_segments], and segment_rows = ceil(m / k). IQR is taken at the paper's
//    positions npr_sorted[m/4] - npr_sorted[3m/4] (the sort is descending, so this is q3 - q1).
//  - Groups are contiguous runs of segments: G1 takes segments from the top while their mean npr is
//    > 32 and the G1 row total stays <= max_child_threads (whole segments only, §4.1); the rest go
//    to G2 when their mean is >= 32 and to G3 otherwise.
//  - Ties in npr keep the original row order (a stable radix sort) instead of the paper's secondary
//    key (first column): the layout is deterministic and the twins compare bit for bit.
//  - Vector-kernel Y is the paper's Y rounded up to a power of two in [32, 256] so it divides the
//    256-thread block.
//  - Launches (Algorithm 1: a kernel per segment) are merged: consecutive segments that run the same
//    kernel with the same threads per row (G3 scalar, G2 vector with one Y, G1 blocks of one size)
//    are one launch over their joined rows, planned at conversion. A row's result depends only on its
//    kernel and threads, so y is bit-identical; a small graph's up to 64 segments take a handful of
//    launches instead of one each (~2.5 us of host time per launch on an H100).
//  - Streams (Algorithm 1: one per segment) come from a per-process pool (storage/cuda/stream_set.cuh,
//    at most 32, reused round-robin), and segments of <= 64K entries of work share one of them, in
//    order: on small graphs a stream per tiny segment costs more in syncs than it gains in overlap.
//  - Child grids are capped at 1024 per parent launch (half the default
//    cudaLimitDevRuntimePendingLaunchCount; 4096 hung an H100, and 2048 hung beside other GPU
//    processes): G1 is launched as several parent grids over row ranges on one stream.
#pragma once
#include <cstddef>
#include <vector>

#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg {

struct suraa_options {
  /// G1 by dynamic parallelism (Algorithms 3-4: a parent thread launches a child grid per row);
  /// false: one launch per G1 segment with a block per row (the launch-once equivalent). The CPU
  /// build runs the same portable loop for both.
  bool dynamic_parallelism = true;
  /// Most rows G1 may hold (the paper's max_child_threads: child grids queued for execution).
  vertex_t max_child_threads = 2048;
  /// Upper bound on the Freedman–Diaconis segment count (each segment is a launch; a large one has its
  /// own stream).
  int max_segments = 64;
  /// Merge consecutive same-kernel segments into one launch (results identical); false: a launch per
  /// segment, as in Algorithm 1. May be changed between calls.
  bool merge_launches = true;
};

/// Child grids one parent launch may queue: half the device runtime's default pending-launch limit
/// (2048). 4096 hung an H100 (shared/H100-FACTS.md); at exactly 2048 the GPU suite's first SURAA
/// case hung twice in ~30 runs, both times beside other processes on the GPU (2026-11-28 and -29),
/// and passed alone. A G1 row costs a child launch (~0.25 us) either way; only the parent launches
/// double.
inline constexpr vertex_t suraa_children_per_launch = 1024;

enum class suraa_group : int { g1_dynamic = 1, g2_vector = 2, g3_scalar = 3 };

/// Rows [begin, end) of the sorted order.
struct suraa_segment {
  vertex_t begin = 0, end = 0;
  offset_t nnz = 0;
  suraa_group group = suraa_group::g3_scalar;
  int threads = 1;  ///< threads per row: Y for G2, the block size of the block-per-row G1 path, 1 for G3
  double mean_npr() const noexcept { return end > begin ? double(nnz) / double(end - begin) : 0.0; }
  bool operator==(const suraa_segment& o) const noexcept {
    return begin == o.begin && end == o.end && nnz == o.nnz && group == o.group && threads == o.threads;
  }
};

/// The Freedman–Diaconis figures behind the segmentation (reported by benchmarks, checked by tests).
struct suraa_fd {
  offset_t npr_max = 0, npr_min = 0;
  offset_t q_upper = 0, q_lower = 0;  ///< npr_sorted[m/4] and npr_sorted[3m/4]
  double width = 0;                   ///< h = max(2 (q_upper - q_lower) / m^(1/3), 1)
  offset_t bins = 0;                  ///< ceil((npr_max - npr_min) / h), before clamping
  vertex_t segment_rows = 0;
  bool operator==(const suraa_fd& o) const noexcept {
    return npr_max == o.npr_max && npr_min == o.npr_min && q_upper == o.q_upper && q_lower == o.q_lower &&
           width == o.width && bins == o.bins && segment_rows == o.segment_rows;
  }
};

/// Trivially copyable view handed to kernels (CSR in sorted row order).
template <class V>
struct suraa_view {
  vertex_t rows = 0, cols = 0;
  const offset_t* row_ptr = nullptr;  ///< rows + 1 entries, sorted order
  const vertex_t* col = nullptr;
  const stored_t<V>* val = nullptr;   ///< null for pattern
  const vertex_t* perm = nullptr;     ///< perm[i] = original row of sorted row i
};

template <class V, class Space>
struct suraa_matrix {
  vertex_t rows = 0, cols = 0;
  array<offset_t, Space> row_ptr;  ///< rows + 1 entries, rows in sorted order
  array<vertex_t, Space> col;      ///< entries of sorted row i at [row_ptr[i], row_ptr[i+1])
  array<stored_t<V>, Space> val;   ///< empty for pattern
  array<vertex_t, Space> perm;     ///< rows entries
  std::vector<suraa_segment> segments;  ///< host: G1 segments first, then G2, then G3
  /// host: what the device SpMV launches when opts.merge_launches: runs of consecutive segments with
  /// the same group and threads, joined (same order, same rows)
  std::vector<suraa_segment> launches;
  suraa_fd fd;
  suraa_options opts;

  offset_t nnz() const noexcept { return static_cast<offset_t>(col.size()); }
  /// Rows in a group.
  vertex_t group_rows(suraa_group g) const noexcept {
    vertex_t n = 0;
    for (const auto& s : segments) n += s.group == g ? s.end - s.begin : 0;
    return n;
  }
  std::size_t bytes() const noexcept {
    return row_ptr.bytes() + col.bytes() + val.bytes() + perm.bytes() +
           (segments.size() + launches.size()) * sizeof(suraa_segment);
  }
  suraa_view<V> view() const noexcept {
    return {rows, cols, row_ptr.data(), col.data(), is_pattern_v<V> ? nullptr : val.data(), perm.data()};
  }
};

/// @brief SURAA copy of a CSR matrix (same space; the CSR is not changed): sort, rearrange, segment, group.
/// @throws fg::invalid_argument for max_segments < 1 or max_child_threads < 0; fg::out_of_memory.
template <class V, class Space>
suraa_matrix<V, Space> to_suraa(const csr_matrix<V, Space>& A, const suraa_options& opts = {});

/// @brief y = A (+).(x) x over semiring S, y in the original row order. Uses A.opts
///        (dynamic_parallelism and merge_launches may be changed between calls; the grouping may not).
template <class S, class V, class Space>
void spmv(const suraa_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);

}  // namespace fg
