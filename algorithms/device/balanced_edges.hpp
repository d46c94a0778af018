// Device twins only: every stored entry of a list of rows. On the GPU a thread per chunk of entries,
// not per row: R-MAT's hub rows (10^5+ entries) left to one thread each serialised a BFS push, an
// SSSP relaxation and WCC's hooking (H100: WCC on rmat-22 497 ms with a thread per row, 9.3 ms per
// entry). With OpenMP's few threads a row per iteration stays the faster (rmat-16, 2 cores: BFS
// 0.73 vs 1.78 ms, WCC 3.2 vs 49 ms): a core walks a row in cache order.
#pragma once
#include <thrust/scan.h>
#include <thrust/transform.h>

#include "algorithms/detail/app_kernels.hpp"
#include "algorithms/detail/edge_chunk.hpp"
#include "storage/device/policy.hpp"
#if defined(FG_WITH_CUDA)
#include "algorithms/cuda/frontier_edges.cuh"
#include "core/cuda_check.hpp"
#endif

namespace fg::detail {

/// Entries per thread: one binary search over the rows' offsets per chunk, then a walk.
constexpr offset_t entries_per_thread = 16;

/// A fixed grid walks the chunks (grid-stride), reading the entries' total from device memory: no
/// read-back of it before the launch (a few microseconds a call; the incremental BFS makes several).
constexpr std::int64_t chunk_threads = 132 * 2048;

template <class V, class F>
struct edge_chunks {
  dcsr_view<V> g;
  const vertex_t* rows;  ///< null: row i is i
  vertex_t count;
  const offset_t* start;  ///< count + 1 offsets: row i's entries are [start[i], start[i + 1])
  F f;
  FG_HD void operator()(std::int64_t t) const {
    const offset_t total = start[count];
    for (offset_t first = t * entries_per_thread; first < total; first += chunk_threads * entries_per_thread) {
      walk_chunk(g, rows, count, start, first, first + entries_per_thread < total ? first + entries_per_thread : total, f);
    }
  }
};

/// f(i, u, j) for every stored entry j of row u = rows[i] (rows null: u = i), i < count. CUDA: no
/// read-back; up to small_frontier rows in one launch.
template <class V, class F>
void for_each_edge(const dcsr_view<V>& g, const vertex_t* rows, vertex_t count, F f) {
  if (count <= 0) return;
#if !defined(FG_WITH_CUDA)
  parallel_for(count, [=](std::int64_t i) {
    const vertex_t u = rows ? rows[i] : vertex_t(i);
    for_each_entry(g, u, [&](offset_t j) {
      f(vertex_t(i), u, j);
      return true;
    });
  });
#else
  if (count <= small_frontier) {  // one launch, no scan scratch (algorithms/cuda/frontier_edges.cuh)
    small_frontier_kernel<V, F><<<frontier_grid, frontier_block>>>(g, rows, count, entries_per_thread, f);
    FG_CUDA_CHECK_LAUNCH();
    return;
  }
  array<offset_t, device_space> start(std::size_t(count) + 1);
  offset_t* st = start.data();
  const vertex_t* sizes = g.sizes;
  thrust::transform(policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(std::int64_t(count) + 1),
                    st, FG_LAMBDA(std::int64_t i) { return i < count ? offset_t(sizes[rows ? rows[i] : vertex_t(i)]) : offset_t(0); });
  thrust::exclusive_scan(policy(), st, st + count + 1, st);
  parallel_for(chunk_threads, edge_chunks<V, F>{g, rows, count, st, f});
#endif
}

/// f(j) for every stored entry j of g, in no order. A dense store (dcsr_view::dense: no slack) is
/// one flat pass over [0, nnz), a thread an entry; any other walks its rows' segments
/// (for_each_edge). On the GPU the walk's search a chunk was the cost: PageRank's out-weights on
/// rmat-24 took 8 ms, three SpMVs (a CUPTI trace on the H100).
template <class V, class F>
void for_each_stored_entry(const dcsr_view<V>& g, F f) {
  if (g.dense >= 0) parallel_for(g.dense, f);
  else for_each_edge(g, nullptr, g.rows, FG_LAMBDA(vertex_t, vertex_t, offset_t j) { f(std::int64_t(j)); });
}

}  // namespace fg::detail
