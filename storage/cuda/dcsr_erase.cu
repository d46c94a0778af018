// kernels<device_space>::erase on the GPU with no read-back before the end (as dcsr_insert.cu does
// for insertions): launch shapes come from the batch size alone, counts only the device knows (runs,
// the touched rows' volume, the holes) stay in device memory and bound grid-stride loops, and the
// write kernels run only when the device-side checks passed; the host reads one status record.
// Steps: check the keys -> sort -> runs, drop flags (repeats, rows past the store, pairs the set
// does not hold) -> a thread per stored entry of a touched row looks its column up among the row's
// keys, and each hit appends its flattened position to the hole list (one atomic per warp) -> sort
// the holes -> fill the holes of each row's surviving prefix from its tail, then sizes and trimmed
// chains (storage/detail/erase_steps.hpp, shared with the OpenMP twin) -> the matched keys leave the
// set. Batches of at most small_batch keys take three launches (dcsr_insert_small.cuh's first step,
// the lookup, one block for the rest). The hole list has room for one hole per key (small batches:
// small_batch); an accumulating store whose copies need more reports how many, writing nothing, and
// runs again with that room. Replaces storage/device/dcsr_erase_portable.cpp in the CUDA build;
// reference twin storage/reference/dcsr_erase.cpp.
#include <cooperative_groups.h>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

#include "core/cuda_check.hpp"
#include "storage/cuda/dcsr_batch_common.cuh"
#include "storage/cuda/dcsr_insert_small.cuh"
#include "storage/detail/erase_steps.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
namespace {
namespace cg = cooperative_groups;
static_assert(small_batch == erase_min_holes, "the hole list's least room is the small path's batch");

// Run i's volume to read: its row's size when one of its keys is kept (pos: the exclusive scan of
// the kept flags, null when every run's first key is kept), else 0; 0 past the runs.
template <class V>
struct volume_of {
  dcsr_view<V> A;
  const offset_t* runs;
  const vertex_t* run_row;
  const offset_t* run_start;
  const offset_t* pos;
  __host__ __device__ offset_t operator()(std::int64_t i) const {
    if (i >= *runs || run_row[i] >= A.rows) return 0;
    if (pos != nullptr && pos[run_start[i + 1]] == pos[run_start[i]]) return 0;
    return A.sizes[run_row[i]];
  }
};

// Runs of equal rows and the drop flags (thread e in [0, n]); the unused part of the hole list is
// padded with `pad`, which sorts after every position.
__global__ void erase_runs_kernel(const u64* k, std::int64_t n, u64 past, edge_set_view set, const offset_t* run_of,
                                  vertex_t* run_row, offset_t* run_start, std::uint8_t* drop, offset_t* hole,
                                  std::int64_t hole_cap, offset_t pad) {
  const std::int64_t e = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  for (std::int64_t h = e; h < hole_cap; h += std::int64_t(gridDim.x) * threads) hole[h] = pad;
  if (e > n) return;
  const std::int64_t m = run_of[n - 1];
  if (e < n) {
    const bool repeat = e > 0 && k[e] == k[e - 1];
    drop[e] = repeat || k[e] == past || (set.slot != nullptr && !set.contains(k[e]));
    if (e == 0 || (k[e] >> 32) != (k[e - 1] >> 32)) {
      const std::int64_t i = run_of[e] - 1;
      run_row[i] = key_row(k[e]);
      run_start[i] = e;
    }
  }
  if (e == m) run_start[m] = n;
}

// Every stored entry of a touched row whose column its row's keys list is a hole: its flattened
// position goes to the hole list (while there is room; the count goes on), and its key is marked
// found (drop = 2).
template <class V>
__global__ void erase_probe_kernel(dcsr_view<V> A, const u64* k, const offset_t* runs, const vertex_t* run_row,
                                   const offset_t* run_start, const offset_t* vol, std::uint8_t* drop,
                                   offset_t* hole, std::int64_t hole_cap, device_status* st) {
  const std::int64_t m = *runs;
  const offset_t total = vol[m];
  for (offset_t t = offset_t(blockIdx.x) * threads + threadIdx.x; t < total; t += offset_t(gridDim.x) * threads) {
    const offset_t at = listed_at(A, k, m, run_row, run_start, vol, t);
    if (at < 0) continue;
    drop[at] = 2;  // racing writers (copies of one edge) all store 2
    const cg::coalesced_group hits = cg::coalesced_threads();  // one atomic per warp, not per hole
    u64 base = 0;
    if (hits.thread_rank() == 0) base = atomicAdd(&st->holes, u64(hits.size()));
    const u64 slot = hits.shfl(base, 0) + hits.thread_rank();
    if (slot < u64(hole_cap)) hole[slot] = t;
  }
}

// The batch may be written: no bad key, every hole found room in the list, and (deferred) the
// chain has not stalled.
__device__ inline bool erase_ok(const device_status* st, std::int64_t hole_cap) {
  return st->bad == 0 && st->holes <= u64(hole_cap) && st->skipped == 0;
}

// A thread per hole: fill_hole (the tail's survivors into the prefix's holes).
template <class V>
__global__ void erase_fill_kernel(dcsr_view<V> A, const offset_t* runs, const vertex_t* run_row, const offset_t* vol,
                                  const offset_t* hole, std::int64_t hole_cap, erase_log<V> log,
                                  const device_status* st) {
  const std::int64_t k = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  if (!erase_ok(st, hole_cap) || k >= std::int64_t(st->holes)) return;
  fill_hole(A, erase_plan{run_row, vol, *runs, hole, std::int64_t(st->holes)}, k, log);
}

// After every hole is filled: the matched keys leave the set and are counted (a thread per key), the
// rows get their sizes and trimmed chains (a thread per run), and the status its last fields.
template <class V>
__device__ void erase_finish(const dcsr_view<V>& A, const erase_plan& p, const u64* k, std::int64_t n,
                             const std::uint8_t* drop, std::int64_t e, edge_set_view set, const erase_log<V>& log,
                             int& found) {
  if (e < p.m) trim_row(A, p, e, log);
  if (e < n && drop[e] == 2) {
    ++found;
    if (set.slot != nullptr) set.erase(k[e]);
  }
}
template <int Threads>
__device__ void erase_report(int found, bool ok, std::int64_t m, batch_chain* chain, device_status* st) {
  using reduce = cub::BlockReduce<int, Threads>;
  __shared__ typename reduce::TempStorage tmp;
  const int sum = reduce(tmp).Sum(found);
  if (threadIdx.x != 0) return;
  if (sum != 0) atomicAdd(&st->matched, u64(sum));
  if (blockIdx.x == 0) {
    st->written = ok;
    st->m = m;
    if (chain != nullptr && ok) chain->nnz -= offset_t(st->holes);
    if (chain != nullptr && !ok) chain->stalled = 1;
  }
}

template <class V>
__global__ void __launch_bounds__(threads)
erase_rows_kernel(dcsr_view<V> A, const u64* k, std::int64_t n, const offset_t* runs, const vertex_t* run_row,
                  const offset_t* vol, const offset_t* hole, std::int64_t hole_cap, const std::uint8_t* drop,
                  edge_set_view set, erase_log<V> log, batch_chain* chain, device_status* st) {
  const std::int64_t e = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  const bool ok = erase_ok(st, hole_cap);
  const erase_plan p{run_row, vol, *runs, hole, std::int64_t(st->holes)};
  int found = 0;
  if (ok) erase_finish<V>(A, p, k, n, drop, e, set, log, found);
  erase_report<threads>(found, ok, p.m, chain, st);
}

// Small batches: one block sorts the (at most small_batch) holes in shared memory, fills them, and
// after a barrier trims the rows and finishes.
template <class V>
__global__ void __launch_bounds__(small_threads)
small_erase_commit(dcsr_view<V> A, const u64* k, std::int64_t n, const vertex_t* run_row, const offset_t* vol,
                   const offset_t* hole, const std::uint8_t* drop, edge_set_view set, erase_log<V> log,
                   batch_chain* chain, device_status* st) {
  using sort = cub::BlockMergeSort<u64, small_threads, small_items>;
  __shared__ typename sort::TempStorage tmp;
  __shared__ offset_t sorted[small_batch];
  const bool ok = erase_ok(st, small_batch);
  const std::int64_t h = ok ? std::int64_t(st->holes) : 0, m = st->m;
  u64 mine[small_items];
  for (int j = 0; j < small_items; ++j) {
    const std::int64_t x = std::int64_t(threadIdx.x) * small_items + j;
    mine[j] = x < h ? u64(hole[x]) : ~u64(0);
  }
  sort(tmp).Sort(mine, [](u64 a, u64 b) { return a < b; });
  for (int j = 0; j < small_items; ++j) sorted[threadIdx.x * small_items + j] = offset_t(mine[j]);
  __syncthreads();
  const erase_plan p{run_row, vol, m, sorted, h};
  for (std::int64_t x = threadIdx.x; ok && x < h; x += small_threads) fill_hole(A, p, x, log);
  __syncthreads();  // every survivor in place before a chain is cut
  int found = 0;
  for (std::int64_t e = threadIdx.x; ok && (e < n || e < m); e += small_threads)
    erase_finish<V>(A, p, k, n, drop, e, set, log, found);
  erase_report<small_threads>(found, ok, m, chain, st);
}

// CUB's temporary storage: the key sort, the scans, the hole sort. Asked once per power of two of
// the sizes (the query runs CUB's dispatch on the host; a larger count's answer serves smaller ones).
std::size_t erase_temp_bytes(std::int64_t n, std::int64_t holes, int key_bits, int hole_bits) {
  std::int64_t cap = 1, hcap = 1;
  while (cap < n + 1) cap <<= 1;
  while (hcap < holes) hcap <<= 1;
  thread_local std::map<std::tuple<std::int64_t, std::int64_t, int, int>, std::size_t> known;
  const auto key = std::make_tuple(cap, hcap, key_bits, hole_bits);
  if (const auto it = known.find(key); it != known.end()) return it->second;
  u64* k = nullptr;
  offset_t* o = nullptr;
  std::size_t a = 0, b = 0, c = 0, d = 0;
  FG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, a, k, k, cap, 0, key_bits));
  FG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, b, k, k, hcap, 0, hole_bits));
  const auto heads = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), head_of{k});
  FG_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, c, heads, o, cap));
  FG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, d, o, o, cap));
  return known[key] = std::max({a, b, c, d});
}


// One attempt with room for hole_cap holes.
template <class V>
erase_status erase_pass(const dcsr_view<V>& A, const coo_matrix<V, device_space>& b, const erase_request& rq,
                        batch_workspace<device_space>& ws, const edge_set_view& set, std::int64_t hole_cap) {
  const std::int64_t n = std::int64_t(b.nnz);
  const std::size_t n1 = std::size_t(n) + 1;
  // Scratch and the log first (the only steps that can fail), then the kernels.
  auto* st = status_slot(rq.record, ws);
  auto* key = ws.get<u64>(1, n1);
  auto* key_sorted = ws.get<u64>(2, n1);
  auto* run_of = ws.get<offset_t>(5, n1);
  auto* run_row = ws.get<vertex_t>(6, n1);
  auto* run_start = ws.get<offset_t>(7, n1);
  auto* vol = ws.get<offset_t>(9, n1);
  auto* drop = ws.get<std::uint8_t>(10, n1);
  auto* pos = ws.get<offset_t>(11, n1);
  auto* hole = ws.get<offset_t>(12, std::size_t(hole_cap));
  auto* hole_sorted = ws.get<offset_t>(13, std::size_t(hole_cap));
  const erase_log<V> log = rq.log ? erase_log_in<V>(ws, std::size_t(hole_cap), n1) : erase_log<V>{};
  // Keys of rows past the store become `past`, so the sort needs only the bits of A.rows above the
  // column bits; positions are below the buffer's capacity, so the hole sort needs only its bits.
  const int key_bits = 32 + bit_width(std::uint64_t(std::max<vertex_t>(A.rows, 1)));
  const u64 past = (u64(1) << key_bits) - 1;
  const int hole_bits = std::max(1, bit_width(std::uint64_t(rq.capacity)));
  const offset_t pad = offset_t((u64(1) << hole_bits) - 1);
  const auto* runs = n <= small_batch && hole_cap <= small_batch ? &st->m : run_of + n - 1;
  if (runs == &st->m) {
    insert_request shape;  // small_prepare's insertion fields, as a deletion uses them
    shape.row_cap = A.rows;
    shape.collapse = true;
    shape.chain = rq.chain;
    small_prepare<V, true, pattern><<<1, small_threads>>>(A, b.row.data(), b.col.data(), nullptr, n, shape, set, past,
                                                          key_sorted, nullptr, run_of, run_row, run_start, vol, drop, st);
    FG_CUDA_CHECK_LAUNCH();
    erase_probe_kernel<V><<<grid_stride_blocks(), threads>>>(A, key_sorted, runs, run_row, run_start, vol, drop, hole,
                                                             hole_cap, st);
    FG_CUDA_CHECK_LAUNCH();
    small_erase_commit<V><<<1, small_threads>>>(A, key_sorted, n, run_row, vol, hole, drop, set, log, rq.chain, st);
    FG_CUDA_CHECK_LAUNCH();
    return read_back(rq.record, st, erase_status_of);
  }
  std::size_t temp_bytes = erase_temp_bytes(n, hole_cap, key_bits, hole_bits);
  void* temp = ws.get<std::uint8_t>(15, temp_bytes);
  const std::size_t temp_size = temp_bytes;
  const auto counting = thrust::counting_iterator<std::int64_t>(0);

  FG_CUDA_TRY(cudaMemsetAsync(st, 0, sizeof(device_status)));
  check_kernel<pattern><<<blocks_for(n), threads>>>(b.row.data(), b.col.data(), nullptr, n, false, A.rows, past, key,
                                                    nullptr, rq.chain, st);
  FG_CUDA_CHECK_LAUNCH();
  FG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, key, key_sorted, n, 0, key_bits));
  temp_bytes = temp_size;
  FG_CUDA_TRY(cub::DeviceScan::InclusiveSum(temp, temp_bytes, thrust::make_transform_iterator(counting, head_of{key_sorted}),
                                            run_of, n));
  erase_runs_kernel<<<blocks_for(n + 1), threads>>>(key_sorted, n, past, set, run_of, run_row, run_start, drop, hole,
                                                    hole_cap, pad);
  FG_CUDA_CHECK_LAUNCH();
  if (set.slot != nullptr) {  // a run whose keys the set all refuses is not read
    temp_bytes = temp_size;
    FG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, thrust::make_transform_iterator(counting, kept_of{drop, n}),
                                              pos, n1));
  }
  const volume_of<V> volume{A, runs, run_row, run_start, set.slot != nullptr ? pos : nullptr};
  temp_bytes = temp_size;
  FG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, thrust::make_transform_iterator(counting, volume), vol, n1));
  erase_probe_kernel<V><<<grid_stride_blocks(), threads>>>(A, key_sorted, runs, run_row, run_start, vol, drop, hole,
                                                           hole_cap, st);
  FG_CUDA_CHECK_LAUNCH();
  temp_bytes = temp_size;
  // As unsigned keys: the positions are >= 0, and CUB orders signed keys through their sign bit.
  FG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, reinterpret_cast<u64*>(hole),
                                             reinterpret_cast<u64*>(hole_sorted), hole_cap, 0, hole_bits));
  erase_fill_kernel<V><<<blocks_for(hole_cap), threads>>>(A, runs, run_row, vol, hole_sorted, hole_cap, log, st);
  FG_CUDA_CHECK_LAUNCH();
  erase_rows_kernel<V><<<blocks_for(n), threads>>>(A, key_sorted, n, runs, run_row, vol, hole_sorted, hole_cap, drop,
                                                   set, log, rq.chain, st);
  FG_CUDA_CHECK_LAUNCH();
  return read_back(rq.record, st, erase_status_of);
}
}  // namespace

template <class V>
erase_status kernels<device_space>::erase(const dcsr_view<V>& A, const coo_matrix<V, device_space>& b,
                                          const erase_request& rq, batch_workspace<device_space>& ws,
                                          const edge_set_view& set) {
  const std::int64_t n = std::int64_t(b.nnz);
  FG_EXPECTS(n < (std::int64_t(1) << 32), "batch too large for one deletion");
  erase_status st;
  if (n == 0) {
    st.written = true;
    return st;
  }
  st = erase_pass(A, b, rq, ws, set, std::max<std::int64_t>(n, erase_min_holes));
  if (rq.record == nullptr && st.first_bad < 0 && !st.written)  // more copies than keys (accumulating store): room for all
    st = erase_pass(A, b, rq, ws, set, std::max<std::int64_t>(st.removed, small_batch + 1));
  return st;
}

#define FG_INSTANTIATE(V) FG_ERASE_KERNEL_OF(device_space, V)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
