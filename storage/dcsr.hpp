// DCSR: dynamic compressed sparse row (King et al. 2016, §III). Each row owns up to k segments of a
// shared column/value buffer; new segments come from a bump allocator; defragment() compacts every
// row into one segment by a scan of the row sizes (Algorithm 4).
//
// Departures from the paper, each for a reason:
//  - Segment addresses come from an exclusive scan over the batch's touched rows, not an atomicAdd:
//    the layout is then deterministic, so the device store and its reference twin are bit-identical
//    and tests compare them exactly.
//  - Each row stores its segment count (nseg), so "row is at k segments" needs no walk.
//  - A row that would need more than k segments is moved whole into one packed segment at the bump
//    pointer before the batch is written (the rows a batch touches only, not every row: a whole
//    compaction paused a 65 M-edge stream for seconds); a full buffer grows, or is compacted when it
//    is mostly holes. The batch never fails for space.
//  - Every allocation a batch needs happens before the first write, so a failed batch (bad edge,
//    out of memory) leaves the store exactly as it was.
//  - Deletion (not in the paper) shrinks each touched row within its own segments: the holes left in
//    the row's surviving prefix take the survivors of its tail (so only O(removed) entries move; a
//    row's order is not kept), and segments left holding no entry are released from the row (their
//    space returns only with a compaction). No tombstones.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "core/array.hpp"
#include "core/types.hpp"
#include "fluxgraph/reports.hpp"
#include "storage/batch_workspace.hpp"
#include "storage/edge_set.hpp"
#include "storage/coo.hpp"
#include "storage/csr.hpp"
#include "storage/row_bins.hpp"

namespace fg {
namespace detail {
struct insert_status;
struct insert_request;
struct erase_status;
}  // namespace detail

/// How repeated (row, col) entries are treated.
enum class duplicates {
  automatic,   ///< collapse for pattern graphs, accumulate for weighted matrices
  accumulate,  ///< keep every entry: values add up in every operation (matrix semantics)
  collapse,    ///< keep the first: an edge exists once (graph semantics)
};

/// Where a compaction (defragment(), or an automatic one) puts the rows in the buffer.
enum class dcsr_layout {
  row_order,   ///< row 0 first: a packed store is CSR, what the DCSR and CSR kernels read best
  size_order,  ///< rows grouped by length bin (the paper's §IV-B reordering): the ADCSR kernels then
               ///< read the store itself (spmv_binned), one contiguous region per bin
};

/// Whether a device store that collapses duplicates keeps an edge set (storage/edge_set.hpp) for the
/// duplicate check. It pays where batches land in long rows (the check otherwise walks them) and
/// costs where rows are short (a random probe per entry, 16-32 bytes per pair, a rebuild at each
/// doubling): on the H100, R-MAT 22 inserted 1.7-2.8x faster with it at 1e4-1e6-edge batches and
/// cnr-2000 (mean out-degree 10) 0.73-0.86x (docs/perf-journal.md, 2026-11-25).
enum class edge_index {
  automatic,  ///< CUDA build: when the mean length of the row an entry lands in, sum(d^2) / nnz,
              ///< is >= 32, decided again each time the store doubles. CPU build: once a batch of
              ///< 1024+ edges made the probe read more than 4 stored entries an edge (a random-
              ///< order stream; row-ordered files never do, and lost 1.6-2.2x with a set on 2
              ///< cores: docs/perf-journal.md, 2026-11-25 and -29) while the store holds at most 2^22
              ///< entries (a whole build of a larger one pauses the stream for seconds)
  always,     ///< whenever it fits in half the free memory
  never,
};

struct dcsr_config {
  int max_segments = 8;            ///< k: segment pairs per row (>= 2)
  vertex_t initial_segment = 0;    ///< mu: capacity every row of a blank store starts with
  offset_t reserve = 0;            ///< initial buffer size in entries (the paper's user-given maximum; grows when full)
  offset_t alpha = -1;             ///< slack added to each new segment; < 0: the current mean row length (the paper's mu), at least 1
  double row_growth = 0.5;         ///< slack is at least this fraction of the row's new size (0: the paper's constant alpha)
  duplicates dups = duplicates::automatic;
  double growth = 1.5;             ///< buffer / row-table growth factor when full (> 1)
  /// A full buffer whose used part holds entries in less than this share is compacted instead of
  /// grown (the rest is slack and released segments).
  double compact_fill = 0.25;
  /// Compactions and defragmentations in row order pack the store in its own buffer: the entries in
  /// the row-ordered prefix the last pack left move in place, the rest through scratch; no second
  /// buffer (dcsr_matrix::pack). Not for a batch kept undoable.
  bool in_place = false;
  bool shrink = false;             ///< a whole compaction sizes the buffer to its entries and the batch, times growth (else it keeps its capacity)
  bool square = true;              ///< a graph: rows and columns grow together to max id + 1
  dcsr_layout layout = dcsr_layout::row_order;  ///< row order of compactions (docs/perf-journal.md, "size-ordered layout")
  edge_index index = edge_index::automatic;     ///< device stores: the duplicate check's edge set
  offset_t build_slice = offset_t(1) << 25;   ///< from_coo: larger inputs are sorted and inserted in row-aligned slices of about this many entries (bounds the batch scratch)
};

/// Counters of what the store did on its own; tests and benchmarks read them.
/// The store's counters: the public type (include/fluxgraph/reports.hpp; capacity is filled by its callers).
using dcsr_stats = fluxgraph::store_stats;

/// Calls f(b, e) for each stored run [b, e) of row r of a segment table (segment s of row r is
/// [seg[s*pitch+2r], seg[s*pitch+2r+1])), in order; a segment is cut at the row's size (its tail is
/// free space). The first segment is read with the size, so neither load waits for the other.
template <class F>
FG_HD void for_each_segment_piece(const vertex_t* sizes, const std::uint8_t* nseg, const offset_t* seg, offset_t pitch,
                                  vertex_t r, F&& f) {
  offset_t left = sizes[r];
  const int ns = nseg[r];
  offset_t b = seg[2 * offset_t(r)], e = seg[2 * offset_t(r) + 1];
  for (int s = 0; s < ns && left > 0;) {
    const offset_t len = e - b < left ? e - b : left;
    f(b, b + len);
    left -= len;
    if (++s < ns && left > 0) b = seg[s * pitch + 2 * offset_t(r)], e = seg[s * pitch + 2 * offset_t(r) + 1];
  }
}

/// Trivially copyable view for kernels. Segment s of row r is [seg[s*pitch+2r], seg[s*pitch+2r+1]).
template <class V>
struct dcsr_view {
  vertex_t rows = 0, cols = 0;
  int k = 0;
  offset_t pitch = 0;
  vertex_t* sizes = nullptr;
  std::uint8_t* nseg = nullptr;
  offset_t* seg = nullptr;
  vertex_t* col = nullptr;
  stored_t<V>* val = nullptr;  ///< null for pattern
  double mean_row = 0;         ///< nnz / rows, for kernels that pick a vector width
  bool single_segment = false; ///< no row has more than one segment (kernels may read it as CSR)
  /// nnz when positions [0, nnz) hold exactly the stored entries (the allocation pointer is nnz: no
  /// slack, no abandoned segment), in some row order; else -1. A pass over every entry that needs
  /// no row can then run flat.
  offset_t dense = -1;

  /// Physical position of the p-th entry of row r (p < capacity of its segments).
  FG_HD offset_t locate(vertex_t r, offset_t p) const {
    for (int s = 0; s < nseg[r]; ++s) {
      offset_t b = seg[s * pitch + 2 * offset_t(r)], e = seg[s * pitch + 2 * offset_t(r) + 1];
      if (p < e - b) return b + p;
      p -= e - b;
    }
    return -1;
  }
  /// Calls f(b, e) for each stored run [b, e) of row r, in order (a segment cut at the row's size).
  template <class F>
  FG_HD void for_each_piece(vertex_t r, F&& f) const {
    for_each_segment_piece(sizes, nseg, seg, pitch, r, f);
  }
  FG_HD offset_t capacity(vertex_t r) const {
    offset_t c = 0;
    for (int s = 0; s < nseg[r]; ++s) c += seg[s * pitch + 2 * offset_t(r) + 1] - seg[s * pitch + 2 * offset_t(r)];
    return c;
  }
};

template <class V, class Space>
class dcsr_pipeline;

template <class V, class Space>
class dcsr_matrix {
  friend class dcsr_pipeline<V, Space>;  // defers batches through the private steps below

 public:
  using value_type = V;
  using space = Space;

  /// @brief An empty 0 x 0 store.
  explicit dcsr_matrix(const dcsr_config& cfg = {});
  /// @brief rows x cols, every row with an initial segment of cfg.initial_segment entries (a
  ///        square config makes it max(rows, cols) both ways).
  static dcsr_matrix blank(vertex_t rows, vertex_t cols, const dcsr_config& cfg = {});
  /// @brief From edges in any order (duplicates per cfg.dups); rows are packed with no slack.
  static dcsr_matrix from_coo(const coo_matrix<V, Space>& coo, vertex_t rows, vertex_t cols,
                              const dcsr_config& cfg = {});
  /// @brief From CSR: arrays copied, one segment per row (the paper's O(n) conversion). A square
  ///        config makes it max(rows, cols) both ways, the rows past the CSR's empty.
  static dcsr_matrix from_csr(const csr_matrix<V, Space>& csr, const dcsr_config& cfg = {});
  /// The same, taking over csr's column and value arrays (no copy).
  static dcsr_matrix from_csr(csr_matrix<V, Space>&& csr, const dcsr_config& cfg = {});
  /// @brief A store over rows that lie in one buffer with room to spare, taken without a copy: row
  ///        r holds fill[r+1] - fill[r] entries from col[start[r]] on and may grow in place up to
  ///        start[r+1] (start, fill: rows + 1 offsets in Space; fill null: every row full, i.e. CSR;
  ///        nnz = fill[rows], given by the caller, who knows it). An SpMM's workspace becomes its
  ///        result so (spmm_options).
  static dcsr_matrix from_rows(vertex_t rows, vertex_t cols, const offset_t* start, const offset_t* fill,
                               array<vertex_t, Space>&& col, array<stored_t<V>, Space>&& val, offset_t nnz,
                               const dcsr_config& cfg = {});

  dcsr_matrix(dcsr_matrix&&) noexcept = default;
  dcsr_matrix& operator=(dcsr_matrix&&) noexcept = default;

  /// @brief Insert a batch; ids beyond the current size grow the store.
  /// @throws fg::batch_error for a negative id or a NaN/inf value (naming the edge);
  ///         fg::out_of_memory. On any exception the store is unchanged.
  void insert_batch(const coo_matrix<V, Space>& batch);
  /// @brief Delete a batch of (row, col) keys; values are ignored. Every stored copy of a listed
  ///        edge goes (all of them in an accumulating store); an absent edge, an id past the store
  ///        and a repeat within the batch are no-ops, counted in stats().deletes_absent. Each
  ///        touched row shrinks within its own segments: the entries from its new end on that
  ///        survive fill the holes before it (in ascending order both: entries move, so a row's
  ///        order is not kept), the row keeps only the segments it then needs (at least its
  ///        first, as room to grow again), and released space returns only with a compaction.
  /// @throws fg::batch_error for a negative id (naming the edge); fg::out_of_memory. On any
  ///         exception the store is unchanged.
  void delete_batch(const coo_matrix<V, Space>& batch);
  /// @brief One mixed batch, in a stated order: all of `deletes` first, then all of `inserts`
  ///        (exactly delete_batch then insert_batch). So deleting and inserting the same edge in one
  ///        batch leaves it present, with the inserted value and at the end of its row. Counts as
  ///        one batch in stats() and in error messages.
  /// @throws as insert_batch and delete_batch; on any exception the store is unchanged (the
  ///         deletion is undone when the insertion fails).
  void apply_batch(const coo_matrix<V, Space>& inserts, const coo_matrix<V, Space>& deletes);
  /// @brief apply_batch(inserts, deletes), kept undoable until keep_batch() or undo_batch(): for a
  ///        caller that makes one batch atomic over several stores (the distributed store's ranks:
  ///        every rank writes its share, then all keep it or all take it back). What is kept is
  ///        small: the rows' sizes and segment counts before the batch (its insertion only appends,
  ///        so taking it back cuts the rows to them) and the deletion's undo log; only when the
  ///        insertion compacted is the store before it kept whole (a compaction held both anyway).
  /// @throws as apply_batch; the store is then unchanged and nothing is kept.
  void apply_batch_undoable(const coo_matrix<V, Space>& inserts, const coo_matrix<V, Space>& deletes);
  /// @brief Takes back the batch of apply_batch_undoable: content, layout, counters and version as
  ///        before it (the edge set, not content, is dropped and rebuilt by the next insertion).
  /// @throws fg::invalid_argument when no batch is kept or the store was written since.
  void undo_batch();
  /// @brief Keeps the batch of apply_batch_undoable for good and frees what undo_batch would need.
  void keep_batch() noexcept { undo_.reset(); }
  /// @brief Insert a batch that the caller guarantees sorted by (row, col), with no repeats and no
  ///        entry already stored (SpMM results, masked by this store: the closure). Skips the sort
  ///        and the duplicate probe of insert_batch. `pack`: new segments get no slack (a store
  ///        built row by row, each row written once). Same errors and failure atomicity.
  void append_sorted(const coo_matrix<V, Space>& batch, bool pack = false);
  /// @brief Ensure at least rows x cols (square stores keep rows == cols).
  void resize(vertex_t rows, vertex_t cols);
  /// @brief Frees the batch scratch kept between batches (the next batch allocates it again): what
  ///        the compact footprint holds between batches is then the store itself.
  void release_scratch() noexcept { work_ = {}; }
  /// @brief Compact every row into one segment with no slack (Algorithm 4), rows placed in the
  ///        configured layout (config().layout).
  void defragment();
  /// @brief The same with an explicit layout (the configured one is unchanged).
  void defragment(dcsr_layout layout);
  /// @brief Copy as CSR (rows in order, entries in stored order). The store is not changed.
  csr_matrix<V, Space> to_csr() const;
  /// @brief Rows [first, last) as a CSR of last - first rows (the store's columns): a snapshot taken
  ///        a part at a time between batches. @throws fg::invalid_argument for rows out of range.
  csr_matrix<V, Space> to_csr(vertex_t first, vertex_t last) const;
  coo_matrix<V, Space> to_coo() const;
  /// @brief Check every invariant; throws fg::error naming the first violation.
  void validate() const;

  vertex_t rows() const noexcept { return rows_; }
  vertex_t cols() const noexcept { return cols_; }
  offset_t nnz() const noexcept { return nnz_; }
  offset_t capacity() const noexcept { return static_cast<offset_t>(col_.size()); }
  offset_t allocation_pointer() const noexcept { return alloc_ptr_; }
  /// Content version: bumped by every batch that writes or deletes at least one entry (never by a
  /// rejected batch, a batch of duplicates or absent edges only, or defragment(), which moves
  /// entries but keeps them).
  std::uint64_t version() const noexcept { return version_; }
  /// True when some row has reached k segments (the paper's flag). Deletions do not clear it (it
  /// is cleared by a compaction), so it may stay set after the row shrank.
  bool needs_defragment() const noexcept { return at_limit_; }
  /// True while the store is laid out by size with current bins: its last compaction was
  /// dcsr_layout::size_order and no batch has written since. Then stored position k holds row
  /// size_order()[k] at [size_order_ptr()[k], size_order_ptr()[k+1]), and bin b is positions
  /// [size_bins()[b], size_bins()[b+1]) (adcsr_bin); spmv_binned (storage/adcsr.hpp) reads it so.
  bool size_ordered() const noexcept { return ordered_rows_ == rows_ && ordered_version_ == version_; }
  const array<vertex_t, Space>& size_order() const noexcept { return order_; }
  const array<offset_t, Space>& size_order_ptr() const noexcept { return order_ptr_; }
  const std::array<vertex_t, adcsr_bins + 1>& size_bins() const noexcept { return bin_ptr_; }
  bool collapses_duplicates() const noexcept;
  const dcsr_config& config() const noexcept { return cfg_; }
  const dcsr_stats& stats() const noexcept { return stats_; }
  /// Bytes held by the store's arrays.
  std::size_t bytes() const noexcept;
  /// Bytes of the duplicate-check index a device store keeps beside them (0 when it keeps none).
  std::size_t index_bytes() const noexcept { return set_.bytes(); }
  /// Adds the store's parts to r as "<name> rows" (sizes, segment table, size order), "<name>
  /// entries" (the buffer, its room included), "<name> pair index" (the duplicate check's; 0 when
  /// it keeps none) and "<name> batch workspace" (scratch kept between batches, an undo record).
  void account(fluxgraph::memory_report& r, const std::string& name) const;
  /// Bytes of the same entries as a CSR (8-byte row offsets, no room): the floor a store compares with.
  std::size_t packed_bytes() const noexcept {
    return (std::size_t(rows_) + 1) * sizeof(offset_t) + std::size_t(nnz_) * (sizeof(vertex_t) + sizeof(stored_t<V>) * !is_pattern_v<V>);
  }
  /// The duplicate check's pair index, for lookups of whole pairs (slot null when the store keeps
  /// none); it holds exactly the stored pairs whenever a batch is not running.
  edge_set_view pair_index() const noexcept { return set_.view(); }
  dcsr_view<V> view() const noexcept;

 private:
  /// from_csr's body: the store takes over col and val; row_ptr (rows + 1 offsets) is only read.
  static dcsr_matrix from_csr_arrays(vertex_t rows, vertex_t cols, const array<offset_t, Space>& row_ptr,
                                     array<vertex_t, Space>&& col, array<stored_t<V>, Space>&& val,
                                     const dcsr_config& cfg);
  /// zeroed: every row empty (false: the caller writes sizes_ and nseg_ of every row)
  /// pitch_rows: rows the segment table has room for (0: row_capacity)
  dcsr_matrix(const dcsr_config& cfg, vertex_t row_capacity, offset_t capacity, bool zeroed = true,
              vertex_t pitch_rows = 0);
  void grow_row_table(vertex_t rows_needed);
  /// The buffer before grow_buffer, for a batch that fails afterwards (put_back(buffer_before&)).
  struct buffer_before {
    bool grew = false;
    offset_t capacity = 0;              ///< remapped in place (core/memory.hpp): shrunk back to this
    array<vertex_t, Space> col;         ///< copied: the old arrays themselves
    array<stored_t<V>, Space> val;
  };
  /// A buffer of cap entries holding this one's [0, alloc_ptr_) where it was: remapped where the
  /// memory allows (no copy), else a copy; `before` says how to put the old one back.
  void grow_buffer(offset_t cap, buffer_before& before);
  void put_back(buffer_before& before);
  /// Entries the new segments of a batch that reported st may take; a buffer grown to hold `needed`.
  offset_t segment_room(const detail::insert_status& st, offset_t alpha, double row_growth) const;
  offset_t grown_capacity(offset_t needed) const;
  /// A compaction's buffer for `needed` entries: with dcsr_config::shrink, needed and the growth's
  /// headroom (never more than now), else the capacity it has.
  offset_t packed_capacity(offset_t needed) const;
  bool compacts_when_full() const;
  /// What relocate_full_rows changed, kept until the batch is written or, in an undoable batch,
  /// kept or undone (put_back() undoes it).
  struct relocation {
    array<vertex_t, Space> rows;        ///< the rows moved
    array<offset_t, Space> pairs;       ///< their chains' segment slots before (kernels' swap_chains)
    array<std::uint8_t, Space> counts;  ///< their segment counts before
    std::size_t m = 0;
    offset_t alloc_ptr = 0;
    vertex_t ordered_rows = -1;
    buffer_before buffer;               ///< the buffer before, when it grew
  };
  /// The rows `batch` touches whose chain is at k segments, each moved whole (in order) into one
  /// packed segment at the bump pointer, the buffer grown for them and `more` entries when short;
  /// their old segments become holes. Content is kept; false (nothing moved) when there are none,
  /// or when the buffer is short and mostly holes (a compaction packs them).
  bool relocate_full_rows(const coo_matrix<V, Space>& batch, offset_t more, relocation& moved);
  void put_back(relocation& moved);
  detail::insert_status written_with_room(const coo_matrix<V, Space>& batch, detail::insert_status st, bool sorted,
                                          offset_t alpha, double row_growth);
  /// Whether pack() packs in the store's own buffer (dcsr_config::in_place, in row order, no batch
  /// kept undoable, no deletion's undo log live under the insertion: both name positions).
  bool packs_in_place() const noexcept {
    return cfg_.in_place && !undo_ && !erase_logged_ && cfg_.layout == dcsr_layout::row_order;
  }
  detail::insert_status grown_and_written(const coo_matrix<V, Space>& batch, const detail::insert_status& st,
                                          bool sorted, offset_t alpha, double row_growth, relocation& moved);
  detail::insert_status compacted_and_written(const coo_matrix<V, Space>& batch, const detail::insert_status& st,
                                              bool sorted, offset_t alpha, double row_growth);
  dcsr_matrix compacted(offset_t new_capacity, vertex_t row_capacity, dcsr_layout layout) const;
  /// defragment() in row order: the row table is kept, the entries move to a new buffer, or within
  /// their own (packs_in_place()).
  void pack();
  offset_t slack() const noexcept;
  // Deletion (storage/dcsr_delete.cpp): one kernels<S>::erase; with `log`, what it overwrote stays in
  // work_ so that a mixed batch can undo it.
  detail::erase_status erase(const coo_matrix<V, Space>& batch, bool log);
  // Insertion (storage/dcsr_insert.cpp): one kernels<S>::insert per attempt; the host then counts
  // a written batch, or grows / compacts the store and tries again.
  void insert_impl(const coo_matrix<V, Space>& batch, bool sorted, offset_t alpha, double row_growth,
                   const detail::insert_status* first = nullptr);
  detail::insert_status attempt(const coo_matrix<V, Space>& batch, bool sorted, offset_t alpha, double row_growth);
  /// st, or the error it reports (a bad edge, an unsorted sorted batch, an id too large).
  detail::insert_status checked(const detail::insert_status& st, bool sorted) const;
  detail::insert_request request(bool sorted, offset_t alpha, double row_growth) const;
  void committed(const detail::insert_status& st, std::size_t received);
  // The host's half of a written deletion: the content (shrunk) and the counters (erased; the batch
  // is counted by its caller).
  void shrunk(const detail::erase_status& st);
  void erased(const detail::erase_status& st, std::size_t received);
  /// Becomes `next` (a compaction of this store: the same pairs) and keeps this store's batch
  /// scratch and, unless next already has it, its edge set.
  void adopt(dcsr_matrix&& next) {
    next.work_ = std::move(work_);
    next.erase_logged_ = erase_logged_;
    if (!next.set_.active()) next.set_ = std::move(set_);
    if (undo_) {  // an undoable batch compacted: the store before it is what undo_batch returns to
      auto u = std::move(undo_);
      u->before = std::make_unique<dcsr_matrix>(std::move(*this));
      next.undo_ = std::move(u);
    }
    *this = std::move(next);
  }
  /// What undo_batch needs (apply_batch_undoable): the state before the batch's insertion.
  struct undo_record {
    array<vertex_t, Space> sizes;      ///< rows_ entries before the insertion (row_cap_ with seg)
    array<std::uint8_t, Space> nseg;
    /// Kept when the batch both deleted and inserted: the segment table and the entries. The
    /// deletion released segments and row tails that its undo log needs as they were, and the
    /// insertion may write both (a copy of the store's arrays: the price of undoing a mixed batch).
    array<offset_t, Space> seg;
    array<vertex_t, Space> col;
    array<stored_t<V>, Space> val;
    vertex_t rows = 0, cols = 0, row_cap = 0, pitch_rows = 0;
    offset_t nnz = 0, alloc_ptr = 0;
    bool at_limit = false;
    int max_nseg = 0;
    std::uint64_t version = 0;           ///< before the whole batch
    dcsr_stats stats;
    std::shared_ptr<const detail::erase_status> erased;  ///< the deletion's (its log is in work_)
    std::unique_ptr<dcsr_matrix> before;  ///< the store before a compaction the insertion made
    relocation moved;                     ///< the rows the insertion moved (relocate_full_rows), the buffer it grew
    std::uint64_t after_version = 0;      ///< version_ and stats_.batches right after the batch:
    std::int64_t after_batches = 0;       ///< undo_batch refuses once the store changed
  };
  /// Device stores that collapse duplicates, when config().index asks for one: an edge set with
  /// room for `more` pairs, (re)built when it is missing or would pass half full; none when it
  /// would take more than half the free memory (the duplicate check then probes the rows).
  void prepare_set(std::size_t more);
  /// Whether prepare_set(more) would leave the set as it is (nothing to build, grow or decide).
  bool set_ready(std::size_t more) const;
  bool grow_set(std::size_t slots, std::size_t more);
  /// A batch's share of a set's growth: the next `step` slots of the old table moved (edge_set.hpp).
  void move_set_step();
  /// Slots for a set of the store's pairs and `more`: a quarter full, room for the stream to double.
  std::size_t set_slots(std::size_t more) const noexcept;

  dcsr_config cfg_;
  dcsr_stats stats_;
  vertex_t rows_ = 0, cols_ = 0, row_cap_ = 0;
  offset_t nnz_ = 0, alloc_ptr_ = 0;
  bool at_limit_ = false;
  int max_nseg_ = 0;  ///< upper bound on any row's segment count
  std::uint64_t version_ = 0;
  array<vertex_t, Space> sizes_;      ///< row_cap_ entries
  array<std::uint8_t, Space> nseg_;   ///< row_cap_ entries
  array<offset_t, Space> seg_;        ///< k * pitch, pitch = 2 * pitch_rows_
  /// Rows the segment table has room for (>= row_cap_). The CPU build keeps room for 4x the rows a
  /// growth asks, so later growths copy no slab (grow_row_table); the rows past row_cap_ are never
  /// touched, and a mapped block's untouched pages take no memory (core/memory.cpp).
  vertex_t pitch_rows_ = 0;
  array<vertex_t, Space> col_;        ///< capacity entries
  array<stored_t<V>, Space> val_;     ///< capacity entries, none for pattern
  // Size-ordered layout (size_ordered()): valid for content version ordered_version_ and
  // ordered_rows_ rows; ordered_rows_ = -1 when the last compaction was in row order.
  array<vertex_t, Space> order_;      ///< rows entries: stored position -> row
  array<offset_t, Space> order_ptr_;  ///< rows + 1 entries: where each stored position starts
  std::array<vertex_t, adcsr_bins + 1> bin_ptr_{};
  std::uint64_t ordered_version_ = 0;
  vertex_t ordered_rows_ = -1;
  // Positions [0, row_ordered_end_) hold rows' first segments only, in row order (what a pack in
  // row order leaves; later segments are allocated above it): pack() moves those in place.
  offset_t row_ordered_end_ = 0;
  bool erase_logged_ = false;  // apply_batch: the deletion's undo log is live (packs_in_place)
  batch_workspace<Space> work_;  ///< scratch every batch reuses (not part of the content)
  edge_set<Space> set_;          ///< device stores: the pairs, for the duplicate check (not content)
  std::unique_ptr<undo_record> undo_;  ///< apply_batch_undoable's batch, until kept or undone
  bool set_wanted_ = false;      ///< edge_index::automatic decided for the set (kept when the set is dropped)
  offset_t set_decided_at_ = 0;  ///< nnz at automatic's last decision
  bool probe_costly_ = false;    ///< the last batch's duplicate probe read more than it would probe a set (OpenMP)
};

/// @brief y = A (+).(x) x over semiring S, directly on the (possibly fragmented) store.
template <class S, class V, class Space>
void spmv(const dcsr_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);
/// Vectors one read of spmv_k takes at most: a warp's lanes, one a vector.
constexpr int max_read_vectors = 32;

/// @brief Y = A X for k vectors at once (plus-times, double), one read of A for all k: X and Y are
///        row-major (entry v * k + j: vertex v in vector j), 1 <= k <= max_read_vectors.
/// @throws fg::invalid_argument for k out of range or X / Y shorter than k columns / rows
template <class V, class Space>
void spmv_k(const dcsr_matrix<V, Space>& A, const array<double, Space>& X, array<double, Space>& Y, int k);
/// @brief y = A (+).(x) x over semiring S on CSR.
template <class S, class V, class Space>
void spmv(const csr_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);

}  // namespace fg
