// DCSR batch insertion (King et al. 2016, §III-A, Algorithms 1-2), orchestrated once for both twins.
// kernels<S>::insert does the whole batch (check -> sort -> collapse duplicates -> plan segments ->
// write) and reports either "written" or why nothing was written. Only then does the host act: a
// bad edge is an error; a batch that needs more rows, a row past k segments or a full buffer makes
// the store grow or compact (every allocation before any write, so a failure leaves the store as
// it was) and the batch is run again. The common case costs one status read-back per batch.
// compacted() copies the stats, so the counters of the store a batch compacts carry over.
#include <algorithm>
#include <climits>
#include <cmath>
#include <type_traits>
#include <utility>

#include "core/memory.hpp"

#include "core/error.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/edge_set_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

namespace {
// OpenMP: the edge set pays once the duplicate probe reads more than this many stored entries for
// each edge of a batch (the touched rows' sizes; a set probe is one or two random reads). A graph
// streamed in its file's row order touches rows it has not stored yet and keeps no set (cnr-2000,
// Slashdot, Enron, git_web_ml: 1.6-2.2x slower with one); a random order fills the rows it touches
// (2 cores, 1e4 / 1e5 batches: R-MAT 2^18 8.6x / 2.1x faster, uniform 2^18 x 16 2.0x / 1.3x). A
// batch that touches most rows walks them in order, cheaply: at 2 the set was chosen there too and
// lost at 1e6 (rmat-18 5.6 -> 4.5 M/s); at 4 it is not (docs/perf-journal.md, 2026-11-29). A batch of
// fewer than probe_min_batch edges is not a measure: its fixed costs outweigh any walk, and the set
// takes 32 bytes an edge. The GPU decides by the rows' square sum instead (prepare_set).
constexpr offset_t probe_walk_limit = 4, probe_min_batch = 1024;
// OpenMP: a set is built from the rows only while the store holds at most this many entries. The
// build inserts every stored pair at a random slot: 9.3 s at 65 M edges on 2 cores beside a busy
// process, where rows of mean length 4 had just made the probe read past probe_walk_limit (the
// soak, docs/durability.md "Pauses"); a larger store keeps probing its rows. R-MAT streams, where
// the set pays most, pass the limit while the store is small.
constexpr offset_t set_build_cap = offset_t(1) << 22;
// A set (or a set and the one it grows into) is kept while it fits in this share of the free
// memory. A quarter refused rmat-26's growth to 2^31 slots (26 GB with the old table, 55 GB free on
// the H100) and the probe walked the hubs' rows instead: 21 ms of a 1e7-edge batch's 23
// (docs/performance.md, "Store inserts and deletes").
bool set_fits(std::size_t slots) { return slots * sizeof(std::uint64_t) <= memory::available_bytes() / 2; }
}  // namespace

template <class V, class S>
void dcsr_matrix<V, S>::insert_batch(const coo_matrix<V, S>& batch) {
  insert_impl(batch, false, slack(), cfg_.row_growth);
}

template <class V, class S>
void dcsr_matrix<V, S>::append_sorted(const coo_matrix<V, S>& batch, bool pack) {
  insert_impl(batch, true, pack ? 0 : slack(), pack ? 0.0 : cfg_.row_growth);
}

template <class V, class S>
detail::insert_request dcsr_matrix<V, S>::request(bool sorted, offset_t alpha, double row_growth) const {
  detail::insert_request rq;
  rq.alloc_ptr = alloc_ptr_;
  rq.capacity = capacity();
  rq.row_cap = row_cap_;
  rq.alpha = alpha;
  rq.row_growth = row_growth;
  rq.collapse = collapses_duplicates();
  rq.sorted = sorted;
  rq.square = cfg_.square;
  return rq;
}

template <class V, class S>
detail::insert_status dcsr_matrix<V, S>::attempt(const coo_matrix<V, S>& batch, bool sorted, offset_t alpha,
                                                 double row_growth) {
  return checked(detail::kernels<S>::insert(view(), batch, request(sorted, alpha, row_growth), work_, set_.view()),
                 sorted);
}

template <class V, class S>
detail::insert_status dcsr_matrix<V, S>::checked(const detail::insert_status& st, bool sorted) const {
  if (st.first_bad >= 0)
    throw batch_error(stats_.batches, st.first_bad, sorted ? "invalid edge in a sorted batch" : detail::batch_reason(st.reason));
  FG_EXPECTS(!st.unsorted, "append_sorted: the batch is not sorted by (row, col) without repeats");
  FG_EXPECTS(st.max_row < INT_MAX && st.max_col < INT_MAX, "vertex id too large");
  return st;
}

template <class V, class S>
void dcsr_matrix<V, S>::insert_impl(const coo_matrix<V, S>& batch, bool sorted, offset_t alpha, double row_growth,
                                    const detail::insert_status* first) {
  if (batch.nnz == 0) {
    ++stats_.batches;
    return;
  }
  // A sorted batch adds its pairs to an active set too (it creates none: append-only stores, the
  // closure's R+, never need one), so the set must have room for them either way.
  if (!sorted || set_.active()) {
    move_set_step();
    prepare_set(batch.nnz);
  }
  // `first`: the status of an attempt on this very state that wrote nothing (a deferred batch that
  // stalled its chain), so the grow / compact below need not be found out again.
  detail::insert_status st = first != nullptr ? checked(*first, sorted) : attempt(batch, sorted, alpha, row_growth);
  if (st.room == detail::insert_room::rows) {  // new vertices: a larger row table (capacity only)
    grow_row_table(std::max(st.max_row, cfg_.square ? st.max_col : st.max_row) + 1);
    st = attempt(batch, sorted, alpha, row_growth);
  }
  if (!st.written) st = written_with_room(batch, st, sorted, alpha, row_growth);
  committed(st, batch.nnz);
}

// A valid batch that found no room (st): the rows it takes past k segments moved, the buffer grown,
// or, when it is mostly holes, the store compacted; then written. If any step fails, the store is
// put back exactly as it was.
template <class V, class S>
detail::insert_status dcsr_matrix<V, S>::written_with_room(const coo_matrix<V, S>& batch, detail::insert_status st,
                                                          bool sorted, offset_t alpha, double row_growth) {
  relocation moved;
  try {
    // A store that packs in place packs instead of moving rows whole: the rows moved would be its
    // next pack's scratch (R-MAT's hubs moved at k = 2 put 88% of rmat-20 there).
    if (st.room == detail::insert_room::segments && !packs_in_place() &&
        relocate_full_rows(batch, segment_room(st, alpha, row_growth), moved))
      st = attempt(batch, sorted, alpha, row_growth);
    if (!st.written && st.room == detail::insert_room::buffer && !compacts_when_full())
      st = grown_and_written(batch, st, sorted, alpha, row_growth, moved);
    if (!st.written && packs_in_place()) {
      pack();
      // Packed in its own buffer: what this batch moved or grew is part of the store now (nothing
      // before the pack is put back), and every row is one segment, so the batch needs only room.
      moved = relocation{};
      ++(st.room == detail::insert_room::segments ? stats_.compactions_segment_limit : stats_.compactions_buffer_full);
      const offset_t needed = nnz_ + segment_room(st, alpha, row_growth);
      if (needed > capacity()) grow_buffer(grown_capacity(needed), moved.buffer);
      moved = relocation{};
      st = attempt(batch, sorted, alpha, row_growth);
      FG_EXPECTS(st.written, "dcsr: a batch found no room in a store packed in place (internal error)");
    }
    if (!st.written) st = compacted_and_written(batch, st, sorted, alpha, row_growth);
  } catch (...) {
    put_back(moved);
    throw;
  }
  if (undo_ && !undo_->before) undo_->moved = std::move(moved);  // undo_batch puts them back
  return st;
}

// Whether a full buffer is compacted whole instead of grown: when less than dcsr_config::
// compact_fill of it holds entries (by default a quarter: the compaction, about one pass over the
// entries, frees three times as much; the compact footprint compacts sooner). Growing
// costs no copy where the buffer is remapped (the CPU build) and a streaming copy elsewhere; a whole
// compaction gathers every row: 10.7 s at 65.7 M edges and 16.7 M rows on 2 cores beside a busy
// process, when slack, not holes, filled two thirds of the buffer (docs/durability.md, "Pauses").
template <class V, class S>
bool dcsr_matrix<V, S>::compacts_when_full() const {
  return double(nnz_) < cfg_.compact_fill * double(alloc_ptr_);
}

// A full buffer that is mostly entries grows (remapped or its used prefix copied as it lies) instead
// of a compaction. Slack and released segments wait for a compaction a sparser buffer asks for.
// An undoable batch keeps the buffer before it in `moved` (undo_batch puts it back).
template <class V, class S>
detail::insert_status dcsr_matrix<V, S>::grown_and_written(const coo_matrix<V, S>& batch, const detail::insert_status& first,
                                                          bool sorted, offset_t alpha, double row_growth,
                                                          relocation& moved) {
  buffer_before before;
  grow_buffer(grown_capacity(alloc_ptr_ + segment_room(first, alpha, row_growth)), before);
  detail::insert_status st;
  try {
    st = attempt(batch, sorted, alpha, row_growth);
  } catch (...) {  // it wrote nothing: the old buffer back, so the store is exactly as it was
    put_back(before);
    throw;
  }
  if (undo_ && !moved.buffer.grew) moved.buffer = std::move(before);
  return st;
}

// Compact (into a larger buffer when needed) and write the batch into the compacted store, which
// becomes this store only once that has succeeded, so an allocation that fails on the way leaves
// this store as it was. After a compaction every row is one packed segment: each receiving row
// needs b + slack, and none can pass k >= 2 segments.
template <class V, class S>
detail::insert_status dcsr_matrix<V, S>::compacted_and_written(const coo_matrix<V, S>& batch,
                                                              const detail::insert_status& first, bool sorted,
                                                              offset_t alpha, double row_growth) {
  const bool by_segments = first.room == detail::insert_room::segments;
  const offset_t needed = nnz_ + segment_room(first, alpha, row_growth);
  const bool grow = needed > capacity();
  const offset_t cap = grow ? grown_capacity(needed) : packed_capacity(needed);
  dcsr_matrix next = compacted(cap, row_cap_, cfg_.layout);
  next.set_ = std::move(set_);  // the same pairs; it gets the batch's only if the batch goes in
  detail::insert_status st;
  try {
    st = next.attempt(batch, sorted, alpha, row_growth);
  } catch (...) {
    set_ = std::move(next.set_);
    throw;
  }
  FG_EXPECTS(st.written, "dcsr: a batch found no room in a compacted store (internal error)");
  adopt(std::move(next));
  ++(by_segments ? stats_.compactions_segment_limit : stats_.compactions_buffer_full);
  if (grow) ++stats_.buffer_grows;
  return st;
}

// The host's half of a written batch: the counters the kernels reported.
template <class V, class S>
void dcsr_matrix<V, S>::committed(const detail::insert_status& st, std::size_t received) {
  vertex_t new_rows = std::max(rows_, st.max_row + 1), new_cols = std::max(cols_, st.max_col + 1);
  if (cfg_.square) new_rows = new_cols = std::max(new_rows, new_cols);
  rows_ = new_rows;
  cols_ = new_cols;
  alloc_ptr_ += st.plan.total;
  nnz_ += st.kept;
  at_limit_ = at_limit_ || st.plan.at_limit;
  max_nseg_ = std::max(max_nseg_, st.plan.max_nseg);
  ++stats_.batches;
  if (st.kept > 0) ++version_;
  stats_.entries_inserted += st.kept;
  stats_.segments_allocated += st.plan.segments;
  stats_.duplicates_dropped += offset_t(received) - st.kept;
  if (set_.active()) set_.used += st.kept;  // the kernels added the written pairs
  probe_costly_ = offset_t(received) >= probe_min_batch && st.walked > probe_walk_limit * offset_t(received);
}

template <class V, class S>
std::size_t dcsr_matrix<V, S>::set_slots(std::size_t more) const noexcept {
  std::size_t slots = 1024;
  while (slots < 4 * (std::size_t(nnz_) + more)) slots *= 2;
  return slots;
}

template <class V, class S>
bool dcsr_matrix<V, S>::set_ready(std::size_t more) const {
  if (!std::is_same_v<S, device_space> || !collapses_duplicates() || cfg_.index == edge_index::never) return true;
  if (set_.active()) return set_.fits(std::int64_t(more));
  if (cfg_.index == edge_index::automatic && !set_wanted_) {
#if !defined(FG_WITH_CUDA)
    return !probe_costly_ || nnz_ > set_build_cap;  // OpenMP: decided by what the probe read
#endif
    return nnz_ == 0 || nnz_ < 2 * set_decided_at_;  // decided for a store half this size
  }
  return !set_fits(set_slots(more));  // wanted, but too large
}

template <class V, class S>
void dcsr_matrix<V, S>::prepare_set(std::size_t more) {
  if constexpr (std::is_same_v<S, device_space>) {
    if (set_ready(more)) return;
    if (!set_.active() && cfg_.index == edge_index::automatic && !set_wanted_) {  // a decision is due
#if defined(FG_WITH_CUDA)
      set_decided_at_ = nnz_;
      const double walk = detail::row_square_sum(sizes_.data(), rows_) / double(nnz_);
      if (walk < 32) return;
#endif
      set_wanted_ = true;  // OpenMP: only asked once the probe has become costly
    }
    const std::size_t slots = set_slots(more);  // a quarter full after a (re)build
    if (set_.active() && grow_set(slots, more)) return;
    set_ = {};  // the old table goes first: the peak is one table
    if (!set_fits(slots)) return;
    edge_set<S> fresh;  // becomes the set only complete: a build that runs out of memory leaves none
    fresh.slots = array<std::uint64_t, S>(slots);
    detail::edge_set_build(fresh.view(), view(), nnz_);
    fresh.used = nnz_;
    set_ = std::move(fresh);
    ++stats_.index_builds;
  }
}

// At most what the batch's new segments take: each run's entries, its slack (alpha, or row_growth of
// the row's new size, bounded by the store's) and a rounding entry.
template <class V, class S>
offset_t dcsr_matrix<V, S>::segment_room(const detail::insert_status& st, offset_t alpha, double row_growth) const {
  return st.kept + st.runs * alpha + offset_t(row_growth * double(nnz_ + st.kept)) + st.runs;
}

template <class V, class S>
offset_t dcsr_matrix<V, S>::grown_capacity(offset_t needed) const {
  return std::max<offset_t>(needed, offset_t(std::ceil(capacity() * cfg_.growth)));
}

template <class V, class S>
offset_t dcsr_matrix<V, S>::packed_capacity(offset_t needed) const {
  if (!cfg_.shrink) return capacity();
  return std::min(capacity(), std::max(needed, offset_t(std::ceil(double(needed) * cfg_.growth))));
}

// A whole compaction gathers every row (docs/durability.md, "Pauses"); this moves only the rows
// the batch would take past k, into one packed segment each at the bump pointer: the batch then
// adds its entries in a second segment with its slack. Their old chains stay in `moved` (swapped
// with the new ones), so put_back() can restore the store exactly.
template <class V, class S>
bool dcsr_matrix<V, S>::relocate_full_rows(const coo_matrix<V, S>& batch, offset_t more, relocation& moved) {
  using K = detail::kernels<S>;
  array<vertex_t, S> rows(batch.nnz);
  const std::size_t m = K::rows_at_limit(view(), batch.row.data(), batch.nnz, rows.data());
  if (m == 0) return false;
  array<offset_t, S> ptr(m + 1);
  K::scan_sizes(sizes_.data(), vertex_t(m), ptr.data(), rows.data());
  const offset_t size = read_one<S>(ptr.data() + m), needed = alloc_ptr_ + size + more;
  if (needed > capacity() && compacts_when_full()) return false;
  array<offset_t, S> pairs(2 * m * std::size_t(cfg_.max_segments));
  array<std::uint8_t, S> counts(m);
  fill_zero(pairs);  // slots past the first: unused in the new chains, zero in both twins
  if (needed > capacity()) grow_buffer(grown_capacity(needed), moved.buffer);
  dcsr_view<V> chosen = view();
  chosen.rows = vertex_t(m);  // compact() gathers rows order[0, A.rows)
  K::compact(chosen, ptr.data(), rows.data(), size, col_.data() + alloc_ptr_,
             is_pattern_v<V> ? nullptr : val_.data() + alloc_ptr_);
  // The new chains as a table of m rows (pairs, counts), then swapped with the rows' chains: their
  // every slot, since the batch writes the second and undo_batch puts the old chain back.
  K::single_segments(nullptr, counts.data(), pairs.data(), vertex_t(m), ptr.data(), nullptr, false, nullptr, alloc_ptr_);
  K::swap_chains(seg_.data(), 2 * offset_t(pitch_rows_), cfg_.max_segments, nseg_.data(), rows.data(), m, pairs.data(),
                 counts.data());
  moved.rows = std::move(rows), moved.pairs = std::move(pairs), moved.counts = std::move(counts);
  moved.m = m;
  moved.alloc_ptr = std::exchange(alloc_ptr_, alloc_ptr_ + size);
  moved.ordered_rows = std::exchange(ordered_rows_, -1);  // rows moved: no longer laid out by size
  stats_.rows_relocated += std::int64_t(m);
  return true;
}

template <class V, class S>
void dcsr_matrix<V, S>::put_back(relocation& moved) {
  if (moved.m > 0) {
    detail::kernels<S>::swap_chains(seg_.data(), 2 * offset_t(pitch_rows_), cfg_.max_segments, nseg_.data(),
                                    moved.rows.data(), moved.m, moved.pairs.data(), moved.counts.data());
    alloc_ptr_ = moved.alloc_ptr;
    ordered_rows_ = moved.ordered_rows;
    stats_.rows_relocated -= std::int64_t(moved.m);
  }
  put_back(moved.buffer);
}

template <class V, class S>
void dcsr_matrix<V, S>::grow_buffer(offset_t cap, buffer_before& before) {
  before.capacity = capacity();
  // Remapped (the CPU build's mapped blocks): a copy into fresh pages took 0.5 s at 25 M edges and
  // 1 s at 52 M on 2 cores beside a busy process (docs/durability.md, "Pauses").
  if (col_.resize_in_place(std::size_t(cap))) {
    if (is_pattern_v<V> || val_.resize_in_place(std::size_t(cap))) {
      before.grew = true;
      ++stats_.buffer_grows;
      return;
    }
    col_.resize_in_place(std::size_t(before.capacity));  // a shrink: kept pages, no copy
  }
  auto col = array<vertex_t, S>::growable(std::size_t(cap));
  auto val = array<stored_t<V>, S>::growable(is_pattern_v<V> ? 0 : std::size_t(cap));
  copy_prefix(col, col_, std::size_t(alloc_ptr_));
  if (!is_pattern_v<V>) copy_prefix(val, val_, std::size_t(alloc_ptr_));
  before.col = std::exchange(col_, std::move(col));
  before.val = std::exchange(val_, std::move(val));
  before.grew = true;
  ++stats_.buffer_grows;
}

template <class V, class S>
void dcsr_matrix<V, S>::put_back(buffer_before& before) {
  if (!before.grew) return;
  if (before.col.size() == std::size_t(before.capacity)) {  // copied (or nothing to remap)
    col_ = std::move(before.col);
    val_ = std::move(before.val);
  } else {  // a shrink of a remapped block keeps its pages: it does not fail
    col_.resize_in_place(std::size_t(before.capacity));
    if (!is_pattern_v<V>) val_.resize_in_place(std::size_t(before.capacity));
  }
  before.grew = false;
  --stats_.buffer_grows;
}

// A set that would pass half full moves into one of `slots` over the next batches (edge_set.hpp)
// when both tables fit half the free memory (set_fits); false: rebuild it whole instead.
template <class V, class S>
bool dcsr_matrix<V, S>::grow_set(std::size_t slots, std::size_t more) {
  if (set_.migrating()) {  // batches came faster than the move: finish it (the step makes this rare)
    set_.step = std::int64_t(set_.old.size());
    move_set_step();
    if (set_.fits(std::int64_t(more))) return true;
  }
  if (!set_fits(slots + set_.slots.size())) return false;
  edge_set<S> next;
  next.slots = array<std::uint64_t, S>(slots);
  detail::edge_set_clear(next.slots.data(), slots);
  next.old = std::move(set_.slots);
  next.used = nnz_;  // the stored pairs, wherever they are
  // Batches of `more` pairs fill the new table's free half (>= nnz_ + more) in `room` batches: the
  // old table is moved in half of them.
  const double room = std::max(1.0, double(slots / 2 - std::size_t(nnz_)) / double(std::max<std::size_t>(more, 1)));
  next.step = std::max<std::int64_t>(4096, std::int64_t(std::ceil(2.0 * double(next.old.size()) / room)));
  set_ = std::move(next);
  ++stats_.index_moves;
  return true;
}

template <class V, class S>
void dcsr_matrix<V, S>::move_set_step() {
  if (!set_.migrating()) return;
  const std::int64_t end = std::min<std::int64_t>(set_.moved + set_.step, std::int64_t(set_.old.size()));
  detail::edge_set_migrate(set_.view(), set_.moved, end);
  set_.moved = end;
  if (end == std::int64_t(set_.old.size())) {
    set_.old = {};
    set_.moved = 0;
  }
}

#define FG_INSTANTIATE_IN(V, S)                                                                 \
  template void dcsr_matrix<V, S>::insert_batch(const coo_matrix<V, S>&);                       \
  template void dcsr_matrix<V, S>::append_sorted(const coo_matrix<V, S>&, bool);                 \
  /* the steps dcsr_pipeline composes */                                                       \
  template detail::insert_request dcsr_matrix<V, S>::request(bool, offset_t, double) const;     \
  template void dcsr_matrix<V, S>::committed(const detail::insert_status&, std::size_t);        \
  template void dcsr_matrix<V, S>::insert_impl(const coo_matrix<V, S>&, bool, offset_t, double, \
                                               const detail::insert_status*);                  \
  template bool dcsr_matrix<V, S>::set_ready(std::size_t) const;                                \
  template void dcsr_matrix<V, S>::prepare_set(std::size_t);                                   \
  template bool dcsr_matrix<V, S>::grow_set(std::size_t, std::size_t);                        \
  template void dcsr_matrix<V, S>::move_set_step();                                           \
  template void dcsr_matrix<V, S>::grow_buffer(offset_t, typename dcsr_matrix<V, S>::buffer_before&); \
  template void dcsr_matrix<V, S>::put_back(typename dcsr_matrix<V, S>::buffer_before&); \
  template offset_t dcsr_matrix<V, S>::segment_room(const detail::insert_status&, offset_t, double) const; \
  template offset_t dcsr_matrix<V, S>::grown_capacity(offset_t) const;                            \
  template offset_t dcsr_matrix<V, S>::packed_capacity(offset_t) const;                           \
  template void dcsr_matrix<V, S>::put_back(typename dcsr_matrix<V, S>::relocation&);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

}  // namespace fg
