// CSR-Adaptive SpMV (Greathouse & Daga, SC 2014), semiring-generic: a thread block per row block,
// the reduction itself in storage/cuda/row_block.cuh (shared with HYB's tail).
// Twin: storage/reference/csr_adaptive.cpp (portable: storage/device/csr_adaptive_spmv_portable.cpp).
#include "core/semiring.hpp"
#include "storage/cuda/row_block.cuh"
#include "storage/detail/csr_adaptive_kernels.hpp"

namespace fg::detail {
namespace {

constexpr int adaptive_threads = 256;

template <class Sr, class V>
__global__ void __launch_bounds__(adaptive_threads)
csr_adaptive_kernel(csr_adaptive_view<V> A, const typename Sr::value_type* __restrict__ x,
                    typename Sr::value_type* __restrict__ y) {
  using T = typename Sr::value_type;
  extern __shared__ __align__(16) unsigned char staged_raw[];
  T* staged = reinterpret_cast<T*>(staged_raw);
  row_block_spmv<Sr, V>(A.csr.row_ptr, A.csr.col, A.csr.val, A.row_blocks[blockIdx.x], A.row_blocks[blockIdx.x + 1],
                        A.block_nnz, x, staged, [&](vertex_t r, T sum) { y[r] = sum; });
}

}  // namespace

template <class Sr, class V>
void csr_adaptive_kernels<device_space>::spmv(const csr_adaptive_view<V>& A, const typename Sr::value_type* x,
                                              typename Sr::value_type* y) {
  const std::size_t shared = std::size_t(2 * A.block_nnz) * sizeof(typename Sr::value_type);
  csr_adaptive_kernel<Sr, V><<<unsigned(A.blocks), adaptive_threads, shared>>>(A, x, y);
  FG_CUDA_CHECK_LAUNCH();
}

#define FG_INSTANTIATE(Sr, V) \
  template void csr_adaptive_kernels<device_space>::spmv<Sr, V>(const csr_adaptive_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
