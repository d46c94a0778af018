// DCSR batch deletion and mixed batches, orchestrated once for both twins. Not in King et al. 2016,
// which only inserts; deletion keeps its rules: deterministic layout (the twins stay bit-identical),
// every allocation before the first write, SpMV on the store at any moment.
//
// Order of work: check -> sort the keys -> drop repeats -> runs of equal rows -> the touched rows'
// entries, flattened, are copied aside and marked keep/drop (one thread per stored entry, binary
// search in the batch's run for its row) -> exclusive scan of the keep flags = each survivor's new
// place in its row -> [first write] survivors back to the front of their row's segment chain, sizes
// and segment counts. The copy aside is both the source of the move (so no entry is overwritten
// before it is read) and the undo log of a mixed batch whose insertion fails.
#include "core/error.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/edge_set_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {
namespace detail {

/// A deletion checked and planned, with nothing of the store written yet.
template <class V, class S>
struct pending_delete {
  std::size_t received = 0;  ///< batch entries
  std::size_t m = 0;         ///< touched rows (runs of the sorted keys)
  offset_t matched = 0;      ///< distinct keys found in the store
  offset_t volume = 0;       ///< entries of the touched rows before the deletion
  offset_t survivors = 0;    ///< ... and after
  coo_matrix<pattern, S> keys;  ///< sorted, no repeats
  array<vertex_t, S> run_row;
  array<offset_t, S> run_start;
  array<offset_t, S> vol;        ///< m + 1: where each touched row starts in the flattened entries
  array<offset_t, S> pos;        ///< volume + 1: exclusive scan of the keep flags
  array<std::uint8_t, S> nseg;   ///< m: segment counts before the deletion
  array<vertex_t, S> saved_col;  ///< volume: the touched rows' entries before the deletion
  array<stored_t<V>, S> saved_val;
};

}  // namespace detail

template <class V, class S>
detail::pending_delete<V, S> dcsr_matrix<V, S>::prepare_delete(const coo_matrix<V, S>& batch) const {
  using K = detail::kernels<S>;
  detail::pending_delete<V, S> d;
  d.received = batch.nnz;
  if (batch.nnz == 0) return d;
  // Keys only: values play no part in a deletion (a NaN there is not an error).
  d.keys = coo_matrix<pattern, S>(batch.nnz);
  copy_range(d.keys.row, 0, batch.row, 0, batch.nnz);
  copy_range(d.keys.col, 0, batch.col, 0, batch.nnz);
  const detail::batch_summary sum = K::summarize(d.keys);
  if (sum.first_bad >= 0)
    throw batch_error(stats_.batches, sum.first_bad, std::string("deletion: ") + detail::batch_reason(sum.reason));
  K::sort_batch(d.keys);
  K::drop_duplicates(dcsr_view<pattern>{}, d.keys, nullptr);  // against a store with no rows: repeats only
  d.m = K::row_runs(d.keys.row.data(), d.keys.nnz, d.run_row, d.run_start);
  d.vol = array<offset_t, S>(d.m + 1);
  d.nseg = array<std::uint8_t, S>(d.m);
  K::touched_rows(view(), d.run_row.data(), d.m, d.vol.data(), d.nseg.data());
  d.volume = K::exclusive_scan(d.vol.data(), d.m + 1);
  d.pos = array<offset_t, S>(std::size_t(d.volume) + 1);
  d.saved_col = array<vertex_t, S>(std::size_t(d.volume));
  d.saved_val = array<stored_t<V>, S>(is_pattern_v<V> ? 0 : std::size_t(d.volume));
  d.matched = K::mark_deletes(view(), d.run_row.data(), d.run_start.data(), d.m, d.keys.col.data(), d.vol.data(),
                              d.pos.data(), d.saved_col.data(), d.saved_val.data());
  d.survivors = K::exclusive_scan(d.pos.data(), std::size_t(d.volume) + 1);
  return d;
}

// The first write: nothing below allocates, so nothing can fail half-way.
template <class V, class S>
void dcsr_matrix<V, S>::commit_delete(const detail::pending_delete<V, S>& d) {
  if (d.matched == 0) return;  // every row stays as it is, byte for byte
  detail::kernels<S>::place_rows(view(), d.run_row.data(), d.m, d.vol.data(), d.pos.data(), nullptr,
                                 d.saved_col.data(), d.saved_val.data());
  if (set_.active())  // the keys are sorted and distinct; absent ones are no-ops (tombstones stay counted)
    detail::edge_set_erase(set_.view(), d.keys.row.data(), d.keys.col.data(), d.keys.nnz);
  nnz_ -= d.volume - d.survivors;
  ++version_;
  // at_limit_ and max_nseg_ stay: they are upper bounds, and recomputing them would cost a pass
  // over every row; the next compaction resets both.
}

// Every touched row back to its saved entries, size and segment count. The released segments'
// table slots were never overwritten (an insertion that failed wrote nothing), so the old chains
// are intact.
template <class V, class S>
void dcsr_matrix<V, S>::undo_delete(const detail::pending_delete<V, S>& d) {
  if (d.matched == 0) return;
  detail::kernels<S>::place_rows(view(), d.run_row.data(), d.m, d.vol.data(), nullptr, d.nseg.data(),
                                 d.saved_col.data(), d.saved_val.data());
  set_ = {};  // rare (a failed mixed batch): rebuilt by the next insertion rather than patched
  nnz_ += d.volume - d.survivors;
  --version_;
}

namespace {
template <class D>
void count_delete(dcsr_stats& st, const D& d) {
  st.entries_deleted += d.volume - d.survivors;
  st.deletes_absent += offset_t(d.received) - d.matched;
}
}  // namespace

template <class V, class S>
void dcsr_matrix<V, S>::delete_batch(const coo_matrix<V, S>& batch) {
  const detail::pending_delete<V, S> d = prepare_delete(batch);  // may throw: *this untouched
  commit_delete(d);
  ++stats_.batches;
  count_delete(stats_, d);
}

template <class V, class S>
void dcsr_matrix<V, S>::apply_batch(const coo_matrix<V, S>& inserts, const coo_matrix<V, S>& deletes) {
  const detail::pending_delete<V, S> d = prepare_delete(deletes);
  commit_delete(d);
  try {
    insert_batch(inserts);  // counts the batch; on failure it has left the store as the deletion did
  } catch (...) {
    undo_delete(d);
    throw;
  }
  count_delete(stats_, d);
}

#define FG_INSTANTIATE_IN(V, S)                                                              \
  template void dcsr_matrix<V, S>::delete_batch(const coo_matrix<V, S>&);                    \
  template void dcsr_matrix<V, S>::apply_batch(const coo_matrix<V, S>&, const coo_matrix<V, S>&);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE_IN
#undef FG_INSTANTIATE

}  // namespace fg
