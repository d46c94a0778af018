// One thread block reduces a block of rows of a CSR-like structure (CSR-Adaptive, Greathouse & Daga
// 2014): used by CSR-Adaptive itself and by HYB's tail, which differ only in how a row's sum is
// written (emit). A block of several rows holds < 2 * block_nnz products: they are staged in shared
// memory with coalesced loads, then each row is reduced by a sub-warp sized from the block's mean
// row length. A block of one long row (> block_nnz) is reduced by the whole thread block.
#pragma once
#include "storage/coo.hpp"
#include "storage/cuda/block_reduce.cuh"
#include "storage/cuda/vector_common.cuh"

namespace fg::detail {

/// Every thread of the block must call this with the same arguments (it synchronises the block).
/// staged must hold 2 * block_nnz values; emit(r, sum) is called once per row r in [r0, r1).
template <class Sr, class V, class Emit>
__device__ inline void row_block_spmv(const offset_t* rp, const vertex_t* __restrict__ col,
                                      const stored_t<V>* __restrict__ val, vertex_t r0, vertex_t r1,
                                      offset_t block_nnz, const typename Sr::value_type* __restrict__ x,
                                      typename Sr::value_type* staged, Emit emit) {
  using T = typename Sr::value_type;
  const offset_t base = rp[r0], nnz = rp[r1] - base;
  if (r1 - r0 == 1 && nnz > block_nnz) {  // uniform for the block, as block_reduce synchronises
    T acc = Sr::zero();
    for (offset_t j = base + threadIdx.x; j < base + nnz; j += blockDim.x)
      acc = Sr::add(acc, Sr::mul(value_or<V>(val, j, Sr::pattern_value()), x[col[j]]));
    acc = block_reduce<Sr>(acc);
    if (threadIdx.x == 0) emit(r0, acc);
    return;
  }
  for (offset_t i = threadIdx.x; i < nnz; i += blockDim.x)
    staged[i] = Sr::mul(value_or<V>(val, base + i, Sr::pattern_value()), x[col[base + i]]);
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
    if (r < r1 && lane == 0) emit(r, acc);
  }
}

}  // namespace fg::detail
