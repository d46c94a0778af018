// SpMV entry points: argument checks, then the twin of the store's memory space.
#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

template <class Sr, class V, class S>
void spmv(const dcsr_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.rows(), A.cols());
  if (A.rows() > 0) detail::kernels<S>::template dcsr_spmv<Sr>(A.view(), x.data(), y.data());
}

template <class Sr, class V, class S>
void spmv(const csr_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.rows, A.cols);
  if (A.rows > 0) detail::kernels<S>::template csr_spmv<Sr>(A.view(), x.data(), y.data());
}

template <class V, class S>
void spmv_k(const dcsr_matrix<V, S>& A, const array<double, S>& X, array<double, S>& Y, int k) {
  FG_EXPECTS(k >= 1 && k <= max_read_vectors, "spmv: k vectors a read must be in [1, " + std::to_string(max_read_vectors) + "]");
  detail::check_spmv_sizes(X.size() / std::size_t(k), Y.size() / std::size_t(k), A.rows(), A.cols());
  if (A.rows() == 0) return;
  // One vector: the one-vector read (the same layout), whose kernels are tuned for it.
  if (k == 1) detail::kernels<S>::template dcsr_spmv<plus_times<double>>(A.view(), X.data(), Y.data());
  else detail::kernels<S>::dcsr_spmv_k(A.view(), X.data(), Y.data(), k);
}
template void spmv_k(const dcsr_matrix<pattern, host_space>&, const array<double, host_space>&, array<double, host_space>&, int);
template void spmv_k(const dcsr_matrix<pattern, device_space>&, const array<double, device_space>&, array<double, device_space>&, int);
template void spmv_k(const dcsr_matrix<double, host_space>&, const array<double, host_space>&, array<double, host_space>&, int);
template void spmv_k(const dcsr_matrix<double, device_space>&, const array<double, device_space>&, array<double, device_space>&, int);

#define FG_INSTANTIATE_IN(Sr, V, S)                                                                \
  template void spmv<Sr, V, S>(const dcsr_matrix<V, S>&, const array<Sr::value_type, S>&,          \
                               array<Sr::value_type, S>&);                                         \
  template void spmv<Sr, V, S>(const csr_matrix<V, S>&, const array<Sr::value_type, S>&,           \
                               array<Sr::value_type, S>&);
#define FG_INSTANTIATE(Sr, V) FG_INSTANTIATE_IN(Sr, V, host_space) FG_INSTANTIATE_IN(Sr, V, device_space)
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

}  // namespace fg
