// A whole thread block reducing one row (SURAA's child and vector kernels, ADCSR's long-row bins):
// shuffles within each warp, then one partial per warp through shared memory (SURAA Algorithm 4,
// lines 11-17). blockDim.x must be a multiple of 32 (every warp full, as the shuffles use the full
// mask) and at most 1024; every thread of the block must call it.
#pragma once
#include "storage/cuda/vector_common.cuh"

namespace fg::detail {

/// Thread 0 of the block ends with the combination of every thread's v.
template <class Sr>
__device__ inline typename Sr::value_type block_reduce(typename Sr::value_type v) {
  using T = typename Sr::value_type;
  __shared__ T partial[32];
  const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5, warps = int(blockDim.x) >> 5;
  v = subwarp_reduce<32, Sr>(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < warps ? partial[lane] : Sr::zero();
    v = subwarp_reduce<32, Sr>(v);
  }
  return v;
}

}  // namespace fg::detail
