// Shared by the batch kernels of storage/cuda/dcsr_insert.cu and storage/cuda/dcsr_erase.cu (their
// only includers; each .cu gets its own copy of these internal-linkage helpers): the device status
// and its one read-back, keys, the batch check, runs, and the lookup of a stored entry among a
// touched row's batch entries.
#pragma once
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include <climits>
#include <cstdint>

#include "core/bits.hpp"
#include "core/cuda_check.hpp"
#include "core/memory.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/edge_set.hpp"

namespace fg::detail {
namespace {
using u64 = unsigned long long;
constexpr int threads = 256;

using device_status = batch_record;  // storage/detail/kernels.hpp: the host decodes it too

// A deferred batch's first kernel notes whether the chain has stalled (then nothing of it is
// written); its last kernel moves the chain on, or stalls it when the batch wrote nothing.
__device__ inline void chain_enter(const batch_chain* chain, device_status* st) {
  st->skipped = chain != nullptr && chain->stalled != 0;
}
// An insertion's end: what dcsr_matrix::committed does to the host's copy (rows: a square store
// keeps rows == cols).
__device__ inline void chain_leave_insert(batch_chain* chain, const device_status* st, bool square) {
  if (chain == nullptr) return;
  if (st->written == 0) {
    chain->stalled = 1;
    return;
  }
  chain->alloc_ptr += st->total;
  chain->nnz += st->kept;
  chain->rows = max(chain->rows, vertex_t(square ? max(st->max_row1, st->max_col1) : st->max_row1));
  chain->cols = max(chain->cols, vertex_t(square ? max(st->max_row1, st->max_col1) : st->max_col1));
  if (square) chain->rows = chain->cols = max(chain->rows, chain->cols);
}
// Whether a checked and planned insertion may be written (0), or why not: -2 skipped (its chain has
// stalled), -1 a bad batch (a bad edge, an unsorted "sorted" batch, or an id of 2^31 - 1, which
// leaves no room for rows = id + 1: the host names it), else the insert_room the store must make.
__device__ inline int insert_room_of(const device_status* st, const insert_request& rq, bool overflow, offset_t base,
                                     offset_t total) {
  const unsigned rows_needed = rq.square ? max(st->max_row1, st->max_col1) : st->max_row1;
  if (st->skipped != 0) return -2;
  if (st->bad != 0 || st->unsorted != 0 || max(st->max_row1, st->max_col1) > unsigned(INT_MAX)) return -1;
  if (rows_needed > unsigned(rq.row_cap)) return int(insert_room::rows);
  if (overflow) return int(insert_room::segments);
  if (base + total > rq.capacity) return int(insert_room::buffer);
  return 0;
}

// The bump allocator's position and the slack of new segments a batch uses: the request's, or in a
// chain the chain's (dcsr_matrix::slack: the configured alpha, else the mean row rounded up).
__device__ inline offset_t alloc_of(const insert_request& rq) {
  return rq.chain != nullptr ? rq.chain->alloc_ptr : rq.alloc_ptr;
}
__device__ inline offset_t slack_of(const insert_request& rq) {
  if (rq.chain == nullptr || rq.alpha >= 0) return rq.alpha;
  const offset_t rows = rq.chain->rows;
  return rows > 0 ? max(offset_t(1), (rq.chain->nnz + rows - 1) / rows) : 1;
}

unsigned blocks_for(std::int64_t n) { return unsigned((n + threads - 1) / threads); }

// Enough resident blocks to fill the GPU (2048 threads per SM), for loops over device counts: the
// probe's steps are chains of dependent loads (a binary search over the runs, the segment walk, a
// binary search in the batch), so it needs every warp the SMs can hold to hide their latency.
int grid_stride_blocks() {
  return sm_count() * (2048 / threads);
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

// The batch entry (sorted keys k) that lists the column of stored entry t of the touched rows
// flattened (vol: the exclusive scan of their sizes, m rows), or -1: a binary search over the rows,
// the segment walk, a binary search in the row's run.
template <class V>
__device__ offset_t listed_at(const dcsr_view<V>& A, const u64* k, std::int64_t m, const vertex_t* run_row,
                              const offset_t* run_start, const offset_t* vol, offset_t t) {
  const std::int64_t i = last_not_greater(vol, m + 1, t);
  const vertex_t c = A.col[A.locate(run_row[i], t - vol[i])];
  offset_t lo = run_start[i], hi = run_start[i + 1];
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (key_col(k[mid]) < c) lo = mid + 1;
    else hi = mid;
  }
  return lo < run_start[i + 1] && key_col(k[lo]) == c ? lo : -1;
}

// Drop batch entries already stored: one thread per stored entry of a touched row (a grid-stride
// loop up to the volume the device summed) looks its column up in the batch's run for that row.
template <class V>
__global__ void probe_kernel(dcsr_view<V> A, const u64* k, const offset_t* runs, const vertex_t* run_row,
                             const offset_t* run_start, const offset_t* vol, std::uint8_t* drop) {
  const std::int64_t m = *runs;
  const offset_t total = vol[m];
  for (offset_t t = offset_t(blockIdx.x) * threads + threadIdx.x; t < total; t += offset_t(gridDim.x) * threads) {
    const offset_t at = listed_at(A, k, m, run_row, run_start, vol, t);
    if (at >= 0) drop[at] = 1;  // racing writers all store 1
  }
}

// Check every edge, make its (row, col) key, and reduce the summary: one atomic per block. With
// past != 0 (a deletion), a key that cannot be stored (a bad id, a row >= row_limit) becomes past,
// which sorts after every key of the store within the radix sort's bits.
template <class V>
__global__ void __launch_bounds__(threads)
check_kernel(const vertex_t* row, const vertex_t* col, const stored_t<V>* val, std::int64_t n, bool sorted,
             vertex_t row_limit, u64 past, u64* key, std::uint32_t* perm, const batch_chain* chain,
             device_status* st) {
  __shared__ typename cub::BlockReduce<u64, threads>::TempStorage tmp;
  const std::int64_t e = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  if (e == 0) chain_enter(chain, st);
  edge_summary mine;
  if (e < n) {
    const u64 k = mine.add<V>(row, col, val, e, sorted);
    key[e] = past == 0 || (row[e] >= 0 && col[e] >= 0 && row[e] < row_limit) ? k : past;
    if (perm != nullptr) perm[e] = std::uint32_t(e);
  }
  const edge_summary b = mine.reduce<threads>(tmp);
  if (threadIdx.x == 0) {
    if (b.bad != 0) atomicMax(&st->bad, b.bad);
    if (b.row1 != 0) atomicMax(&st->max_row1, unsigned(b.row1));
    if (b.col1 != 0) atomicMax(&st->max_col1, unsigned(b.col1));
    if (b.unsorted != 0) st->unsorted = 1;
  }
}

struct head_of {  // 1 where a new row starts in the sorted keys
  const u64* k;
  __host__ __device__ offset_t operator()(std::int64_t e) const { return e == 0 || (k[e] >> 32) != (k[e - 1] >> 32); }
};
struct kept_of {  // 1 for an entry that survives the drop (0 past the end)
  const std::uint8_t* drop;
  std::int64_t n;
  __host__ __device__ offset_t operator()(std::int64_t e) const { return e < n && drop[e] == 0; }
};

// Where a batch reports: its pipeline record (deferred), or workspace slot 0, read back at its end.
// Both can fail only here, before the batch's first launch.
device_status* status_slot(batch_record* record, batch_workspace<device_space>& ws) {
  return record != nullptr ? record : ws.get<device_status>(0, 1);
}

// The batch's one read-back, decoded (none for a deferred batch: its record waits for the pipeline).
template <class Status>
Status read_back(const batch_record* record, const device_status* st, Status (*decode)(const batch_record&)) {
  if (record != nullptr) return Status{};
  device_status h;  // a small read: through the allocator's pinned buffer (memory::copy_to_host)
  memory::copy_to_host(&h, st, sizeof(device_status));
  return decode(h);
}

}  // namespace
}  // namespace fg::detail
