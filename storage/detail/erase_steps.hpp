// The write steps of a deletion, shared by the OpenMP twin (storage/device/dcsr_erase_portable.cpp),
// the CUDA twin (storage/cuda/dcsr_erase.cu) and the undo of both (storage/device/dcsr_erase.cpp).
// The reference twin (storage/reference/dcsr_erase.cpp) writes the same layout row by row on its own,
// as an oracle.
//
// The layout rule: a row of n entries that loses d of them keeps n - d. The holes (deleted entries)
// in its surviving prefix [0, n - d) take the survivors of its tail [n - d, n), holes ascending with
// tail survivors ascending (there are as many of one as of the other). Only those entries move, so
// a deletion writes O(entries removed) whatever the row's length, and the result is deterministic.
#pragma once
#include <cstddef>
#include <cstdint>

#include "storage/batch_workspace.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"

namespace fg::detail {

/// First workspace slot of the undo log: past every slot an insertion uses, so the insertion of a
/// mixed batch leaves the log intact.
constexpr int erase_log_slot = 16;

/// The hole list's least room (the CUDA twin's single-block path sorts that many in shared memory).
constexpr std::int64_t erase_min_holes = 2048;

/// What a deletion overwrote, for undo_erase. Per hole k: the physical place a survivor moved to
/// (-1: none) and the deleted entry that was there; per touched row (run) i: the row (-1 when it
/// lost nothing), its size and segment count before. A null dst means no log is kept.
template <class V>
struct erase_log {
  offset_t* dst = nullptr;
  vertex_t* col = nullptr;
  stored_t<V>* val = nullptr;
  vertex_t* row = nullptr;
  vertex_t* size = nullptr;
  std::uint8_t* nseg = nullptr;
};

/// The log's arrays in ws, for `holes` holes and `runs` touched rows. Growing allocates: call before
/// the deletion writes (undo_erase asks for no more than the deletion did, so it allocates nothing).
template <class V, class S>
erase_log<V> erase_log_in(batch_workspace<S>& ws, std::size_t holes, std::size_t runs) {
  erase_log<V> log;
  log.dst = ws.template get<offset_t>(erase_log_slot, holes);
  log.col = ws.template get<vertex_t>(erase_log_slot + 1, holes);
  if constexpr (!is_pattern_v<V>) log.val = ws.template get<stored_t<V>>(erase_log_slot + 2, holes);
  log.row = ws.template get<vertex_t>(erase_log_slot + 3, runs);
  log.size = ws.template get<vertex_t>(erase_log_slot + 4, runs);
  log.nseg = ws.template get<std::uint8_t>(erase_log_slot + 5, runs);
  return log;
}

/// Whether erase_log_in(ws, holes, runs) would find the log's slots large enough (not move them).
template <class V, class S>
bool erase_log_fits(const batch_workspace<S>& ws, std::size_t holes, std::size_t runs) {
  return ws.template holds<offset_t>(erase_log_slot, holes) && ws.template holds<vertex_t>(erase_log_slot + 1, holes) &&
         (is_pattern_v<V> || ws.template holds<stored_t<V>>(erase_log_slot + 2, holes)) &&
         ws.template holds<vertex_t>(erase_log_slot + 3, runs) && ws.template holds<vertex_t>(erase_log_slot + 4, runs) &&
         ws.template holds<std::uint8_t>(erase_log_slot + 5, runs);
}

/// A located deletion. Touched row i (a run of the sorted keys) is run_row[i]; its entries are the
/// positions [vol[i], vol[i + 1]) of the touched rows flattened (vol[m]: their volume; rows that are
/// not read have vol[i] == vol[i + 1]); hole[0, holes) are the flattened positions of the entries to
/// delete, ascending.
struct erase_plan {
  const vertex_t* run_row = nullptr;
  const offset_t* vol = nullptr;
  std::int64_t m = 0;
  const offset_t* hole = nullptr;
  std::int64_t holes = 0;
};

/// Row i's share of the holes: hole[first, first + d), of which the first q lie in the surviving
/// prefix [0, n - d) (n: the row's size before the deletion).
struct run_holes {
  offset_t n = 0, first = 0, d = 0, q = 0;
};

FG_HD inline run_holes holes_of(const erase_plan& p, std::int64_t i) {
  run_holes h;
  h.n = p.vol[i + 1] - p.vol[i];
  h.first = first_not_less(p.hole, 0, p.holes, p.vol[i]);
  const std::int64_t end = first_not_less(p.hole, h.first, p.holes, p.vol[i + 1]);
  h.d = end - h.first;
  h.q = first_not_less(p.hole, h.first, end, p.vol[i] + h.n - h.d) - h.first;
  return h;
}

/// Hole k: if it lies in its row's surviving prefix, as that prefix's j-th hole, the tail's j-th
/// survivor moves into it (logged first). Holes write disjoint places and read disjoint tail
/// entries, so every hole can run at once; the chains must still be the old ones (trim_row after).
template <class V>
FG_HD void fill_hole(const dcsr_view<V>& A, const erase_plan& p, std::int64_t k, const erase_log<V>& log) {
  const offset_t t = p.hole[k];
  const std::int64_t i = last_not_greater(p.vol, p.m + 1, t);
  const run_holes h = holes_of(p, i);
  const offset_t j = k - h.first;
  if (j >= h.q) {  // a hole of the tail: the row's new size cuts it off
    if (log.dst != nullptr) log.dst[k] = -1;
    return;
  }
  // The tail's x-th hole, at offset u_x past the prefix, has u_x - x survivors before it, which
  // grows with x; so the j-th survivor is at j + (the number of tail holes with u_x - x <= j).
  const offset_t keep = h.n - h.d, base = p.vol[i] + keep;
  const offset_t* tail = p.hole + h.first + h.q;
  offset_t lo = 0, hi = h.d - h.q;
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (tail[mid] - base - mid <= j) lo = mid + 1;
    else hi = mid;
  }
  const vertex_t r = p.run_row[i];
  const offset_t dst = A.locate(r, t - p.vol[i]), src = A.locate(r, keep + j + lo);
  if (log.dst != nullptr) {
    log.dst[k] = dst;
    log.col[k] = A.col[dst];
    copy_value<V>(log.val, k, A.val, dst);
  }
  A.col[dst] = A.col[src];
  copy_value<V>(A.val, dst, A.val, src);
}

/// Row i's new size, and its chain cut to the segments that hold it (segments_holding: at least the
/// first, so an emptied row can take edges again without a new segment). After every fill_hole.
template <class V>
FG_HD void trim_row(const dcsr_view<V>& A, const erase_plan& p, std::int64_t i, const erase_log<V>& log) {
  const run_holes h = holes_of(p, i);
  const vertex_t r = p.run_row[i];
  if (log.dst != nullptr) {
    log.row[i] = h.d > 0 ? r : -1;
    log.size[i] = vertex_t(h.n);
    log.nseg[i] = h.d > 0 ? A.nseg[r] : 0;
  }
  if (h.d == 0) return;
  A.sizes[r] = vertex_t(h.n - h.d);
  A.nseg[r] = std::uint8_t(segments_holding(A, r, h.n - h.d));
}

/// The undo of fill_hole k and of trim_row i (any order: they touch different arrays).
template <class V>
FG_HD void unfill_hole(const dcsr_view<V>& A, const erase_log<V>& log, std::int64_t k) {
  const offset_t dst = log.dst[k];
  if (dst < 0) return;
  A.col[dst] = log.col[k];
  copy_value<V>(A.val, dst, log.val, k);
}
template <class V>
FG_HD void untrim_row(const dcsr_view<V>& A, const erase_log<V>& log, std::int64_t i) {
  const vertex_t r = log.row[i];
  if (r < 0) return;
  A.sizes[r] = log.size[i];
  A.nseg[r] = log.nseg[i];
}

}  // namespace fg::detail
