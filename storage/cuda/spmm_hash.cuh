// SpMM rows of unmasked products (storage/cuda/spmm_binned.cu) without sorting every product. The
// sort-based bins of §III-B sort each row's partial products; a row of the Galerkin product
// R·(A·P) has ~400 products but only ~30 distinct columns. Here:
//  - rows of up to 8, 16, 32 products (and entries of A): a group of as many lanes, one product a
//    lane; lanes of equal columns find each other (__match_any_sync), the lowest sums them, and
//    each column's place is the count of smaller ones among the group's: no sort, no atomics;
//  - 33-512: a warp per row adds its products into a hash table in shared memory, 32 at a time,
//    equal columns combined across the lanes first (no atomic on values: the sums are the same
//    every run), then sorts only the distinct columns. The table has 128 slots; a row that has
//    more than 96 distinct columns before a step gives up and is made again with 512 slots;
//  - 513+: a thread block per row, the table in dynamic shared memory (one atomic a product;
//    spmm_block_rows.cuh); every row past 1024 products first tries a table sized by its distinct
//    columns (2048 slots), and only the rows that give up take a table of their products.
// The bins are spmm_hash_bin's; longer rows take the global path. The block tables sum with
// atomics (an unspecified order), the groups and warp tables in a fixed order that is not the
// reference twin's: float values may differ from the reference's in the last bits.
#pragma once
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/array.hpp"
#include "core/cuda_check.hpp"
#include "storage/cuda/spmm_block_rows.cuh"
#include "storage/cuda/spmm_common.cuh"
#include "storage/cuda/spmm_table.cuh"
#include "storage/detail/spmm_kernels.hpp"
#include "storage/device/spmm_device.hpp"

namespace fg::detail::spmm_hash {

/// warp_rows' expansion of a chunk: for_each_product's loads, but every lane calls add(c, v) the same
/// number of times (c = empty_slot where it has no product), so that the warp can combine equal
/// columns before they reach the table.
template <class Sr, class V, bool Values, class Add>
__device__ void warp_products(const spmm_operand<V>& B, const int* start,
                              const chunk_entries<typename Sr::value_type>& ch, int lane, int chunk, Add&& add) {
  using T = typename Sr::value_type;
  constexpr int unroll = 4;
  for (int q0 = 0; q0 < chunk; q0 += unroll * 32) {  // the same trips for every lane
    int s[unroll];
    offset_t jb[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const int q = q0 + u * 32 + lane;
      s[u] = 0, jb[u] = -1;
      if (q < chunk) {
        s[u] = entry_of<32>(start, q);
        const offset_t p = q - start[s[u]];
        jb[u] = p < ch.blength[s[u]] ? ch.bbegin[s[u]] + p : B.locate(ch.brow[s[u]], p);
      }
    }
    std::uint32_t c[unroll];
    T v[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      c[u] = empty_slot, v[u] = T{};
      if (jb[u] < 0) continue;
      c[u] = std::uint32_t(B.col[jb[u]]);
      if constexpr (Values) v[u] = Sr::mul(ch.aval[s[u]], value_or<V>(B.val, jb[u], Sr::pattern_value()));
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) add(c[u], v[u]);
  }
}

/// One step of a warp's products into its own table (every lane calls it): lanes holding the same
/// column are combined first (their values summed by the lowest of them, in lane order, through
/// `scratch`), and only that lane touches the column's slot: no atomic on values, one atomicCAS when
/// a slot is claimed, and the same sums in the same order every run. Returns the slots this step
/// claimed (the same on every lane).
template <int Slots, class Sr, bool Values, class T>
__device__ int warp_insert(std::uint32_t* key, T* val, T* scratch, int lane, std::uint32_t c, T v) {
  constexpr unsigned full = 0xffffffffu;
  const unsigned peers = __match_any_sync(full, c);
  if constexpr (Values) scratch[lane] = v;
  __syncwarp();
  bool claimed = false;
  if (c != empty_slot && lane == __ffs(peers) - 1) {
    // Other leaders of this step may claim slots beside it (other columns); the caller keeps the
    // table from filling (Abort, or Slots = the row's products).
    const int h = find_or_claim<Slots>(key, c, claimed);
    if constexpr (Values) val[h] = Sr::add(val[h], peers_sum<Sr>(scratch, peers, v));
  }
  const int n = __popc(__ballot_sync(full, claimed));
  __syncwarp();
  return n;
}

/// Warp per row; the warps of a block never synchronise with each other, and walk the rows by a
/// grid stride (rows: rows[0, n), n = *dyn_rows when given, else nrows). Without Abort a row has at
/// most Slots products, so the table holds them all. With Abort the table is smaller than that (a
/// row's distinct columns are what fill it, and AMG's rows have 7-13× fewer than products): a row
/// stops as soon as its next step might not fit (more than Slots - 32 columns so far), writes
/// nothing and is listed in redo for a warp_rows without Abort. The sums are the same either way:
/// a column's products are added in the same order whatever slot it has.
template <int Slots, int Warps, bool Abort, class Sr, class V>
__global__ void __launch_bounds__(Warps * 32, Slots <= 128 ? 32 / Warps : 1)  // small tables: 32 warps an SM
warp_rows(spmm_operand<V> A, spmm_operand<V> B, const vertex_t* __restrict__ rows, std::int64_t nrows,
          const unsigned long long* __restrict__ dyn_rows, const offset_t* __restrict__ ptr, offset_t base, vertex_t r0,
          vertex_t* __restrict__ ws_col, stored_t<spmm_value_t<Sr, V>>* __restrict__ ws_val,
          offset_t* __restrict__ count, redo_lists redo) {
  using VC = spmm_value_t<Sr, V>;
  using T = typename Sr::value_type;
  constexpr bool values = !is_pattern_v<VC>;
  constexpr int slots = Slots;
  constexpr unsigned full = 0xffffffffu;
  __shared__ std::uint32_t key_all[Warps][slots];
  __shared__ T val_all[Warps][values ? slots : 1];
  __shared__ warp_chunks<T, Warps> chunks;
  __shared__ T scratch_all[Warps][values ? 32 : 1];
  const int w = int(threadIdx.x >> 5), lane = int(threadIdx.x & 31);
  std::uint32_t* key = key_all[w];
  T* val = val_all[w];
  int* start = chunks.start[w];
  const chunk_entries<T> ch = chunks.of(w);
  const std::int64_t n = dyn_rows != nullptr ? std::int64_t(*dyn_rows) : nrows;
  for (std::int64_t i = std::int64_t(blockIdx.x) * Warps + w; i < n; i += std::int64_t(gridDim.x) * Warps) {
    const vertex_t r = rows[i];
    const offset_t w0 = ptr[r] - base;  // needed last, loaded now
    for (int s = lane; s < slots; s += 32) {
      key[s] = empty_slot;
      if constexpr (values) val[s] = Sr::zero();
    }
    __syncwarp();
    int claimed = 0;  // the same on every lane, as is `aborted`
    bool aborted = false;
    // Expansion, 32 entries of A at a time: a warp scan of their B-row lengths places the products,
    // each lane finds its product's entry by binary search and adds it into the table.
    A.for_each_piece(r, [&](offset_t b, offset_t e) {
      for (offset_t c0 = b; c0 < e && !aborted; c0 += 32) {
        const int len = load_entry<Sr, V, values>(A, B, c0 + lane, e, ch, lane);
        int incl = len;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
          const int y = __shfl_up_sync(full, incl, d);
          if (lane >= d) incl += y;
        }
        const int chunk = __shfl_sync(full, incl, 31);
        start[lane] = incl - len;  // lanes past the row's end start at the total: never found
        __syncwarp();
        warp_products<Sr, V, values>(B, start, ch, lane, chunk, [&](std::uint32_t c, T v) {
          if constexpr (Abort) {
            if (aborted || claimed > slots - 32) {
              aborted = true;
              return;
            }
          }
          claimed += warp_insert<slots, Sr, values>(key, val, scratch_all[w], lane, c, v);
        });
        __syncwarp();
      }
    });
    if (Abort && aborted) {
      if (lane == 0) redo.warp[atomicAdd(redo.warp_n, 1ull)] = r;
      __syncwarp();
      continue;
    }
    // Compact the occupied slots to the front, 32 at a time (a slot moves only to a lower index,
    // one whose round has already been read).
    int u = 0;
    for (int s0 = 0; s0 < slots; s0 += 32) {
      const std::uint32_t k = key[s0 + lane];
      T v{};
      if constexpr (values) v = val[s0 + lane];
      const unsigned occupied = __ballot_sync(full, k != empty_slot);
      __syncwarp();
      if (k != empty_slot) {
        const int p = u + __popc(occupied & ((1u << lane) - 1u));
        key[p] = k;
        if constexpr (values) val[p] = v;
      }
      u += __popc(occupied);
      __syncwarp();
    }
    // Sorted by counting: an entry's place is the number of smaller columns (every lane reads the
    // same key at once: a broadcast).
    for (int x = lane; x < u; x += 32) {
      const std::uint32_t k = key[x];
      int rank = 0;
      for (int y = 0; y < u; ++y) rank += key[y] < k ? 1 : 0;
      ws_col[w0 + rank] = vertex_t(k);
      store_value<VC>(ws_val, w0 + rank, val[values ? x : 0]);
    }
    if (lane == 0) count[r - r0] = u;
    __syncwarp();  // the next row's table is this one's
  }
}

/// group_rows' reduction without a sort: the lanes of a group holding the same column find each
/// other (__match_any_sync), the lowest of them sums their values in lane order (product order: the
/// same bits every run, whatever the operands' layout), and each such leader's place is the number
/// of the group's distinct columns below its own (a loop over the group's leaders in shared memory).
/// It replaced a bitonic network of shuffles and a segmented scan (H200, ncu, 3D 128³ level-0 A·P,
/// ~25 products and 9 distinct columns a row: 888 → 839 M instructions, 1.64 → 1.51 ms).
template <int G, int Warps, class Sr, class VC>
__device__ void match_reduce(std::uint32_t key, typename Sr::value_type val, int lane, int t,
                             offset_t w0, vertex_t* ws_col, stored_t<VC>* ws_val, offset_t* count) {
  using T = typename Sr::value_type;
  constexpr bool values = !is_pattern_v<VC>;
  constexpr unsigned full = 0xffffffffu;
  __shared__ T scratch_all[Warps][values ? 32 : 1];
  __shared__ std::uint32_t lead_all[Warps][32];
  const int w = int(threadIdx.x >> 5);
  const unsigned group = G == 32 ? full : ((1u << G) - 1u) << (lane - t);
  const unsigned peers = __match_any_sync(full, key) & group;
  const bool lead = key != empty_slot && lane == __ffs(peers) - 1;
  if constexpr (values) {
    scratch_all[w][lane] = val;
    __syncwarp();
    if (lead) val = peers_sum<Sr>(scratch_all[w], peers, val);
  }
  const unsigned leaders = __ballot_sync(full, lead) & group;
  const int first = lane - t, n = __popc(leaders);
  std::uint32_t* leads = lead_all[w] + first;
  if (lead) leads[__popc(leaders & ((1u << lane) - 1u))] = key;
  __syncwarp();
  if (lead) {
    int rank = 0;
    for (int y = 0; y < n; ++y) rank += leads[y] < key ? 1 : 0;
    ws_col[w0 + rank] = vertex_t(key);
    store_value<VC>(ws_val, w0 + rank, val);
  }
  if (count != nullptr && t == 0) *count = n;  // null for a group past the last row
}

/// Groups of G lanes, a row each, rows of at most G products and G entries: lane t takes entry t
/// of A's row and then product t, and the group reduces equal columns (match_reduce). No atomics,
/// 32 / G rows in flight a warp. Every load a step needs is issued together: the row, its size and
/// first piece, where its results go; then A's entry; then the B row's size and first piece; then
/// the product (ncu, 3D A·P: the kernel waits on these chains, not on issue).
template <int G, int Warps, class Sr, class V>
__global__ void __launch_bounds__(Warps * 32)
group_rows(spmm_operand<V> A, spmm_operand<V> B, const vertex_t* __restrict__ rows, std::int64_t nrows,
           const offset_t* __restrict__ ptr, offset_t base, vertex_t r0, vertex_t* __restrict__ ws_col,
           stored_t<spmm_value_t<Sr, V>>* __restrict__ ws_val, offset_t* __restrict__ count) {
  using VC = spmm_value_t<Sr, V>;
  using T = typename Sr::value_type;
  constexpr bool values = !is_pattern_v<VC>;
  constexpr unsigned full = 0xffffffffu;
  const int lane = int(threadIdx.x & 31), t = lane % G;
  const std::int64_t i = (std::int64_t(blockIdx.x) * Warps + (threadIdx.x >> 5)) * (32 / G) + lane / G;
  const bool live = i < nrows;  // no early exit: every lane takes part in the shuffles
  const vertex_t r = rows[live ? i : nrows - 1];  // a group past the end reads the last row, uses nothing
  const auto ap = A.first_piece(r);
  const offset_t w0 = ptr[r] - base;  // needed last
  const int na = live ? int(ap.size) : 0;
  vertex_t k = 0;
  int len = 0;
  T a{};
  typename spmm_operand<V>::piece bp;
  if (t < na) {
    const offset_t j = t < ap.length ? ap.begin + t : A.locate(r, t);
    k = A.col[j];
    if (k < B.rows) bp = B.first_piece(k), len = int(bp.size);
    if constexpr (values) a = value_or<V>(A.val, j, Sr::pattern_value());
  }
  int incl = len;
#pragma unroll
  for (int d = 1; d < G; d <<= 1) {
    const int y = __shfl_up_sync(full, incl, d, G);
    if (t >= d) incl += y;
  }
  // Product t belongs to the entry s with incl[s - 1] <= t < incl[s]: s = #entries with incl <= t
  // (a binary search by shuffles; t past the total gets G - 1, unused).
  int s = 0;
#pragma unroll
  for (int b = G / 2; b >= 1; b /= 2)
    if (__shfl_sync(full, incl, s + b - 1, G) <= t) s += b;
  const int total = __shfl_sync(full, incl, G - 1, G);
  const vertex_t ks = __shfl_sync(full, k, s, G);
  const int first = __shfl_sync(full, incl - len, s, G);
  const offset_t pb = __shfl_sync(full, bp.begin, s, G), pl = __shfl_sync(full, bp.length, s, G);
  T as{};
  if constexpr (values) as = __shfl_sync(full, a, s, G);
  std::uint32_t key = empty_slot;
  T val = Sr::zero();
  if (t < total) {
    const offset_t p = t - first, jb = p < pl ? pb + p : B.locate(ks, p);
    key = std::uint32_t(B.col[jb]);
    if constexpr (values) val = Sr::mul(as, value_or<V>(B.val, jb, Sr::pattern_value()));
  }
  match_reduce<G, Warps, Sr, VC>(key, val, lane, t, w0, ws_col, ws_val, live ? count + (r - r0) : nullptr);
}

template <int G, class Sr, class V>
void launch_groups(std::int64_t n, const spmm_operand<V>& A, const spmm_operand<V>& B, const vertex_t* rows,
                   const offset_t* ptr, offset_t base, vertex_t r0, vertex_t* ws_col,
                   stored_t<spmm_value_t<Sr, V>>* ws_val, offset_t* count) {
  if (n == 0) return;
  constexpr int warps = 8, per_block = warps * (32 / G);
  group_rows<G, warps, Sr, V><<<unsigned((n + per_block - 1) / per_block), warps * 32>>>(A, B, rows, n, ptr, base, r0,
                                                                                       ws_col, ws_val, count);
  FG_CUDA_CHECK_LAUNCH();
}

/// warp_rows over rows[0, n) (n = *dyn_rows when given; n is then its bound, and the grid is capped
/// since most of a redo list is usually empty).
template <int Slots, int Warps, bool Abort, class Sr, class V>
void launch_warps(std::int64_t n, const unsigned long long* dyn_rows, const spmm_operand<V>& A,
                  const spmm_operand<V>& B, const vertex_t* rows, const offset_t* ptr, offset_t base, vertex_t r0,
                  vertex_t* ws_col, stored_t<spmm_value_t<Sr, V>>* ws_val, offset_t* count, redo_lists redo = {}) {
  if (n == 0) return;
  std::int64_t blocks = (n + Warps - 1) / Warps;
  if (dyn_rows != nullptr) blocks = std::min<std::int64_t>(blocks, 1024);
  warp_rows<Slots, Warps, Abort, Sr, V><<<unsigned(blocks), Warps * 32>>>(A, B, rows, n, dyn_rows, ptr, base, r0, ws_col,
                                                                        ws_val, count, redo);
  FG_CUDA_CHECK_LAUNCH();
}

/// The rows of bins 9-13 of spmm_hash_bin: block tables of twice the products up to 4096 slots
/// (short probe runs), of the products beyond (a row that long has few distinct columns, or shared
/// memory runs out: 16384 slots of doubles are 192 KiB); rows of more than 16384 products (bin 13)
/// take the global path. Every one of them first tries one table of 2048 slots (a Galerkin row has
/// 7-13x fewer distinct columns than products; H200, 2026-11-29: 3D 128^3 R.A.P 6.6 -> 5.8 ms, FE
/// 64^3 7.5 -> 3.8 ms, 2D 1024^2 unchanged), and only the rows past 1536 columns go on to their bin.
template <class Sr, class V, class Rows, class List>
void multiply_long_rows(const Rows& rows_of, const List& list_of, const spmm_operand<V>& A, const spmm_operand<V>& B,
                        const offset_t* ptr, offset_t base, vertex_t r0, vertex_t* wc,
                        stored_t<spmm_value_t<Sr, V>>* wv, offset_t* cnt) {
  std::int64_t many = 0;
  for (int b = block_first_bin; b <= block_last_bin; ++b) many += rows_of(b);
  if (many == 0) return;
  // The bins are listed one after the other; a row the first try gives up goes to its own bin's
  // stretch of `list`, counted on the device.
  array<vertex_t, device_space> list(static_cast<std::size_t>(many));
  array<unsigned long long, device_space> n(block_redo_bins);
  fill_zero(n);
  block_redo redo{list.data(), {}, n.data()};
  for (int b = block_first_bin + 1; b <= block_last_bin; ++b)
    redo.at[b - block_first_bin] = redo.at[b - block_first_bin - 1] + rows_of(b - 1);
  launch_blocks<block_first_slots, 512, true, Sr>(many, nullptr, A, B, list_of(block_first_bin), ptr, base, r0, wc, wv,
                                                  cnt, redo);
  auto rows_in = [&](int b) { return list.data() + redo.at[b - block_first_bin]; };
  auto dyn = [&](int b) { return n.data() + (b - block_first_bin); };
  launch_blocks<4096, 512, false, Sr>(rows_of(9), dyn(9), A, B, rows_in(9), ptr, base, r0, wc, wv, cnt);
  launch_blocks<4096, 512, false, Sr>(rows_of(10), dyn(10), A, B, rows_in(10), ptr, base, r0, wc, wv, cnt);
  launch_blocks<8192, 512, false, Sr>(rows_of(11), dyn(11), A, B, rows_in(11), ptr, base, r0, wc, wv, cnt);
  launch_blocks<16384, 512, false, Sr>(rows_of(12), dyn(12), A, B, rows_in(12), ptr, base, r0, wc, wv, cnt);
  // The global path sizes its work on the host: one read of bin 13's count of rows given up.
  const std::int64_t n13 = rows_of(13) > 0 ? std::int64_t(to_vector(n)[block_redo_bins - 1]) : 0;
  spmm_device::global_rows<Sr>(A, B, nullptr, rows_in(13), n13, r0, ptr, base, wc, wv, cnt);
}

/// Every row of an unmasked product by its bin of spmm_hash_bin (list_of(b), rows_of(b)).
template <class Sr, class V, class Rows, class List>
void multiply_bins(const Rows& rows_of, const List& list_of, const spmm_operand<V>& A, const spmm_operand<V>& B,
                   const offset_t* ptr, offset_t base, vertex_t r0, vertex_t* wc,
                   stored_t<spmm_value_t<Sr, V>>* wv, offset_t* cnt) {
  launch_groups<8, Sr>(rows_of(1), A, B, list_of(1), ptr, base, r0, wc, wv, cnt);
  launch_groups<16, Sr>(rows_of(2), A, B, list_of(2), ptr, base, r0, wc, wv, cnt);
  launch_groups<32, Sr>(rows_of(3), A, B, list_of(3), ptr, base, r0, wc, wv, cnt);
  // Bins 4-7 (33-512 products, listed one after the other) go first through warp tables of 128
  // slots, 8 warps a block, where tables of their products (up to 512 slots, 4 warps a block) took
  // 6 KB of shared memory a warp and four launches; AMG's rows have 7-13× fewer distinct columns
  // than products (H200: 2D 1024² Galerkin 2.9 → 2.3 ms, FE 64³ 8.6 → 7.9). A row of more than 96
  // columns is made again with a table of 512. (Rows of 513-4096 products stay with blocks: through
  // warps they were slower where they are few, a coarse level's; docs/perf-journal.md, 2026-11-29.)
  const std::int64_t few = rows_of(4) + rows_of(5) + rows_of(6) + rows_of(7);
  if (few > 0) {
    array<vertex_t, device_space> redo(static_cast<std::size_t>(few));
    array<unsigned long long, device_space> redo_n(1);
    fill_zero(redo_n);
    const redo_lists lists{redo.data(), redo_n.data()};
    launch_warps<128, 8, true, Sr>(few, nullptr, A, B, list_of(4), ptr, base, r0, wc, wv, cnt, lists);
    launch_warps<512, 4, false, Sr>(few, redo_n.data(), A, B, lists.warp, ptr, base, r0, wc, wv, cnt);
  }
  launch_blocks<2048, 256, false, Sr>(rows_of(8), nullptr, A, B, list_of(8), ptr, base, r0, wc, wv, cnt);
  multiply_long_rows<Sr>(rows_of, list_of, A, B, ptr, base, r0, wc, wv, cnt);
}

}  // namespace fg::detail::spmm_hash
