// SURAA execution phase (Mohammed et al. 2019, §4.2, Algorithms 1 and 3-6). Replaces the portable twin
// storage/device/suraa_spmv_portable.cpp in the CUDA build; reference twin: storage/reference/suraa.cpp.
//
// Dynamic parallelism (G1): a parent thread per row launches a one-block child grid sized for that row
// into cudaStreamFireAndForget. More than 2048 pending child grids hung an H100 (shared/H100-FACTS.md),
// so each parent launch covers at most suraa_children_per_launch rows and the parent launches follow
// each other on one stream: a parent grid completes only after its children, so at most 1024 are
// ever pending, half of cudaLimitDevRuntimePendingLaunchCount's default (2048 at a time hung twice
// beside other processes on the GPU: storage/suraa.hpp). Should a child
// launch still fail, the parent thread computes the row itself (slow, never wrong).
// Needs relocatable device code and cudadevrt (CMakeLists.txt).
#include <algorithm>

#include "core/semiring.hpp"
#include "storage/cuda/block_reduce.cuh"
#include "storage/cuda/stream_set.cuh"
#include "storage/cuda/vector_common.cuh"
#include "storage/detail/kernels.hpp"
#include "storage/detail/suraa_kernels.hpp"

namespace fg::detail {
namespace {

constexpr int block = 256;

/// One row, sequentially (the scalar kernel's body).
template <class Sr, class V>
__device__ inline typename Sr::value_type row_dot(const suraa_view<V>& A, std::int64_t i,
                                                  const typename Sr::value_type* x) {
  auto acc = Sr::zero();
  const offset_t end = A.row_ptr[i + 1];
  for (offset_t j = A.row_ptr[i]; j < end; ++j)
    acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
  return acc;
}

// Algorithm 5 (G3): a thread per row of sorted rows [begin, end).
template <class Sr, class V>
__global__ void __launch_bounds__(block)
suraa_scalar_kernel(suraa_view<V> A, vertex_t begin, vertex_t end, const typename Sr::value_type* __restrict__ x,
                    typename Sr::value_type* __restrict__ y) {
  const std::int64_t i = begin + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < end) y[A.perm[i]] = row_dot<Sr>(A, i, x);
}

// Algorithm 6 (G2): Y threads per row (a multiple of 32 dividing the block): shuffles within each
// warp, then the row's first thread adds the other warps' partials from shared memory.
template <int Y, class Sr, class V>
__global__ void __launch_bounds__(block)
suraa_vector_kernel(suraa_view<V> A, vertex_t begin, vertex_t end, const typename Sr::value_type* __restrict__ x,
                    typename Sr::value_type* __restrict__ y) {
  static_assert(Y % 32 == 0 && block % Y == 0, "Y: a multiple of 32 dividing the block");
  const std::int64_t tid = std::int64_t(blockIdx.x) * block + threadIdx.x;
  const std::int64_t i = begin + tid / Y;
  const int lane = int(tid % Y);
  auto acc = Sr::zero();
  if (i < end) {
    const offset_t e = A.row_ptr[i + 1];
    for (offset_t j = A.row_ptr[i] + lane; j < e; j += Y)
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
  }
  acc = subwarp_reduce<32, Sr>(acc);  // every warp lies inside one row (Y >= 32): all lanes call it
  if constexpr (Y > 32) {
    __shared__ typename Sr::value_type partial[block / 32];
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (lane == 0)
      for (int w = 1; w < Y / 32; ++w) acc = Sr::add(acc, partial[(threadIdx.x >> 5) + w]);
  }
  if (lane == 0 && i < end) y[A.perm[i]] = acc;
}

// Algorithm 4 (G1 child): one block reduces entries [b, e) into *out.
template <class Sr, class V>
__global__ void suraa_child_kernel(const vertex_t* col, const stored_t<V>* val, offset_t b, offset_t e,
                                   const typename Sr::value_type* x, typename Sr::value_type* out) {
  auto acc = Sr::zero();
  for (offset_t j = b + threadIdx.x; j < e; j += blockDim.x)
    acc = Sr::add(acc, Sr::mul(value_or<V>(val, j, Sr::pattern_value()), x[col[j]]));
  acc = block_reduce<Sr>(acc);
  if (threadIdx.x == 0) *out = acc;
}

// Algorithm 3 (G1 parent): a thread per sorted row of [begin, end) (end - begin <= suraa_children_per_launch) launches
// that row's child grid with threads from the row's length.
template <class Sr, class V>
__global__ void __launch_bounds__(block)
suraa_parent_kernel(suraa_view<V> A, vertex_t begin, vertex_t end, const typename Sr::value_type* x,
                    typename Sr::value_type* y) {
  const std::int64_t i = begin + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= end) return;
  const offset_t b = A.row_ptr[i], e = A.row_ptr[i + 1];
  suraa_child_kernel<Sr, V><<<1, suraa_threads(e - b), 0, cudaStreamFireAndForget>>>(A.col, A.val, b, e, x,
                                                                                     y + A.perm[i]);
  if (cudaGetLastError() != cudaSuccess) y[A.perm[i]] = row_dot<Sr>(A, i, x);
}

// The launch-once equivalent of G1: a block per row, block size from the segment's mean npr.
template <class Sr, class V>
__global__ void suraa_row_block_kernel(suraa_view<V> A, vertex_t begin, const typename Sr::value_type* __restrict__ x,
                                       typename Sr::value_type* __restrict__ y) {
  const std::int64_t i = begin + std::int64_t(blockIdx.x);
  auto acc = Sr::zero();
  const offset_t e = A.row_ptr[i + 1];
  for (offset_t j = A.row_ptr[i] + threadIdx.x; j < e; j += blockDim.x)
    acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
  acc = block_reduce<Sr>(acc);
  if (threadIdx.x == 0) y[A.perm[i]] = acc;
}

inline unsigned blocks_for(std::int64_t threads) { return unsigned((threads + block - 1) / block); }

/// Calls launch(std::integral_constant<int, Y>{}) for Y in {32, 64, 128, 256}.
template <class Launch>
void dispatch_y(int y, Launch&& launch) {
  switch (y) {
    case 32: launch(std::integral_constant<int, 32>{}); break;
    case 64: launch(std::integral_constant<int, 64>{}); break;
    case 128: launch(std::integral_constant<int, 128>{}); break;
    default: launch(std::integral_constant<int, 256>{}); break;
  }
}

}  // namespace

// Algorithm 1: G3 launches, then G2, then G1 (one stream for the parent launches, or a launch per G1
// entry without dynamic parallelism); all waited for. seg is the launch plan (storage/suraa.cpp:
// consecutive segments of one kernel and thread count joined, or the segments themselves). A large
// launch takes a stream of its own from the process-wide pool (stream_set.cuh); small ones
// (small_launch: <= 64K entries of work) all go, in order, to one shared pool stream, which saves a
// stream sync each. The G1 parent launches always have their own stream (their child grids make them
// long whatever their nnz).
template <class Sr, class V>
void suraa_kernels<device_space>::suraa_spmv(const suraa_view<V>& A, const suraa_segment* seg, std::size_t nseg,
                                             bool dynamic_parallelism, const typename Sr::value_type* x,
                                             typename Sr::value_type* y) {
  std::size_t g1 = 0;
  while (g1 < nseg && seg[g1].group == suraa_group::g1_dynamic) ++g1;
  const bool dp = g1 > 0 && dynamic_parallelism;
  auto is_small = [&](std::size_t s) { return small_launch(seg[s].nnz + (seg[s].end - seg[s].begin)); };
  // Streams: one per large segment (the G1 parents count as one), plus one shared by the small ones.
  std::size_t large = dp ? 1 : 0;
  bool any_small = false;
  for (std::size_t s = dp ? g1 : 0; s < nseg; ++s) {
    if (seg[s].end <= seg[s].begin) continue;  // no rows: nothing to launch
    if (is_small(s)) any_small = true;
    else ++large;
  }
  stream_set streams(large + (any_small ? 1 : 0));
  std::size_t next = 0;
  // Large launches take streams 0.. in launch order; the shared small stream is the last one.
  auto stream_for = [&](std::size_t s) { return is_small(s) ? streams[large] : streams[next++]; };
  for (int group : {3, 2}) {
    for (std::size_t s = g1; s < nseg; ++s) {
      const suraa_segment& g = seg[s];
      if (int(g.group) != group || g.end <= g.begin) continue;
      const std::int64_t rows = g.end - g.begin;
      cudaStream_t st = stream_for(s);
      if (g.group == suraa_group::g3_scalar) {
        suraa_scalar_kernel<Sr, V><<<blocks_for(rows), block, 0, st>>>(A, g.begin, g.end, x, y);
        FG_CUDA_CHECK_LAUNCH();
      } else {
        dispatch_y(g.threads, [&](auto w) {
          constexpr int Y = decltype(w)::value;
          suraa_vector_kernel<Y, Sr, V><<<blocks_for(rows * Y), block, 0, st>>>(A, g.begin, g.end, x, y);
          FG_CUDA_CHECK_LAUNCH();
        });
      }
    }
  }
  if (dp) {
    cudaStream_t st = streams[next++];
    const std::int64_t last = seg[g1 - 1].end;
    for (std::int64_t b = seg[0].begin; b < last; b += suraa_children_per_launch) {
      const std::int64_t e = std::min<std::int64_t>(b + suraa_children_per_launch, last);
      suraa_parent_kernel<Sr, V><<<blocks_for(e - b), block, 0, st>>>(A, vertex_t(b), vertex_t(e), x, y);
      FG_CUDA_CHECK_LAUNCH();
    }
  } else {
    for (std::size_t s = 0; s < g1; ++s) {
      if (seg[s].end <= seg[s].begin) continue;
      suraa_row_block_kernel<Sr, V><<<unsigned(seg[s].end - seg[s].begin), seg[s].threads, 0, stream_for(s)>>>(
          A, seg[s].begin, x, y);
      FG_CUDA_CHECK_LAUNCH();
    }
  }
  streams.finish();
}

#define FG_INSTANTIATE(Sr, V)                                                                     \
  template void suraa_kernels<device_space>::suraa_spmv<Sr, V>(const suraa_view<V>&, const suraa_segment*, \
                                                               std::size_t, bool, const Sr::value_type*,   \
                                                               Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
