// CSR-Adaptive SpMV (Greathouse & Daga, SC 2014), semiring-generic. A thread block per row block:
// stage the block's products in shared memory (coalesced col/val reads, all 256 threads gathering x),
// then reduce each row from shared memory with a sub-warp whose width follows the block's own mean
// row length; a long row (alone in its block) is reduced by the whole thread block.
// Twin: storage/reference/csr_adaptive.cpp (portable: storage/device/csr_adaptive_spmv_portable.cpp).
#include "core/semiring.hpp"
#include "storage/cuda/block_reduce.cuh"
#include "storage/cuda/vector_common.cuh"
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
  const offset_t* rp = A.csr.row_ptr;
  const vertex_t r0 = A.row_blocks[blockIdx.x], r1 = A.row_blocks[blockIdx.x + 1];
  const offset_t base = rp[r0], nnz = rp[r1] - base;
  // A multi-row block holds < 2 * block_nnz products; only a block of one long row takes this path
  // (a uniform branch for the whole block, as block_reduce synchronises).
  if (r1 - r0 == 1 && nnz > A.block_nnz) {
    T acc = Sr::zero();
    for (offset_t j = base + threadIdx.x; j < base + nnz; j += blockDim.x)
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.csr.val, j, Sr::pattern_value()), x[A.csr.col[j]]));
    acc = block_reduce<Sr>(acc);
    if (threadIdx.x == 0) y[r0] = acc;
    return;
  }
  for (offset_t i = threadIdx.x; i < nnz; i += blockDim.x)
    staged[i] = Sr::mul(value_or<V>(A.csr.val, base + i, Sr::pattern_value()), x[A.csr.col[base + i]]);
  __syncthreads();
  const vertex_t rows = r1 - r0;
  const offset_t mean = rows > 0 ? (nnz + rows - 1) / rows : 0;
  int W = 1;
  while (W < 32 && W < mean) W *= 2;
  const int group = int(threadIdx.x) / W, lane = int(threadIdx.x) % W, groups = int(blockDim.x) / W;
  for (vertex_t first = r0; first < r1; first += groups) {  // same trip count for every thread
    const vertex_t r = first + group;
    T acc = Sr::zero();
    if (r < r1)
      for (offset_t j = rp[r] - base + lane; j < rp[r + 1] - base; j += W) acc = Sr::add(acc, staged[j]);
    for (int off = W / 2; off > 0; off /= 2) acc = Sr::add(acc, shuffle_down(acc, off, W));
    if (r < r1 && lane == 0) y[r] = acc;
  }
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
