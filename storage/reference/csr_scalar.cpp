// Reference twin of CSR-scalar SpMV (storage/device/csr_scalar_spmv_portable.cpp,
// storage/cuda/csr_scalar_spmv.cu): one row at a time, entries in stored order.
#include "core/semiring.hpp"
#include "storage/detail/csr_scalar_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = csr_scalar_kernels<host_space>;

template <class Sr, class V>
void K::csr_scalar_spmv(const csr_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (vertex_t r = 0; r < A.rows; ++r) {
    y[r] = row_sum<Sr, V>(A.col, A.val, A.row_ptr[r], A.row_ptr[r + 1], x);
  }
}

#define FG_INSTANTIATE(Sr, V) \
  template void K::csr_scalar_spmv<Sr, V>(const csr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
