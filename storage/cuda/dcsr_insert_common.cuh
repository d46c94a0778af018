// Shared by the two paths of storage/cuda/dcsr_insert.cu (its only includer): the device status,
// keys, the batch summary and the duplicate probe over the touched rows' volume.
#pragma once
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include <climits>
#include <cstdint>

#include "core/cuda_check.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/edge_set.hpp"

namespace fg::detail {
namespace {
using u64 = unsigned long long;
constexpr int threads = 256;

/// What the device learns about a batch; zeroed before it, read by the host after it.
struct device_status {
  u64 bad;            ///< max of ~(edge << 2 | reason): the first bad edge; 0 when none
  unsigned max_row1;  ///< largest row id + 1 (0: none)
  unsigned max_col1;
  int unsorted, overflow, at_limit, max_nseg, room, written;
  u64 segments;       ///< new segments
  u64 runs;           ///< rows that receive at least one entry
  offset_t kept, total;
  offset_t m;         ///< small path: runs of the sorted batch (what the probe loops over)
};

unsigned blocks_for(std::int64_t n) { return unsigned((n + threads - 1) / threads); }

// Enough resident blocks to fill the GPU (2048 threads per SM), for loops over device counts: the
// probe's steps are chains of dependent loads (a binary search over the runs, the segment walk, a
// binary search in the batch), so it needs every warp the SMs can hold to hide their latency.
int grid_stride_blocks() {
  static const int b = [] {
    int dev = 0, sms = 0;
    FG_CUDA_TRY(cudaGetDevice(&dev));
    FG_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return sms * (2048 / threads);
  }();
  return b;
}

// Keys are edge_set_view::key(row, col): row << 32 | col.
__device__ inline vertex_t key_row(u64 k) { return vertex_t(std::uint32_t(k >> 32)); }
__device__ inline vertex_t key_col(u64 k) { return vertex_t(std::uint32_t(k)); }

// One thread's share of a batch's summary: the first bad edge (as the max of ~(edge << 2 | reason)),
// the largest ids + 1, and whether a batch said to be sorted is not. add() returns the edge's key.
struct edge_summary {
  u64 bad = 0, row1 = 0, col1 = 0, unsorted = 0;

  template <class V>
  __device__ u64 add(const vertex_t* row, const vertex_t* col, const stored_t<V>* val, std::int64_t e, bool sorted) {
    const vertex_t r = row[e], c = col[e];
    int reason = r < 0 ? 1 : c < 0 ? 2 : 0;
    if (reason == 0 && !value_is_finite<V>(val, e)) reason = 3;
    if (reason != 0) bad = max(bad, ~((u64(e) << 2) | u64(reason)));
    row1 = max(row1, r >= 0 ? u64(r) + 1 : 0);
    col1 = max(col1, c >= 0 ? u64(c) + 1 : 0);
    const u64 k = edge_set_view::key(r, c);
    if (sorted && e > 0 && row[e - 1] >= 0 && col[e - 1] >= 0 && edge_set_view::key(row[e - 1], col[e - 1]) >= k)
      unsorted = 1;
    return k;
  }
  /// The block's summary (valid in thread 0); tmp is free again when it returns.
  template <int Threads, class Tmp>
  __device__ edge_summary reduce(Tmp& tmp) const {
    using block_reduce = cub::BlockReduce<u64, Threads>;
    edge_summary out;
    out.bad = block_reduce(tmp).Reduce(bad, cuda::maximum<>{});
    __syncthreads();
    out.row1 = block_reduce(tmp).Reduce(row1, cuda::maximum<>{});
    __syncthreads();
    out.col1 = block_reduce(tmp).Reduce(col1, cuda::maximum<>{});
    __syncthreads();
    out.unsorted = block_reduce(tmp).Reduce(unsorted, cuda::maximum<>{});
    __syncthreads();
    return out;
  }
};

// Drop batch entries already stored: one thread per stored entry of a touched row (a grid-stride
// loop up to the volume the device summed) binary-searches the batch's run for that row.
template <class V>
__global__ void probe_kernel(dcsr_view<V> A, const u64* k, const offset_t* runs, const vertex_t* run_row,
                             const offset_t* run_start, const offset_t* vol, std::uint8_t* drop) {
  const std::int64_t m = *runs;
  const offset_t total = vol[m];
  for (offset_t t = offset_t(blockIdx.x) * threads + threadIdx.x; t < total; t += offset_t(gridDim.x) * threads) {
    const std::int64_t i = last_not_greater(vol, m + 1, t);
    const vertex_t c = A.col[A.locate(run_row[i], t - vol[i])];
    offset_t lo = run_start[i], hi = run_start[i + 1];
    while (lo < hi) {
      const offset_t mid = lo + (hi - lo) / 2;
      if (key_col(k[mid]) < c) lo = mid + 1;
      else hi = mid;
    }
    if (lo < run_start[i + 1] && key_col(k[lo]) == c) drop[lo] = 1;  // racing writers all store 1
  }
}

}  // namespace
}  // namespace fg::detail
