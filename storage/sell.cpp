// SELL-C-sigma construction and SpMV entry points: argument checks and allocation, then the twin of
// the matrix's memory space (storage/detail/sell_kernels.hpp).
#include "storage/sell.hpp"

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"  // FG_FOR_EACH_VALUE, FG_FOR_EACH_SPMV
#include "storage/detail/sell_kernels.hpp"

namespace fg {

template <class V, class S>
sell_matrix<V, S> to_sell(const csr_matrix<V, S>& A, const sell_options& opts) {
  FG_EXPECTS(opts.sigma >= 1, "sell_options.sigma must be >= 1");
  FG_EXPECTS(A.rows >= 0 && A.cols >= 0, "to_sell: negative dimension");
  using K = detail::sell_kernels<S>;
  sell_matrix<V, S> m;
  m.rows = A.rows;
  m.cols = A.cols;
  m.sigma = opts.sigma;
  m.nnz_stored = A.nnz();
  const vertex_t chunks = m.chunks();
  m.chunk_ptr = array<offset_t, S>(std::size_t(chunks) + 1);
  m.perm = array<vertex_t, S>(std::size_t(A.rows));
  if (A.rows == 0) {
    fill_zero(m.chunk_ptr);  // chunk_ptr = {0}
    return m;
  }
  K::sell_permutation(A.row_ptr.data(), A.rows, opts.sigma, m.perm.data());
  const offset_t padded = K::sell_chunk_offsets(A.row_ptr.data(), m.perm.data(), A.rows, m.chunk_ptr.data());
  m.col = array<vertex_t, S>(std::size_t(padded));
  m.val = array<stored_t<V>, S>(is_pattern_v<V> ? 0 : std::size_t(padded));
  if (padded > 0) K::template sell_fill<V>(A.view(), m.perm.data(), m.chunk_ptr.data(), padded, m.col.data(), m.val.data());
  return m;
}

template <class Sr, class V, class S>
void spmv(const sell_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.rows, A.cols);
  if (A.rows > 0) detail::sell_kernels<S>::template sell_spmv<Sr>(A.view(), x.data(), y.data());
}

#define FG_INSTANTIATE_IN(V, S) \
  template sell_matrix<V, S> to_sell<V, S>(const csr_matrix<V, S>&, const sell_options&);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

#define FG_SPMV_FORMAT sell_matrix
FG_FOR_EACH_SPMV(FG_SPMV_OF_FORMAT)
#undef FG_SPMV_FORMAT

}  // namespace fg
