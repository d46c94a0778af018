// The single-block path of storage/cuda/dcsr_insert.cu, for batches of at most small_batch edges;
// its first step (small_prepare) serves the deletions of storage/cuda/dcsr_erase.cu too.
#pragma once
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "storage/cuda/dcsr_batch_common.cuh"

namespace fg::detail {
namespace {
// --- batches of at most small_batch edges: one block does everything but the probe -------------
// A launch costs ~2-3 us whatever its size, and the general path makes about 15 of them. A
// small batch fits one block's shared memory: check, sort (block merge sort), runs, volumes (S1),
// the probe over the touched rows' volume (a grid, as above: a hub row can hold millions), then plan,
// decide and write (S3). Three launches and the status copy.
constexpr int small_threads = 1024, small_items = 2, small_batch = small_threads * small_items;

// S1: check, sort, runs, the volume of the rows to read, drop flags (see above).
// For a deletion (Erase; values ignored: W = pattern, no perm): keys that cannot be stored become
// `past` (as check_kernel does), drop marks repeats, past keys and keys the set does not hold, and a
// row is read (its volume counted) when at least one of its keys is kept. rq: row_cap = A.rows,
// collapse (repeats), not sorted.
template <class V, bool Erase = false, class W = V>
__global__ void __launch_bounds__(small_threads)
small_prepare(dcsr_view<V> A, const vertex_t* row, const vertex_t* col, const stored_t<W>* val, std::int64_t n,
              insert_request rq, edge_set_view set, u64 past, u64* key_out, std::uint32_t* perm_out, offset_t* run_of,
              vertex_t* run_row, offset_t* run_start, offset_t* vol, std::uint8_t* drop, device_status* st) {
  using sort = cub::BlockMergeSort<u64, small_threads, small_items, std::uint32_t>;
  using reduce = cub::BlockReduce<u64, small_threads>;
  using scan = cub::BlockScan<offset_t, small_threads>;
  __shared__ union {
    typename sort::TempStorage sort;
    typename reduce::TempStorage reduce;
    typename scan::TempStorage scan;
  } tmp;
  __shared__ u64 ks[small_batch];
  __shared__ std::uint8_t any_kept[Erase ? small_batch : 1];  // Erase: per run, whether a key is kept
  u64 k[small_items];
  std::uint32_t pm[small_items];
  edge_summary mine;
  const u64 pad = ~u64(0);  // after every valid key (ids < 2^31)
  for (int j = 0; j < small_items; ++j) {
    const std::int64_t e = std::int64_t(threadIdx.x) * small_items + j;
    pm[j] = std::uint32_t(e);
    k[j] = e < n ? mine.add<W>(row, col, val, e, rq.sorted) : pad;
    if (Erase && e < n && !(row[e] >= 0 && col[e] >= 0 && row[e] < rq.row_cap)) k[j] = past;
    if (Erase) any_kept[threadIdx.x * small_items + j] = 0;
  }
  const edge_summary sum = mine.reduce<small_threads>(tmp.reduce);
  if (threadIdx.x == 0) {
    *st = device_status{};
    chain_enter(rq.chain, st);
    st->bad = sum.bad;
    st->max_row1 = unsigned(sum.row1);
    st->max_col1 = unsigned(sum.col1);
    st->unsorted = int(sum.unsorted);
  }
  if (!rq.sorted) {
    // A merge sort: 9 merge rounds of 2048 keys, where a radix sort of 2048 keys takes a pass per 4
    // bits of (row, col), 10-13 of them.
    sort(tmp.sort).StableSort(k, pm, [](u64 a, u64 b) { return a < b; });  // equal keys keep batch order
    __syncthreads();
  }
  for (int j = 0; j < small_items; ++j) ks[threadIdx.x * small_items + j] = k[j];
  __syncthreads();
  const bool collapse = rq.collapse && !rq.sorted;
  offset_t head[small_items], v[small_items];
  bool kept[small_items];
  for (int j = 0; j < small_items; ++j) {
    const std::int64_t e = std::int64_t(threadIdx.x) * small_items + j;
    const bool in = e < n;
    head[j] = in && (e == 0 || (k[j] >> 32) != (ks[e - 1] >> 32));
    kept[j] = false;
    if (in) {
      key_out[e] = k[j];
      if (perm_out != nullptr) perm_out[e] = pm[j];
      const bool repeat = collapse && e > 0 && k[j] == ks[e - 1];
      // Insertion: stored pairs are looked up in the set when there is one (else probed by the
      // rows' volume). Deletion: a key the set does not hold cannot match.
      const bool d = Erase ? repeat || k[j] == past || (set.slot != nullptr && !set.contains(k[j]))
                           : repeat || (collapse && set.slot != nullptr && set.contains(k[j]));
      drop[e] = d;
      kept[j] = !d;
    }
  }
  offset_t idx[small_items], off[small_items], m = 0, total = 0;
  scan(tmp.scan).ExclusiveSum(head, idx, m);
  __syncthreads();
  if (Erase) {
    for (int j = 0; j < small_items; ++j)
      if (kept[j]) any_kept[idx[j] + head[j] - 1] = 1;  // racing writers all store 1
    __syncthreads();
  }
  for (int j = 0; j < small_items; ++j) {
    const vertex_t r = key_row(k[j]);
    const bool read = Erase ? head[j] && any_kept[idx[j]] : head[j] && collapse && set.slot == nullptr;
    v[j] = read && r >= 0 && r < rq.row_cap ? A.sizes[r] : 0;
  }
  scan(tmp.scan).ExclusiveSum(v, off, total);
  for (int j = 0; j < small_items; ++j) {
    const std::int64_t e = std::int64_t(threadIdx.x) * small_items + j;
    if (e >= n) continue;
    run_of[e] = idx[j] + head[j];  // inclusive, as the general path's scan
    if (head[j]) {
      run_row[idx[j]] = key_row(k[j]);
      run_start[idx[j]] = e;
      vol[idx[j]] = off[j];
    }
  }
  if (threadIdx.x == 0) {
    run_start[m] = n;
    vol[m] = total;
    st->m = m;
  }
}

// S3: kept entries (block scan), the plan per run (block scan of the needs), the decision, then
// segments and sizes, and the entries after a barrier.
template <class V>
__global__ void __launch_bounds__(small_threads)
small_commit(dcsr_view<V> A, const stored_t<V>* val, std::int64_t n, insert_request rq, const u64* k,
             const std::uint32_t* perm, const offset_t* run_of, const vertex_t* run_row, const offset_t* run_start,
             const std::uint8_t* drop, const offset_t* runs, edge_set_view set, device_status* st) {
  using scan = cub::BlockScan<offset_t, small_threads>;
  using reduce = cub::BlockReduce<int, small_threads>;
  __shared__ union {
    typename scan::TempStorage scan;
    typename reduce::TempStorage reduce;
  } tmp;
  __shared__ offset_t pos[small_batch + 1];
  __shared__ vertex_t old[small_batch];
  __shared__ int room_s;
  __shared__ offset_t base_s, alpha_s;  // the chain's, read before thread 0 moves it on
  if (threadIdx.x == 0) base_s = alloc_of(rq), alpha_s = slack_of(rq);
  const std::int64_t m = *runs;
  offset_t keep[small_items], at[small_items], kept = 0;
  for (int j = 0; j < small_items; ++j) {
    const std::int64_t e = std::int64_t(threadIdx.x) * small_items + j;
    keep[j] = e < n && drop[e] == 0;
  }
  scan(tmp.scan).ExclusiveSum(keep, at, kept);
  for (int j = 0; j < small_items; ++j) pos[threadIdx.x * small_items + j] = at[j];
  if (threadIdx.x == 0) pos[n] = kept;  // n <= small_batch: overwrites a slot past the batch
  __syncthreads();
  // Every step loads for all of a thread's runs before it uses them (each run's chain is a row id,
  // then its size, segment count and segments: a single block waits on every load it issues).
  offset_t need[small_items], addr[small_items], size[small_items], cap[small_items], total = 0;
  vertex_t r[small_items];
  offset_t b[small_items];
  int ns[small_items];
  int over = 0, limit = 0, segs_max = 0, segs_new = 0, used = 0;
#pragma unroll
  for (int j = 0; j < small_items; ++j) {
    const std::int64_t i = std::int64_t(threadIdx.x) * small_items + j;
    r[j] = i < m ? run_row[i] : -1;
    b[j] = i < m ? pos[run_start[i + 1]] - pos[run_start[i]] : 0;
    if (b[j] == 0 || r[j] < 0 || r[j] >= rq.row_cap) r[j] = -1;
  }
#pragma unroll
  for (int j = 0; j < small_items; ++j) {
    size[j] = r[j] >= 0 ? A.sizes[r[j]] : 0;
    ns[j] = r[j] >= 0 ? A.nseg[r[j]] : 0;
    cap[j] = 0;
  }
  for (int sg = 0; sg < A.k; ++sg) {
    bool any = false;
#pragma unroll
    for (int j = 0; j < small_items; ++j)
      if (sg < ns[j]) {
        any = true;
        const offset_t at = sg * A.pitch + 2 * offset_t(r[j]);
        cap[j] += A.seg[at + 1] - A.seg[at];
      }
    if (!any) break;
  }
#pragma unroll
  for (int j = 0; j < small_items; ++j) {
    need[j] = 0;
    if (r[j] < 0) continue;
    const offset_t free_space = cap[j] - size[j];
    need[j] = segment_need(b[j], free_space, size[j], alpha_s, rq.row_growth);
    const int segs = ns[j] + (need[j] > 0 ? 1 : 0);
    over |= segs > A.k;
    limit |= segs == A.k;
    segs_max = max(segs_max, segs);
    segs_new += need[j] > 0;
    ++used;
  }
  scan(tmp.scan).ExclusiveSum(need, addr, total);
  __syncthreads();
  const int o = reduce(tmp.reduce).Reduce(over, cuda::maximum<>{});
  __syncthreads();
  const int l = reduce(tmp.reduce).Reduce(limit, cuda::maximum<>{});
  __syncthreads();
  const int sm = reduce(tmp.reduce).Reduce(segs_max, cuda::maximum<>{});
  __syncthreads();
  const int g = reduce(tmp.reduce).Sum(segs_new);
  __syncthreads();
  const int u = reduce(tmp.reduce).Sum(used);
  if (threadIdx.x == 0) {
    const int room = insert_room_of(st, rq, o != 0, base_s, total);
    st->overflow = o;
    st->at_limit = l;
    st->max_nseg = sm;
    st->segments = u64(g);
    st->runs = u64(u);
    st->room = room;
    st->written = room == 0;
    st->kept = kept;
    st->total = total;
    room_s = room;
    chain_leave_insert(rq.chain, st, rq.square);  // this block already holds what it reads of it
  }
  __syncthreads();
  if (room_s != 0) return;  // the same for the whole block
  for (int j = 0; j < small_items; ++j) {  // Algorithm 1: new segments, then the sizes
    if (r[j] < 0) continue;
    old[threadIdx.x * small_items + j] = vertex_t(size[j]);
    if (need[j] > 0) {
      const offset_t at = ns[j] * A.pitch + 2 * offset_t(r[j]);
      A.seg[at] = base_s + addr[j];
      A.seg[at + 1] = base_s + addr[j] + need[j];
      A.nseg[r[j]] = std::uint8_t(ns[j] + 1);
    }
    A.sizes[r[j]] = vertex_t(size[j] + b[j]);
  }
  __syncthreads();
  for (std::int64_t e = threadIdx.x; e < n; e += small_threads) {  // Algorithm 2: the entries
    if (drop[e] != 0) continue;
    const std::int64_t i = run_of[e] - 1;
    const offset_t idx = A.locate(run_row[i], old[i] + pos[e] - pos[run_start[i]]);
    A.col[idx] = key_col(k[e]);
    copy_value<V>(A.val, idx, val, perm != nullptr ? offset_t(perm[e]) : e);
    if (set.slot != nullptr) set.insert_new(k[e]);
  }
}

}  // namespace
}  // namespace fg::detail
