// What the engine reports: batches, PageRank results, a stream's totals and recovery, live batches.
// Plain C++; the engine fills these types as they are.
#pragma once
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fluxgraph/types.hpp"

namespace fluxgraph {

/// What one batch did.
struct batch_result {
  std::int64_t batch = 0;     ///< 1-based number of the batch in this graph (errors name it too)
  std::int64_t inserted = 0;  ///< entries written (an unweighted graph drops edges it already has)
  std::int64_t deleted = 0;   ///< entries removed (absent edges remove nothing)
  vertex_id vertices = 0;     ///< after the batch
  std::int64_t edges = 0;     ///< stored entries after the batch
};

struct defrag_decision {
  bool defragmented = false;
  std::string reason;       ///< one line a person can check, as the kernel selector's
  double reads = 0;         ///< SpMVs expected before the next batch
  double fragmented_ms = 0; ///< defrag_mode::measured: predicted DCSR SpMV on the store as it is
  double packed_ms = 0;     ///< ... and once defragmented
  double saved_ms = 0;      ///< reads x (fragmented - packed)
  double cost_ms = 0;       ///< predicted defragmentation
  bool by_size = false;     ///< measured mode: the rows go by size (the reads will be ADCSR's)
};

struct pagerank_result {
  std::vector<double> score;  ///< by vertex id; sums to 1
  int iterations = 0;
  bool converged = false;
  double last_change = 0;     ///< L1 change of the last iteration
  bool warm_started = false;
  double seconds = 0;         ///< wall time after the view: out-weights, first vector, iterations
  double read_seconds = 0;    ///< the SpMVs' device time, summed (CUDA events in the CUDA build)
  double view_seconds = 0;    ///< building the kernel's view of the store (profile, selection, conversion)
  double decide_seconds = 0;  ///< host time of the selector's decisions (in view_seconds / seconds)
  int mixed_reads = 0;        ///< reads of float scores (pagerank_options::mixed_precision)
  std::string kernel, kernel_reason;
};

/// The shape of a graph's rows, as the kernel selector sees it (graph::profile; the engine's
/// profile of a store, read/profile.hpp, is this type).
struct graph_profile {
  /// Row-length histogram bins: bin 0 holds empty rows, bin b >= 1 rows of length in [2^(b-1), 2^b).
  static constexpr int bins = 33;
  vertex_id rows = 0, cols = 0;
  std::int64_t nnz = 0;
  double mu = 0, sigma = 0;           ///< mean and standard deviation of the row length (out-degree)
  std::int64_t max_row = 0, empty_rows = 0;
  std::array<std::int64_t, bins> histogram{};  ///< rows per log2 length bin
  double q1 = 0, median = 0, q3 = 0;  ///< row-length quartiles, from the histogram (within its bin)
  double segments_per_row = 1;        ///< mean segments of the non-empty rows (1: packed, CSR)
  double gap_fraction = 0;            ///< allocated but unused share of the store's buffer up to its allocation pointer
  bool size_ordered = false;          ///< laid out by size: ADCSR reads the store with no copy
  std::string value_type;             ///< "float", "double" or "pattern"
};

/// The cost model's prediction for one read kernel (graph::plan_reads; the engine's selector fills it).
struct kernel_estimate {
  std::string kernel;
  bool feasible = true;
  std::string why_not;          ///< for an infeasible kernel
  double bytes = 0;             ///< bytes one read moves (CMRS Eq. 6.1's beta+)
  double spmv_ms = 0, convert_ms = 0, total_ms = 0;  ///< total = convert + reads x SpMV
  std::vector<std::string> nearest;  ///< the calibration matrices the estimate was read from
};

/// A distributed PageRank as this rank sees it: a pagerank_result of its own vertices (score[i] is
/// vertex id[i]'s; kernel: the view it read its rows with), and what the ranks exchanged.
struct distributed_pagerank : pagerank_result {
  std::vector<vertex_id> id;      ///< this rank's vertices (dense ids)
  double setup_seconds = 0;       ///< of seconds, before the first iteration (out-weights, their all-reduce, the view)
  double iterate_seconds = 0;     ///< of seconds, the iterations
  std::uint64_t bytes_sent = 0;   ///< by this rank during the run (all-gathers and all-reduces)
  std::uint64_t setup_bytes = 0;  ///< of which before the first iteration
};

/// What a durable stream rebuilt when it was opened.
struct recovery_info {
  bool durable = false;
  std::int64_t snapshot_batch = 0;  ///< the batch the snapshot it started from held (0: none)
  std::string snapshot_path;
  std::int64_t replayed = 0;        ///< batches replayed from the log after the snapshot
  std::int64_t batches = 0;         ///< batches in the stream: the next is batches + 1
  std::int64_t lines = 0;           ///< edge lines consumed: where the producer resumes
  std::int64_t torn_bytes = 0;      ///< a torn last record dropped
  std::int64_t lost_batches = 0;    ///< acknowledged batches a damaged log lost (durability_options::accept_loss)
  std::vector<std::string> warnings;  ///< corrupted snapshots passed over, torn records dropped, losses accepted
  double seconds = 0;
};

/// What a durable stream's folder holds (`fluxgraph wal check DIR`, check_wal; docs/durability.md).
struct wal_health {
  std::vector<std::string> files;  ///< a line per snapshot and log: whole, or what is wrong with it
  std::string start;               ///< what a start on the folder would do, or why it would be refused
  bool ok = false;                 ///< every file whole, and a start recovers every acknowledged batch
};

/// What one batch did and cost. Times in seconds.
struct batch_report {
  std::int64_t batch = 0;       ///< 1-based
  std::int64_t inserts = 0, deletes = 0;  ///< edges given
  std::int64_t stored = 0;      ///< entries written (inserts less duplicates)
  std::int64_t removed = 0;     ///< entries removed (deletes less absent edges)
  std::int64_t edges = 0;       ///< distinct edges after the batch
  vertex_id vertices = 0;
  double store_seconds = 0, insert_seconds = 0, delete_seconds = 0;
  defrag_decision defrag;       ///< the policy's decision after the batch
  double defrag_seconds = 0;
  bool pr_updated = false;      ///< per-batch PageRank brought the scores within the bound after this batch
  int pr_iterations = 0;        ///< per-batch PageRank: push rounds (+ iterations when it restarted)
  double pr_seconds = 0;
  bool pr_restarted = false;    ///< computed from scratch (the first batch, or one that changed too much)
  bool pr_pulled = false;       ///< by power iterations from the last scores (predicted under the pushes)
  double pr_bound = 0;          ///< the scores are within this (L1) of the exact PageRank
  double pr_seeded_bound = 0;   ///< the same before the pushes: the batch left the last scores that far
  std::int64_t pr_edges = 0;    ///< out-edges its pushes read (the graph's are `edges`)
  double pr_error = -1;         ///< with compare: L1 distance to the from-scratch scores
  int cold_iterations = 0;      ///< with compare
  double cold_seconds = 0;
  std::int64_t closure_pairs = 0;
  int closure_rounds = 0;       ///< rounds of the extension (0 when recomputed after deletions)
  bool closure_recomputed = false;
  double closure_seconds = 0, closure_scratch_seconds = 0;
  std::int64_t bfs_reached = 0, sssp_reached = 0;  ///< the applications (0 before the source arrives)
  std::int64_t components = 0, triangles = 0;
  bool apps_recomputed = false;  ///< an application ran from scratch (a deletion its rule does not cover)
  double apps_seconds = 0, apps_scratch_seconds = 0;
  double log_seconds = 0;       ///< a durable stream's journal append (and sync)
  bool snapshot = false;        ///< a snapshot of the graph after the batch was begun (copied a part a batch)
  double snapshot_seconds = 0;
  double seconds() const noexcept {
    return store_seconds + log_seconds + snapshot_seconds + defrag_seconds + pr_seconds + cold_seconds + closure_seconds +
           closure_scratch_seconds + apps_seconds + apps_scratch_seconds;
  }
};

/// Sums over the batches so far.
struct stream_totals {
  std::int64_t batches = 0, inserts = 0, deletes = 0;
  double insert_seconds = 0, delete_seconds = 0, store_seconds = 0;
  std::int64_t defragmentations = 0;
  double defrag_seconds = 0;
  defrag_decision last_defrag;
  std::int64_t pr_iterations = 0, cold_iterations = 0;
  std::int64_t pr_restarts = 0;  ///< per-batch PageRank runs that started over
  std::int64_t pr_pulls = 0;     ///< ... that ran power iterations from the last scores
  double pr_seconds = 0, cold_seconds = 0;
  double pr_bound = 0;           ///< the largest per-batch bound (L1)
  double pr_error = -1;          ///< with compare: the largest L1 distance to the from-scratch scores
  std::int64_t closure_extended = 0, closure_recomputed = 0, closure_rounds = 0;
  double closure_seconds = 0, closure_scratch_seconds = 0;
  std::int64_t apps_recomputed = 0;  ///< batches after which an application ran from scratch
  double apps_seconds = 0, apps_scratch_seconds = 0;
  double log_seconds = 0;
  std::int64_t snapshots = 0;
  double snapshot_seconds = 0;
};

/// The DCSR store's counters.
struct store_stats {
  std::int64_t capacity = 0;                   ///< entries the buffer holds (stream::stats, graph::stats)
  std::int64_t batches = 0;                    ///< batches applied (failed ones not counted)
  std::int64_t entries_inserted = 0;           ///< entries written
  std::int64_t duplicates_dropped = 0;         ///< entries not written: the edge was stored already
  std::int64_t segments_allocated = 0;
  std::int64_t defrag_requested = 0;           ///< defragmentations asked for
  std::int64_t compactions_segment_limit = 0;  ///< automatic: a row would pass k segments (undoable batches only)
  std::int64_t rows_relocated = 0;             ///< rows moved whole into one segment: a batch took them past k
  std::int64_t compactions_buffer_full = 0;    ///< automatic: the buffer was full
  std::int64_t buffer_grows = 0;               ///< of those, the ones that enlarged the buffer
  std::int64_t compactions_in_place = 0;       ///< compactions and defragmentations that packed the store in its own buffer
  std::int64_t row_table_grows = 0;            ///< times the row table was enlarged for new vertices
  std::int64_t entries_deleted = 0;            ///< stored entries removed by deletions
  std::int64_t deletes_absent = 0;             ///< deletions that removed nothing
  std::int64_t index_builds = 0;               ///< the duplicate check's pair index built whole from the rows
  std::int64_t index_moves = 0;                ///< ... grown by moving a step a batch
};

/// finish(): the read phase after the last batch.
struct stream_end {
  bool defrag_asked = false;    ///< the policy was asked (PageRank from scratch ran)
  defrag_decision defrag;
  double defrag_seconds = 0;
  bool has_pagerank = false;
  pagerank_result pagerank;     ///< the last scores, by dense id
};

/// One batch of live input, in dense ids: vertices get ids 0, 1, ... in the order their input ids
/// first appear in an insert.
struct live_batch {
  std::int64_t number = 0;            ///< 1-based
  /// For stream::apply (batch_order::deletes_first). The lines' order is kept: an insert that a
  /// later delete of the same edge in this batch undoes is dropped here, so the store ends as if
  /// the lines were applied one by one. A delete naming an id no insert named before it is dropped.
  edge_list inserts, deletes;
  std::size_t insert_lines = 0, delete_lines = 0;  ///< edges as read
  std::vector<std::int64_t> new_ids;  ///< input ids of the dense ids this batch gave out, in order
  std::int32_t vertices = 0;          ///< dense ids given out so far (this batch's included)
  std::int64_t first_line = 0, last_line = 0;     ///< text: line numbers; binary: pair numbers
  std::chrono::steady_clock::time_point arrived;  ///< when its first edge was read
};

/// Where the reader's two threads spent their time, in seconds (a stream's bottleneck is the
/// stage that never waits).
struct live_times {
  double parse = 0;           ///< reader: parsing and cutting
  double input_wait = 0;      ///< reader: waiting for input and reading it
  double reader_blocked = 0;  ///< reader: waiting for room in the queue to the mapper
  double map = 0;             ///< mapper: input ids to dense ids
  double mapper_blocked = 0;  ///< mapper: waiting for room in the queue to next()
};

/// One part of a graph's memory (memory_report).
struct memory_part {
  std::string name;       ///< e.g. "store entries", "in-edge pair index", "kept pagerank"
  std::size_t bytes = 0;
};

/// @brief Where a graph's memory goes (graph::memory_use, stream::memory_use; `fluxgraph bench memory`):
///        the arrays each part holds, counted as the allocator counts them (core/memory: bytes as
///        requested). Device memory in the CUDA build; host memory for a device::cpu store and in
///        the CPU build (whose "device" is the host).
struct memory_report {
  std::int64_t vertices = 0, edges = 0;  ///< stored
  /// What the graph holds, part by part. For each edge store (the graph's own, "store", and the
  /// other orientation kept for PageRank and the applications, "in-edge" or "out-edge"): its row
  /// table (sizes, segment table, size order), its entries (column indices and values: the whole
  /// buffer, its unused room included), its pair index (the duplicate check) and its batch
  /// workspace (scratch kept for the next batch). Then what the analyses keep: read views, the
  /// kept PageRank's state, the applications'.
  std::vector<memory_part> parts;
  std::size_t packed = 0;     ///< the graph's own store as a CSR (8-byte row offsets, no room): the floor to compare with
  /// The allocator's total now: the whole process's device arrays (a device::cpu store's parts, host
  /// memory in the CUDA build, are not in it). What is not itemized in parts shows as in_use less
  /// total(): the applications a stream keeps current, a snapshot's copy on its way to the disk.
  std::size_t in_use = 0;
  std::size_t peak = 0;       ///< the allocator's high-water mark since the process started or its last reset
  std::size_t host_ids = 0;   ///< host memory of the id map (a renumbering graph or stream), not in parts
  std::size_t total() const noexcept {
    std::size_t t = 0;
    for (const memory_part& p : parts) t += p.bytes;
    return t;
  }
  /// Bytes of the part named `name` (0 when there is none).
  std::size_t of(const std::string& name) const noexcept {
    for (const memory_part& p : parts)
      if (p.name == name) return p.bytes;
    return 0;
  }
  double per_edge(std::size_t bytes) const noexcept { return edges > 0 ? double(bytes) / double(edges) : 0.0; }
};

}  // namespace fluxgraph
