// CUDA only: every stored entry of a short list of rows in one launch. The general path
// (algorithms/device/balanced_edges.hpp) scans the rows' sizes with a transform and CUB's scan
// before it walks the chunks: four launches and a scratch allocation, which for a frontier of a
// few hundred vertices cost more than the walk (the incremental BFS after a batch lowers levels in
// ~3 such rounds). Here every block scans the sizes itself into shared memory (at most
// small_frontier gathers, from L2) and the grid walks the same fixed-size chunks.
#pragma once
#include <cub/block/block_scan.cuh>

#include "algorithms/detail/edge_chunk.hpp"

namespace fg::detail {

constexpr int frontier_block = 256;
constexpr int frontier_items = 8;  ///< rows per thread in the block scan
/// The most rows the one-launch path takes.
constexpr vertex_t small_frontier = frontier_block * frontier_items;
/// Blocks of the one-launch path: two per H100 SM; the chunk loop strides over longer walks.
constexpr int frontier_grid = 264;

template <class V, class F>
__global__ void __launch_bounds__(frontier_block)
    small_frontier_kernel(dcsr_view<V> g, const vertex_t* rows, vertex_t count, offset_t per_thread, F f) {
  using block_scan = cub::BlockScan<offset_t, frontier_block>;
  __shared__ typename block_scan::TempStorage scratch;
  __shared__ offset_t start[small_frontier + 1];
  offset_t s[frontier_items];
  for (int k = 0; k < frontier_items; ++k) {
    const vertex_t i = vertex_t(threadIdx.x) * frontier_items + k;
    s[k] = i < count ? offset_t(g.sizes[rows ? rows[i] : i]) : offset_t(0);
  }
  offset_t total;
  block_scan(scratch).ExclusiveSum(s, s, total);
  for (int k = 0; k < frontier_items; ++k) {
    const vertex_t i = vertex_t(threadIdx.x) * frontier_items + k;
    if (i < count) start[i] = s[k];
  }
  if (threadIdx.x == 0) start[count] = total;
  __syncthreads();
  const offset_t stride = offset_t(gridDim.x) * frontier_block * per_thread;
  for (offset_t first = (offset_t(blockIdx.x) * frontier_block + threadIdx.x) * per_thread; first < total; first += stride) {
    walk_chunk(g, rows, count, start, first, first + per_thread < total ? first + per_thread : total, f);
  }
}

}  // namespace fg::detail
