// kernels<device_space>::insert on the GPU with no read-back before the end: every step is a kernel
// or a CUB call of a shape the host knows from the batch size alone (n edges -> n + 1 runs at most),
// counts that only the device knows (runs, the touched rows' volume, the kept entries) stay in
// device memory and bound grid-stride loops, and the write kernels run only when the device-side
// checks passed. The host reads one status record per batch. Same layout as the reference twin
// (addresses from a scan, not an atomicAdd), so the two stay bit-identical. Replaces
// storage/device/dcsr_insert_portable.cpp in the CUDA build.
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

#include "core/cuda_check.hpp"
#include "core/memory.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/cuda/dcsr_batch_common.cuh"
#include "storage/cuda/dcsr_insert_small.cuh"

namespace fg::detail {
namespace {
// Runs of equal rows (run_of: inclusive count of heads), each touched row's stored size (what the
// duplicate probe walks), and the repeats within the batch. Thread e in [0, n].
template <class V>
__global__ void runs_kernel(dcsr_view<V> A, vertex_t row_cap, const u64* k, std::int64_t n, bool collapse,
                            edge_set_view set, const offset_t* run_of, vertex_t* run_row, offset_t* run_start,
                            offset_t* vol, std::uint8_t* drop) {
  const std::int64_t e = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  if (e > n) return;
  const std::int64_t m = run_of[n - 1];
  if (e < n) {
    const bool repeat = collapse && e > 0 && k[e] == k[e - 1];
    drop[e] = repeat || (collapse && set.slot != nullptr && set.contains(k[e]));
    if (e == 0 || (k[e] >> 32) != (k[e - 1] >> 32)) {
      const std::int64_t i = run_of[e] - 1;
      const vertex_t r = key_row(k[e]);
      run_row[i] = r;
      run_start[i] = e;
      vol[i] = collapse && set.slot == nullptr && r >= 0 && r < row_cap ? A.sizes[r] : 0;
    }
  }
  if (e >= m) vol[e] = 0;
  if (e == m) run_start[m] = n;
}

// Segment plan per run (thread i in [0, n]): the new segment a row needs when its free space is
// short, and the totals the host needs (one atomic per block).
template <class V>
__global__ void __launch_bounds__(threads)
plan_kernel(dcsr_view<V> A, insert_request rq, std::int64_t n, const offset_t* run_of, const vertex_t* run_row, const offset_t* run_start, const offset_t* pos,
            offset_t* need, device_status* st) {
  using reduce = cub::BlockReduce<int, threads>;
  __shared__ typename reduce::TempStorage tmp;
  const std::int64_t i = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  const std::int64_t m = run_of[n - 1];
  const vertex_t row_cap = rq.row_cap;
  const offset_t alpha = slack_of(rq);
  int over = 0, limit = 0, segs_max = 0, segs_new = 0, runs = 0;
  if (i <= n) {
    offset_t nd = 0;
    if (i < m) {
      const vertex_t r = run_row[i];
      const offset_t b = pos[run_start[i + 1]] - pos[run_start[i]];
      if (b > 0 && r >= 0 && r < row_cap) {
        const offset_t size = A.sizes[r], free_space = A.capacity(r) - size;
        nd = segment_need(b, free_space, size, alpha, rq.row_growth);
        const int segs = A.nseg[r] + (nd > 0 ? 1 : 0);
        over = segs > A.k;
        limit = segs == A.k;
        segs_max = segs;
        segs_new = nd > 0;
        runs = 1;
      }
    }
    need[i] = nd;
  }
  const int o = reduce(tmp).Reduce(over, cuda::maximum<>{});
  __syncthreads();
  const int l = reduce(tmp).Reduce(limit, cuda::maximum<>{});
  __syncthreads();
  const int s = reduce(tmp).Reduce(segs_max, cuda::maximum<>{});
  __syncthreads();
  const int g = reduce(tmp).Sum(segs_new);
  __syncthreads();
  const int u = reduce(tmp).Sum(runs);
  if (threadIdx.x == 0) {
    if (o != 0) st->overflow = 1;
    if (l != 0) st->at_limit = 1;
    if (s != 0) atomicMax(&st->max_nseg, s);
    if (g != 0) atomicAdd(&st->segments, u64(g));
    if (u != 0) atomicAdd(&st->runs, u64(u));
  }
}

// Decide (every thread alike, from the status) and, when the batch fits, add the new segments and
// the new row sizes; the old sizes are kept for the entries' places. Thread i in [0, n).
template <class V>
__global__ void commit_kernel(dcsr_view<V> A, insert_request rq, std::int64_t n, const offset_t* run_of,
                              const vertex_t* run_row, const offset_t* run_start, const offset_t* pos,
                              const offset_t* addr, vertex_t* old_size, device_status* st) {
  const std::int64_t i = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  const offset_t total = addr[n];
  const int room = insert_room_of(st, rq, st->overflow != 0, alloc_of(rq), total);
  if (i == 0) {
    st->room = room;
    st->written = room == 0;
    st->kept = pos[n];
    st->total = total;
  }
  const std::int64_t m = run_of[n - 1];
  if (room != 0 || i >= m) return;
  const vertex_t r = run_row[i];
  const offset_t b = pos[run_start[i + 1]] - pos[run_start[i]];
  if (b == 0) return;
  old_size[i] = A.sizes[r];
  if (addr[i + 1] > addr[i]) {  // Algorithm 1: a new segment
    const int s = A.nseg[r];
    A.seg[s * A.pitch + 2 * offset_t(r)] = alloc_of(rq) + addr[i];
    A.seg[s * A.pitch + 2 * offset_t(r) + 1] = alloc_of(rq) + addr[i + 1];
    A.nseg[r] = std::uint8_t(s + 1);
  }
  A.sizes[r] += vertex_t(b);
}

// Algorithm 2: every kept entry to its place after its row's old entries; the chain moves on
// (commit's blocks have all read it).
template <class V>
__global__ void entries_kernel(dcsr_view<V> A, const stored_t<V>* val, const u64* k, const std::uint32_t* perm,
                               std::int64_t n, const offset_t* run_of, const vertex_t* run_row,
                               const offset_t* run_start, const offset_t* pos, const std::uint8_t* drop,
                               const vertex_t* old_size, edge_set_view set, insert_request rq,
                               const device_status* st) {
  const std::int64_t e = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  if (e == 0) chain_leave_insert(rq.chain, st, rq.square);
  if (e >= n || st->written == 0 || drop[e] != 0) return;
  const std::int64_t i = run_of[e] - 1;
  const offset_t idx = A.locate(run_row[i], old_size[i] + pos[e] - pos[run_start[i]]);
  A.col[idx] = key_col(k[e]);
  copy_value<V>(A.val, idx, val, perm != nullptr ? offset_t(perm[e]) : e);
  if (set.slot != nullptr) set.insert_new(k[e]);
}

// CUB's temporary storage for the general path, asked once per power of two of the batch size (the
// query runs CUB's dispatch on the host, several microseconds a call; the bytes grow with the items,
// so a larger count's answer serves every smaller batch).
struct temp_sizes {
  std::size_t sort = 0, scan = 0;
};
temp_sizes temp_bytes_for(std::int64_t n, bool valued, bool sorted, int end_bit) {
  std::int64_t cap = 1;
  while (cap < n + 1) cap <<= 1;
  thread_local std::map<std::tuple<std::int64_t, bool, bool, int>, temp_sizes> known;
  const auto key = std::make_tuple(cap, valued, sorted, end_bit);
  if (const auto it = known.find(key); it != known.end()) return it->second;
  temp_sizes t;
  u64* k = nullptr;
  std::uint32_t* v = nullptr;
  offset_t* o = nullptr;
  if (!sorted) {
    if (valued) FG_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, t.sort, k, k, v, v, cap, 0, end_bit));
    else FG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, t.sort, k, k, cap, 0, end_bit));
  }
  const auto counting = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), head_of{k});
  std::size_t a = 0, b = 0;
  FG_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, a, counting, o, cap));
  FG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, b, o, o, cap));
  t.scan = std::max(a, b);
  return known[key] = t;
}
}  // namespace

template <class V>
insert_status kernels<device_space>::insert(const dcsr_view<V>& A, const coo_matrix<V, device_space>& b,
                                            const insert_request& rq, batch_workspace<device_space>& ws,
                                            const edge_set_view& set) {
  const std::int64_t n = std::int64_t(b.nnz);
  FG_EXPECTS(n < (std::int64_t(1) << 32), "batch too large for one insert");
  const std::size_t n1 = std::size_t(n) + 1;
  constexpr bool valued = !is_pattern_v<V>;
  // Scratch first (the only step that can fail), then the kernels.
  auto* st = status_slot(rq.record, ws);
  auto* key = ws.get<u64>(1, n1);
  auto* key_sorted = ws.get<u64>(2, n1);
  auto* perm = valued ? ws.get<std::uint32_t>(3, n1) : nullptr;
  auto* perm_sorted = valued ? ws.get<std::uint32_t>(4, n1) : nullptr;
  auto* run_of = ws.get<offset_t>(5, n1);
  auto* run_row = ws.get<vertex_t>(6, n1);
  auto* run_start = ws.get<offset_t>(7, n1);
  auto* vol = ws.get<offset_t>(8, n1);
  auto* vol_off = ws.get<offset_t>(9, n1);
  auto* drop = ws.get<std::uint8_t>(10, n1);
  auto* pos = ws.get<offset_t>(11, n1);
  auto* need = ws.get<offset_t>(12, n1);
  auto* addr = ws.get<offset_t>(13, n1);
  auto* old_size = ws.get<vertex_t>(14, n1);
  // Rows past the table never get written (the batch is refused first), so the sort needs only the
  // bits of row_cap - 1 above the 32 column bits: one pass fewer per byte of rows it can skip.
  const int end_bit = 32 + std::max(1, bit_width(std::uint64_t(std::max<vertex_t>(rq.row_cap, 1) - 1)));
  const std::uint32_t* p = valued ? (rq.sorted ? perm : perm_sorted) : nullptr;
  const bool collapse = rq.collapse && !rq.sorted;
  if (n <= small_batch) {
    const offset_t* runs = &st->m;
    small_prepare<V><<<1, small_threads>>>(A, b.row.data(), b.col.data(), b.val.data(), n, rq, set, 0, key_sorted,
                                           perm_sorted, run_of, run_row, run_start, vol_off, drop, st);
    FG_CUDA_CHECK_LAUNCH();
    if (collapse && set.slot == nullptr) {
      probe_kernel<V><<<grid_stride_blocks(), threads>>>(A, key_sorted, runs, run_row, run_start, vol_off, drop);
      FG_CUDA_CHECK_LAUNCH();
    }
    small_commit<V><<<1, small_threads>>>(A, b.val.data(), n, rq, key_sorted, valued ? perm_sorted : nullptr, run_of,
                                          run_row, run_start, drop, runs, set, st);
    FG_CUDA_CHECK_LAUNCH();
    return read_back(rq.record, st, insert_status_of);
  }
  const auto heads = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), head_of{key_sorted});
  const auto kept = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), kept_of{drop, n});
  const temp_sizes tb = temp_bytes_for(n, valued, rq.sorted, end_bit);
  std::size_t temp_bytes = std::max(tb.sort, tb.scan);
  void* temp = ws.get<std::uint8_t>(15, temp_bytes);

  FG_CUDA_TRY(cudaMemsetAsync(st, 0, sizeof(device_status)));
  check_kernel<V><<<blocks_for(n), threads>>>(b.row.data(), b.col.data(), b.val.data(), n, rq.sorted, 0, 0,
                                              rq.sorted ? key_sorted : key, perm, rq.chain, st);
  FG_CUDA_CHECK_LAUNCH();
  if (!rq.sorted) {
    if (valued) FG_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, key, key_sorted, perm, perm_sorted, n, 0, end_bit));
    else FG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, key, key_sorted, n, 0, end_bit));
  }
  temp_bytes = tb.scan;
  FG_CUDA_TRY(cub::DeviceScan::InclusiveSum(temp, temp_bytes, heads, run_of, n));
  runs_kernel<V><<<blocks_for(n + 1), threads>>>(A, rq.row_cap, key_sorted, n, collapse, set, run_of, run_row,
                                                 run_start, vol, drop);
  FG_CUDA_CHECK_LAUNCH();
  if (collapse && set.slot == nullptr) {
    FG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, vol, vol_off, n1));
    probe_kernel<V><<<grid_stride_blocks(), threads>>>(A, key_sorted, run_of + n - 1, run_row, run_start, vol_off,
                                                        drop);
    FG_CUDA_CHECK_LAUNCH();
  }
  FG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, kept, pos, n1));
  plan_kernel<V><<<blocks_for(n + 1), threads>>>(A, rq, n, run_of, run_row, run_start, pos, need, st);
  FG_CUDA_CHECK_LAUNCH();
  FG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, need, addr, n1));
  commit_kernel<V><<<blocks_for(n), threads>>>(A, rq, n, run_of, run_row, run_start, pos, addr, old_size, st);
  FG_CUDA_CHECK_LAUNCH();
  entries_kernel<V><<<blocks_for(n), threads>>>(A, b.val.data(), key_sorted, p, n, run_of, run_row, run_start, pos,
                                                drop, old_size, set, rq, st);
  FG_CUDA_CHECK_LAUNCH();
  return read_back(rq.record, st, insert_status_of);
}

#define FG_INSTANTIATE(V) FG_INSERT_KERNEL_OF(device_space, V)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
