// DCSR SpMV (King et al. 2016, Algorithm 3): CSR-vector with an outer loop over the row's segments;
// sub-warp width from mu. Replaces the portable twin in storage/device/spmv.cpp in the CUDA build;
// reference twin: storage/reference/spmv.cpp.
#include "core/semiring.hpp"
#include "storage/cuda/vector_common.cuh"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
namespace {

template <int W, class Sr, class V>
__global__ void __launch_bounds__(vector_block)
dcsr_vector_kernel(dcsr_view<V> A, const typename Sr::value_type* __restrict__ x,
                   typename Sr::value_type* __restrict__ y) {
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = tid / W;
  const int lane = int(tid % W);
  auto acc = Sr::zero();
  if (row < A.rows) {
    offset_t left = A.sizes[row];
    const int nseg = A.nseg[row];
    for (int s = 0; s < nseg && left > 0; ++s) {
      const offset_t b = A.seg[s * A.pitch + 2 * row];
      const offset_t len = min(A.seg[s * A.pitch + 2 * row + 1] - b, left);
      for (offset_t j = b + lane; j < b + len; j += W)
        acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
      left -= len;
    }
  }
  acc = subwarp_reduce<W, Sr>(acc);
  if (row < A.rows && lane == 0) y[row] = acc;
}

// Every row has at most one segment (after defragment, or built from CSR): the row is
// [seg[2r], seg[2r] + size), read exactly like a CSR row.
template <int W, class Sr, class V>
__global__ void __launch_bounds__(vector_block)
dcsr_single_segment_kernel(dcsr_view<V> A, const typename Sr::value_type* __restrict__ x,
                           typename Sr::value_type* __restrict__ y) {
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = tid / W;
  const int lane = int(tid % W);
  auto acc = Sr::zero();
  if (row < A.rows) {
    const offset_t b = A.seg[2 * row], end = b + A.sizes[row];
    for (offset_t j = b + lane; j < end; j += W)
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
  }
  acc = subwarp_reduce<W, Sr>(acc);
  if (row < A.rows && lane == 0) y[row] = acc;
}

// k vectors at once (row-major x, y): a sub-warp of KP x G lanes a row, KP = the power of two >= k
// lanes across the vectors (a column's k values are one coalesced gather) and G groups of lanes
// taking every G-th entry of the row; the groups' partial sums meet by shuffles.
template <int KP, class V>
__global__ void __launch_bounds__(vector_block)
dcsr_k_kernel(dcsr_view<V> A, const double* __restrict__ x, double* __restrict__ y, int k, int groups) {
  const int width = KP * groups;
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = tid / width;
  const int lane = int(tid % width), c = lane % KP, g = lane / KP;
  double acc = 0;
  if (row < A.rows && c < k) {
    offset_t left = A.sizes[row];
    const int nseg = A.single_segment ? 1 : A.nseg[row];
    for (int s = 0; s < nseg && left > 0; ++s) {
      const offset_t b = A.seg[s * A.pitch + 2 * row];
      const offset_t len = A.single_segment ? left : min(A.seg[s * A.pitch + 2 * row + 1] - b, left);
      for (offset_t j = b + g; j < b + len; j += groups)
        acc += value_or<V>(A.val, j, 1.0) * x[std::int64_t(A.col[j]) * k + c];
      left -= len;
    }
  }
  for (int off = KP; off < width; off *= 2) acc += __shfl_xor_sync(0xffffffffu, acc, off, width);
  if (row < A.rows && g == 0 && c < k) y[row * k + c] = acc;
}

}  // namespace

template <class V>
void kernels<device_space>::dcsr_spmv_k(const dcsr_view<V>& A, const double* x, double* y, int k) {
  int kp = 1;
  while (kp < k) kp *= 2;
  int groups = 1;  // lanes per row up to a warp, no more groups than a mean row has entries
  while (kp * groups < 32 && groups < A.mean_row) groups *= 2;
  const unsigned blocks = vector_blocks(A.rows, kp * groups);
  auto launch = [&](auto kpc) {
    dcsr_k_kernel<decltype(kpc)::value, V><<<blocks, vector_block>>>(A, x, y, k, groups);
  };
  switch (kp) {
    case 1: launch(std::integral_constant<int, 1>{}); break;
    case 2: launch(std::integral_constant<int, 2>{}); break;
    case 4: launch(std::integral_constant<int, 4>{}); break;
    case 8: launch(std::integral_constant<int, 8>{}); break;
    case 16: launch(std::integral_constant<int, 16>{}); break;
    default: launch(std::integral_constant<int, 32>{}); break;
  }
  FG_CUDA_CHECK_LAUNCH();
}
template void kernels<device_space>::dcsr_spmv_k<pattern>(const dcsr_view<pattern>&, const double*, double*, int);
template void kernels<device_space>::dcsr_spmv_k<double>(const dcsr_view<double>&, const double*, double*, int);

template <class Sr, class V>
void kernels<device_space>::dcsr_spmv(const dcsr_view<V>& A, const typename Sr::value_type* x,
                                      typename Sr::value_type* y) {
  dispatch_width(A.mean_row, [&](auto w) {
    if (A.single_segment)
      dcsr_single_segment_kernel<decltype(w)::value, Sr, V><<<vector_blocks(A.rows, w), vector_block>>>(A, x, y);
    else
      dcsr_vector_kernel<decltype(w)::value, Sr, V><<<vector_blocks(A.rows, w), vector_block>>>(A, x, y);
    FG_CUDA_CHECK_LAUNCH();
  });
}

#define FG_INSTANTIATE(Sr, V) \
  template void kernels<device_space>::dcsr_spmv<Sr, V>(const dcsr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
