// CSR-vector SpMV (Bell & Garland 2009) with the sub-warp width chosen from mu. Replaces the portable
// twin in storage/device/spmv.cpp in the CUDA build; reference twin: storage/reference/spmv.cpp.
#include "core/semiring.hpp"
#include "storage/cuda/vector_common.cuh"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
namespace {

template <int W, class Sr, class V>
__global__ void __launch_bounds__(vector_block)
csr_vector_kernel(csr_view<V> A, const typename Sr::value_type* __restrict__ x,
                  typename Sr::value_type* __restrict__ y, bool stream) {
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = tid / W;
  const int lane = int(tid % W);
  auto acc = Sr::zero();
  if (row < A.rows) {
    const offset_t end = A.row_ptr[row + 1];
    for (offset_t j = A.row_ptr[row] + lane; j < end; j += W)
      acc = Sr::add(acc, Sr::mul(matrix_value<V>(A.val, j, Sr::pattern_value(), stream), x[matrix_load(A.col + j, stream)]));
  }
  acc = subwarp_reduce<W, Sr>(acc);
  if (row < A.rows && lane == 0) y[row] = acc;
}

}  // namespace

template <class Sr, class V>
void kernels<device_space>::csr_spmv(const csr_view<V>& A, const typename Sr::value_type* x,
                                     typename Sr::value_type* y) {
  dispatch_width(double(A.nnz) / A.rows, [&](auto w) {
    csr_vector_kernel<decltype(w)::value, Sr, V><<<vector_blocks(A.rows, w), vector_block>>>(A, x, y, streaming_loads());
    FG_CUDA_CHECK_LAUNCH();
  });
}

#define FG_INSTANTIATE(Sr, V) \
  template void kernels<device_space>::csr_spmv<Sr, V>(const csr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
