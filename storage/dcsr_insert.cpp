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

  place(work, new_rows, new_cols, received, slack(), cfg_.row_growth);
}

#define FG_INSTANTIATE(V)                                                          \
  template void dcsr_matrix<V, host_space>::insert_batch(const coo_matrix<V, host_space>&); \
  template void dcsr_matrix<V, device_space>::insert_batch(const coo_matrix<V, device_space>&);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg
