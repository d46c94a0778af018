// DCSR insertion of batches that are already sorted and new (SpMM results masked by the store), and
// the planning/writing half that insert_batch shares (King et al. 2016, Algorithms 1-2).
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/spmm_kernels.hpp"

namespace fg {

template <class V, class S>
void dcsr_matrix<V, S>::place(const coo_matrix<V, S>& work, vertex_t new_rows, vertex_t new_cols,
                              std::size_t received, offset_t alpha, double row_growth) {
  using K = detail::kernels<S>;
  array<vertex_t, S> run_row;
  array<offset_t, S> run_start;
  const std::size_t m = K::row_runs(work.row.data(), work.nnz, run_row, run_start);
  array<offset_t, S> need(m + 1);
  detail::plan_totals t = K::plan(view(), run_row.data(), run_start.data(), m, alpha, row_growth, need.data());

  if (t.overflow || alloc_ptr_ + t.total > capacity()) {
    const bool by_segments = t.overflow;
    // After compaction every row is one packed segment, so each touched row needs b + alpha and
    // none can pass k >= 2 segments.
    const offset_t needed = nnz_ + offset_t(work.nnz) + offset_t(m) * alpha +
                            offset_t(row_growth * double(nnz_ + offset_t(work.nnz))) + offset_t(m);
    const bool grow = needed > capacity();
    const offset_t cap = grow ? std::max<offset_t>(needed, offset_t(std::ceil(capacity() * cfg_.growth)))
                              : capacity();
    dcsr_matrix next = compacted(cap, row_cap_, cfg_.layout);  // may throw: *this still untouched
    t = K::plan(next.view(), run_row.data(), run_start.data(), m, alpha, row_growth, need.data());
    *this = std::move(next);  // same edges, new layout: from here on nothing can fail
    ++(by_segments ? stats_.defrag_segment_limit : stats_.defrag_buffer_full);
    if (grow) ++stats_.buffer_grows;
  }

  const offset_t total = K::exclusive_scan(need.data(), m + 1);
  dcsr_view<V> v = view();
  v.rows = new_rows;
  v.cols = new_cols;
  K::write(v, run_row.data(), run_start.data(), m, need.data(), alloc_ptr_, work);

  alloc_ptr_ += total;
  nnz_ += offset_t(work.nnz);
  rows_ = new_rows;
  cols_ = new_cols;
  at_limit_ = at_limit_ || t.at_limit;
  max_nseg_ = std::max(max_nseg_, t.max_nseg);
  ++stats_.batches;
  if (work.nnz > 0) ++version_;
  stats_.entries_inserted += offset_t(work.nnz);
  stats_.segments_allocated += t.segments;
  stats_.duplicates_dropped += offset_t(received - work.nnz);
}

template <class V, class S>
void dcsr_matrix<V, S>::append_sorted(const coo_matrix<V, S>& batch, bool pack) {
  using K = detail::kernels<S>;
  if (batch.nnz == 0) {
    ++stats_.batches;
    return;
  }
  // One pass still checks ids and values: a wrong batch must not corrupt the store.
  const detail::batch_summary sum = K::summarize(batch);
  if (sum.first_bad >= 0) throw batch_error(stats_.batches, sum.first_bad, "invalid edge in a sorted batch");
  FG_EXPECTS(detail::spmm_kernels<S>::strictly_sorted(batch.row.data(), batch.col.data(), batch.nnz),
             "append_sorted: the batch is not sorted by (row, col) without repeats");
  FG_EXPECTS(sum.max_row < 2147483647 && sum.max_col < 2147483647, "vertex id too large");
  vertex_t new_rows = std::max(rows_, sum.max_row + 1), new_cols = std::max(cols_, sum.max_col + 1);
  if (cfg_.square) new_rows = new_cols = std::max(new_rows, new_cols);
  if (new_rows > row_cap_) grow_row_table(new_rows);  // capacity only: rows_ unchanged until place()
  place(batch, new_rows, new_cols, batch.nnz, pack ? 0 : slack(), pack ? 0.0 : cfg_.row_growth);
}

#define FG_INSTANTIATE_IN(V, S)                                                                     \
  template void dcsr_matrix<V, S>::append_sorted(const coo_matrix<V, S>&, bool);                    \
  template void dcsr_matrix<V, S>::place(const coo_matrix<V, S>&, vertex_t, vertex_t, std::size_t, \
                                         offset_t, double);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

}  // namespace fg
