// HYB SpMV (Bell & Garland 2009, the hybrid format): the ELL kernel (one thread per row, the
// column-major layout makes every step k one coalesced load across the warp), then the tail's
// segmented reduction over the segments fixed at conversion, by CSR-Adaptive's scheme (Greathouse &
// Daga 2014, as storage/cuda/csr_adaptive_spmv.cu) applied to the tail rows: a thread block per row
// block stages its products in shared memory and reduces each row with a sub-warp sized from the
// block's mean; a long tail row (a hub) gets a whole block. Each tail row then has one writer, which
// adds its sum into y with the semiring's add. Both kernels run on the legacy default stream, in
// order: no atomics, no scratch, no host round trip (Bell & Garland's COO kernel is a segmented
// reduction within warps; reduce_by_key did the same here but allocated and synchronised per call).
// Replaces storage/device/hyb_spmv_portable.cpp in the CUDA build. Reference twin: storage/reference/hyb.cpp.
#include "core/cuda_check.hpp"
#include "core/semiring.hpp"
#include "storage/cuda/row_block.cuh"
#include "storage/detail/hyb_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
namespace {

constexpr int ell_block = 256;
constexpr int tail_block = 256;

// No shuffles or barriers, so threads past the last row may simply return.
template <class Sr, class V>
__global__ void __launch_bounds__(ell_block)
ell_kernel(vertex_t rows, vertex_t width, offset_t pitch, const vertex_t* __restrict__ col,
           const stored_t<V>* __restrict__ val, const typename Sr::value_type* __restrict__ x,
           typename Sr::value_type* __restrict__ y) {
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  auto acc = Sr::zero();
  const offset_t end = offset_t(width) * pitch;
  for (offset_t j = r; j < end; j += pitch) {
    const vertex_t cj = col[j];
    if (cj < 0) break;  // padding (hyb_padding) only follows a row's entries: the row ends here
    acc = Sr::add(acc, Sr::mul(value_or<V>(val, j, Sr::pattern_value()), x[cj]));
  }
  y[r] = acc;
}

// Block b reduces tail rows [tail_blocks[b], tail_blocks[b+1]) (tail row m = tail entries
// [tail_row_ptr[m], tail_row_ptr[m+1]), matrix row tail_row_key[m]) into y. y already holds the ELL
// sums (written by ell_kernel, earlier on the same stream).
template <class Sr, class V>
__global__ void __launch_bounds__(tail_block)
tail_kernel(hyb_view<V> A, const typename Sr::value_type* __restrict__ x, typename Sr::value_type* __restrict__ y) {
  using T = typename Sr::value_type;
  __shared__ T staged[2 * hyb_tail_block_nnz];  // a multi-row block holds < 2 x hyb_tail_block_nnz products
  row_block_spmv<Sr, V>(A.tail_row_ptr, A.tail_col, A.tail_val, A.tail_blocks[blockIdx.x],
                        A.tail_blocks[blockIdx.x + 1], hyb_tail_block_nnz, x, staged, [&](vertex_t m, T sum) {
                          const vertex_t r = A.tail_row_key[m];
                          y[r] = Sr::add(y[r], sum);  // y holds the row's ELL sum
                        });
}

}  // namespace

template <class Sr, class V>
void hyb_kernels<device_space>::hyb_ell_spmv(const hyb_view<V>& A, const typename Sr::value_type* x,
                                             typename Sr::value_type* y) {
  const unsigned blocks = unsigned((std::int64_t(A.rows) + ell_block - 1) / ell_block);
  ell_kernel<Sr, V><<<blocks, ell_block>>>(A.rows, A.ell_width, A.pitch, A.ell_col, A.ell_val, x, y);
  FG_CUDA_CHECK_LAUNCH();
}

template <class Sr, class V>
void hyb_kernels<device_space>::hyb_tail_spmv(const hyb_view<V>& A, const typename Sr::value_type* x,
                                              typename Sr::value_type* y) {
  if (A.tail_block_count <= 0) return;
  tail_kernel<Sr, V><<<unsigned(A.tail_block_count), tail_block>>>(A, x, y);
  FG_CUDA_CHECK_LAUNCH();
}

#define FG_INSTANTIATE(Sr, V)                                                                      \
  template void hyb_kernels<device_space>::hyb_ell_spmv<Sr, V>(const hyb_view<V>&, const Sr::value_type*, \
                                                               Sr::value_type*);                   \
  template void hyb_kernels<device_space>::hyb_tail_spmv<Sr, V>(const hyb_view<V>&, const Sr::value_type*, \
                                                                Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
