// CSR-scalar SpMV entry point: argument checks, then the twin of the matrix's memory space.
#include "storage/csr_scalar.hpp"

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/csr_scalar_kernels.hpp"
#include "storage/detail/kernels.hpp"  // FG_FOR_EACH_SPMV

namespace fg {

template <class Sr, class V, class S>
void spmv_scalar(const csr_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
                 array<typename Sr::value_type, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.rows, A.cols, "spmv_scalar");
  if (A.rows > 0) detail::csr_scalar_kernels<S>::template csr_scalar_spmv<Sr>(A.view(), x.data(), y.data());
}

#define FG_INSTANTIATE_IN(Sr, V, S)                                                                \
  template void spmv_scalar<Sr, V, S>(const csr_matrix<V, S>&, const array<Sr::value_type, S>&,    \
                                      array<Sr::value_type, S>&);
#define FG_INSTANTIATE(Sr, V) FG_INSTANTIATE_IN(Sr, V, host_space) FG_INSTANTIATE_IN(Sr, V, device_space)
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

}  // namespace fg
