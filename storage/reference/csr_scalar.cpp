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
    auto acc = Sr::zero();
    for (offset_t j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j)
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
    y[r] = acc;
  }
}

#define FG_INSTANTIATE(Sr, V) \
  template void K::csr_scalar_spmv<Sr, V>(const csr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
