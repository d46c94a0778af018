// DCSR batch insertion (King et al. 2016, §III-A, Algorithms 1-2), orchestrated once for both twins.
// Order of work: check -> sort -> (collapse duplicates) -> plan segments -> [compact if a row would
// pass k segments or the buffer is full] -> write. Everything that can fail comes before the write.
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

template <class V, class S>
void dcsr_matrix<V, S>::insert_batch(const coo_matrix<V, S>& batch) {
  using K = detail::kernels<S>;
  if (batch.nnz == 0) {
    ++stats_.batches;
    return;
  }
  const detail::batch_summary sum = K::summarize(batch);
  if (sum.first_bad >= 0) throw batch_error(stats_.batches, sum.first_bad, detail::batch_reason(sum.reason));
  FG_EXPECTS(sum.max_row < 2147483647 && sum.max_col < 2147483647, "vertex id too large");

  vertex_t new_rows = std::max(rows_, sum.max_row + 1), new_cols = std::max(cols_, sum.max_col + 1);
  if (cfg_.square) new_rows = new_cols = std::max(new_rows, new_cols);

  coo_matrix<V, S> work = clone_coo<S>(batch);
  K::sort_batch(work);
  // Rows past rows_ are zeroed in the table (an invariant validate() checks), so the kernels need
  // no special case for new vertices once the table is large enough.
  if (new_rows > row_cap_) grow_row_table(new_rows);
  const std::size_t received = work.nnz;
  if (collapses_duplicates()) K::drop_duplicates(view(), work);

  array<vertex_t, S> run_row;
  array<offset_t, S> run_start;
  const std::size_t m = K::row_runs(work.row.data(), work.nnz, run_row, run_start);
  array<offset_t, S> need(m + 1);
  const offset_t alpha = slack();
  detail::plan_totals t = K::plan(view(), run_row.data(), run_start.data(), m, alpha, cfg_.row_growth, need.data());

  if (t.overflow || alloc_ptr_ + t.total > capacity()) {
    const bool by_segments = t.overflow;
    // After compaction every row is one packed segment, so each touched row needs b + alpha and
    // none can pass k >= 2 segments.
    const offset_t needed = nnz_ + offset_t(work.nnz) + offset_t(m) * alpha +
                            offset_t(cfg_.row_growth * double(nnz_ + offset_t(work.nnz))) + offset_t(m);
    const bool grow = needed > capacity();
    const offset_t cap = grow ? std::max<offset_t>(needed, offset_t(std::ceil(capacity() * cfg_.growth)))
                              : capacity();
    dcsr_matrix next = compacted(cap, row_cap_);  // may throw: *this still untouched
    t = K::plan(next.view(), run_row.data(), run_start.data(), m, alpha, cfg_.row_growth, need.data());
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

#define FG_INSTANTIATE(V)                                                          \
  template void dcsr_matrix<V, host_space>::insert_batch(const coo_matrix<V, host_space>&); \
  template void dcsr_matrix<V, device_space>::insert_batch(const coo_matrix<V, device_space>&);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg
