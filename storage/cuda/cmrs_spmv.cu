// CMRS SpMV (Koza et al. 2014: §4 Algorithm 1 / appendix §9 basic kernel; §6.7 / appendix §10 modified kernel); twins: storage/device/cmrs_spmv_portable.cpp (CPU build), storage/reference/cmrs.cpp.
//
// A warp per strip (grid-stride, so a warp may take several). Each warp owns a buffer in dynamic
// shared memory holding per-lane partial sums of the strip's rows:
//   basic:    buf_{lane, r} at buf[H * lane + r], 32 x H slots (the paper's cyclic mapping: row r's
//             32 partial sums sit at r, r + H, ..., r + 31 H, so halving the lane range is a fold of
//             a contiguous prefix: buf[t] += buf[t + N] for t < N, N = 16H, 8H, 4H, 2H, then H);
//   modified: buf_{lane mod 8, r} at buf[H * (lane % 8) + r], 8 x 16 slots (§6.7); the layout
//             (storage/cmrs.hpp) guarantees that within one 32-entry window no two lanes share a slot.
// Departures from the appendix code, which relied on implicit warp-synchronous execution (unsafe
// since Volta's independent thread scheduling, as its own comment warns):
//  - __syncwarp() after zeroing, after accumulation, after each reduction step, and before the next
//    strip's zeroing; each reduction step writes only [0, N) and reads only [N, 2N) (the appendix
//    lets lanes past N write slots other lanes read in the same step);
//  - modified: a __syncwarp() after every 32-entry window, since lanes L and L + 8 k may hit the
//    same slot in different windows (every lane runs the same number of windows: strips are padded
//    to multiples of 32);
//  - semiring-generic (Sr::zero / Sr::add / Sr::mul); padding slots are skipped, not multiplied.
#include <algorithm>
#include <climits>

#include "core/semiring.hpp"
#include "storage/cuda/vector_common.cuh"
#include "storage/detail/cmrs_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
namespace {

constexpr int warp_size = 32;

/// One entry of Algorithm 1's loop: uncompress RowInStrip and the column, then
/// buf_{lane, r} <- buf_{lane, r} (+) Val_j (x) x_c. `mine` is the lane's row of the buffer.
template <bool SkipPadding, class Sr, class V>
__device__ __forceinline__ void accumulate(const cmrs_view<V>& A, const typename Sr::value_type* __restrict__ x,
                                           offset_t j, typename Sr::value_type* mine) {
  const std::uint32_t w = __ldg(A.col + j);
  if (SkipPadding && w == cmrs_padding) return;
  const int r = cmrs_row_of(w);
  mine[r] = Sr::add(mine[r], Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), __ldg(x + cmrs_col_of(w))));
}

/// One reduction step: buf[t] <- buf[t] (+) buf[t + N] for t < N, then a warp barrier. Writes
/// [0, N), reads [N, 2N): no lane reads a slot written in the same step.
template <int N, class Sr, class T>
__device__ __forceinline__ void fold(T* buf, int lane) {
#pragma unroll
  for (int k = 0; k < (N + warp_size - 1) / warp_size; ++k) {
    const int t = lane + warp_size * k;
    if (N % warp_size == 0 || t < N) buf[t] = Sr::add(buf[t], buf[t + N]);
  }
  __syncwarp();
}

template <int Slots, class Sr, class T>
__device__ __forceinline__ void zero(T* buf, int lane) {  // coalesced and conflict-free
#pragma unroll
  for (int k = 0; k < Slots / warp_size; ++k) buf[lane + warp_size * k] = Sr::zero();
  __syncwarp();
}

template <int H, class Sr, class V>
__global__ void cmrs_kernel(cmrs_view<V> A, const typename Sr::value_type* __restrict__ x,
                            typename Sr::value_type* __restrict__ y) {
  using T = typename Sr::value_type;
  extern __shared__ __align__(16) unsigned char cmrs_shared[];
  const int lane = int(threadIdx.x) & (warp_size - 1);
  const int warp = int(threadIdx.x) / warp_size;
  const int block_warps = int(blockDim.x) / warp_size;
  T* const buf = reinterpret_cast<T*>(cmrs_shared) + warp * (warp_size * H);
  T* const mine = buf + H * lane;
  const std::int64_t stride = std::int64_t(gridDim.x) * block_warps;
  for (std::int64_t s = std::int64_t(blockIdx.x) * block_warps + warp; s < A.strips; s += stride) {
    zero<warp_size * H, Sr>(buf, lane);
    const offset_t start = A.strip_ptr[s], end = A.strip_ptr[s + 1];
    offset_t mid = start;
    if (A.align) {  // §4/§6.3 for mu > 32: the unaligned head first, then 32-aligned windows
      mid = min(end, (start & ~offset_t(warp_size - 1)) + warp_size);
      if (start + lane < mid) accumulate<false, Sr>(A, x, start + lane, mine);
    }
    for (offset_t j = mid + lane; j < end; j += warp_size) accumulate<false, Sr>(A, x, j, mine);
    __syncwarp();
    // Algorithm 1's reduction buf_{0, r} = sum over lanes, in log2(32) folds of the lane range.
    fold<16 * H, Sr>(buf, lane);
    fold<8 * H, Sr>(buf, lane);
    fold<4 * H, Sr>(buf, lane);
    fold<2 * H, Sr>(buf, lane);
    const std::int64_t row = s * H + lane;
    if (lane < H && row < A.rows) y[row] = Sr::add(buf[lane], buf[lane + H]);
    __syncwarp();  // the next strip's zeroing overwrites slots other lanes have just read
  }
}

template <class Sr, class V>
__global__ void cmrs_modified_kernel(cmrs_view<V> A, const typename Sr::value_type* __restrict__ x,
                                     typename Sr::value_type* __restrict__ y) {
  using T = typename Sr::value_type;
  constexpr int H = cmrs_modified_height, M = cmrs_modified_groups;
  extern __shared__ __align__(16) unsigned char cmrs_shared[];
  const int lane = int(threadIdx.x) & (warp_size - 1);
  const int warp = int(threadIdx.x) / warp_size;
  const int block_warps = int(blockDim.x) / warp_size;
  T* const buf = reinterpret_cast<T*>(cmrs_shared) + warp * (M * H);
  T* const mine = buf + H * (lane % M);  // §6.7: buf[thread_lane mod M, r]
  const std::int64_t stride = std::int64_t(gridDim.x) * block_warps;
  for (std::int64_t s = std::int64_t(blockIdx.x) * block_warps + warp; s < A.strips; s += stride) {
    zero<M * H, Sr>(buf, lane);
    const offset_t start = A.strip_ptr[s], end = A.strip_ptr[s + 1];  // 32-aligned, 32 W apart
    for (offset_t j = start + lane; j < end; j += warp_size) {
      accumulate<true, Sr>(A, x, j, mine);
      __syncwarp();  // slots are disjoint within a window only
    }
    fold<4 * H, Sr>(buf, lane);  // 8 lane groups -> 4 -> 2, then the last pair below
    fold<2 * H, Sr>(buf, lane);
    const std::int64_t row = s * H + lane;
    if (lane < H && row < A.rows) y[row] = Sr::add(buf[lane], buf[lane + H]);
    __syncwarp();
  }
}

template <class Kernel, class V, class T>
void launch(Kernel kernel, const cmrs_view<V>& A, std::size_t shared_per_warp, const T* x, T* y) {
  const int wpb = A.warps_per_block;
  const std::size_t shared = shared_per_warp * std::size_t(wpb);
  if (shared > 48 * 1024)  // beyond the default limit; the launch fails cleanly past the device's
    FG_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  const auto blocks = unsigned(std::min<offset_t>((A.strips + wpb - 1) / wpb, INT_MAX));
  kernel<<<blocks, unsigned(wpb * warp_size), shared>>>(A, x, y);
  FG_CUDA_CHECK_LAUNCH();
}

/// Calls f(std::integral_constant<int, H>{}) for the run-time height h in [1, 16].
template <class F>
void dispatch_height(int h, F&& f) {
  switch (h) {
#define FG_HEIGHT_CASE(H) \
  case H: f(std::integral_constant<int, H>{}); break;
    FG_HEIGHT_CASE(1) FG_HEIGHT_CASE(2) FG_HEIGHT_CASE(3) FG_HEIGHT_CASE(4) FG_HEIGHT_CASE(5)
    FG_HEIGHT_CASE(6) FG_HEIGHT_CASE(7) FG_HEIGHT_CASE(8) FG_HEIGHT_CASE(9) FG_HEIGHT_CASE(10)
    FG_HEIGHT_CASE(11) FG_HEIGHT_CASE(12) FG_HEIGHT_CASE(13) FG_HEIGHT_CASE(14) FG_HEIGHT_CASE(15)
    default: f(std::integral_constant<int, 16>{}); break;
#undef FG_HEIGHT_CASE
  }
}

}  // namespace

template <class Sr, class V>
void cmrs_kernels<device_space>::cmrs_spmv(const cmrs_view<V>& A, const typename Sr::value_type* x,
                                           typename Sr::value_type* y) {
  using T = typename Sr::value_type;
  if (A.strips == 0) return;
  if (A.modified) {
    launch(cmrs_modified_kernel<Sr, V>, A, sizeof(T) * cmrs_modified_groups * cmrs_modified_height, x, y);
    return;
  }
  dispatch_height(A.height, [&](auto h) {
    constexpr int H = decltype(h)::value;
    launch(cmrs_kernel<H, Sr, V>, A, sizeof(T) * warp_size * H, x, y);
  });
}

#define FG_INSTANTIATE(Sr, V)                                                                       \
  template void cmrs_kernels<device_space>::cmrs_spmv<Sr, V>(const cmrs_view<V>&, const Sr::value_type*, \
                                                             Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
