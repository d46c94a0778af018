// CSR-scalar SpMV (Bell & Garland 2009, §4.3): one thread per row. Replaces the portable twin
// storage/device/csr_scalar_spmv_portable.cpp in the CUDA build; reference twin:
// storage/reference/csr_scalar.cpp.
#include "core/semiring.hpp"
#include "storage/cuda/vector_common.cuh"
#include "storage/detail/csr_scalar_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
namespace {

template <class Sr, class V>
__global__ void __launch_bounds__(vector_block)
csr_scalar_kernel(csr_view<V> A, const typename Sr::value_type* __restrict__ x,
                  typename Sr::value_type* __restrict__ y) {
  const std::int64_t row = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= A.rows) return;
  auto acc = Sr::zero();
  const offset_t end = A.row_ptr[row + 1];
  for (offset_t j = A.row_ptr[row]; j < end; ++j)
    acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
  y[row] = acc;
}

}  // namespace

template <class Sr, class V>
void csr_scalar_kernels<device_space>::csr_scalar_spmv(const csr_view<V>& A, const typename Sr::value_type* x,
                                                       typename Sr::value_type* y) {
  csr_scalar_kernel<Sr, V><<<vector_blocks(A.rows, 1), vector_block>>>(A, x, y);
  FG_CUDA_CHECK_LAUNCH();
}

#define FG_INSTANTIATE(Sr, V)                                                                  \
  template void csr_scalar_kernels<device_space>::csr_scalar_spmv<Sr, V>(const csr_view<V>&,   \
                                                                         const Sr::value_type*, \
                                                                         Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
