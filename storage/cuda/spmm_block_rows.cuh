// SpMM rows of more than 512 unmasked products (storage/cuda/spmm_hash.cuh): a thread block a row,
// its products summed into a hash table in dynamic shared memory (one atomic a product), then only
// the distinct columns sorted.
//
// Tables were sized by products (twice them up to 4096 slots, then the products: 8192 and 16384
// slots, 96 and 192 KiB of doubles), and rows of more than 16384 products took the global path
// (a device radix sort of every product). A Galerkin row has 7-13× fewer distinct columns than
// products, so every row of more than 1024 products first tries a table of 2048 slots, sized by
// what it holds: past 1536 distinct columns it gives up, writes nothing and is listed for its bin's
// table (or the global path). H200, 2026-11-29: 3D 128^3 R.A.P 6.6 -> 5.8 ms, FE 64^3 7.5 -> 3.8.
#pragma once
#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "core/array.hpp"
#include "core/cuda_check.hpp"
#include "storage/cuda/spmm_common.cuh"
#include "storage/cuda/spmm_table.cuh"
#include "storage/detail/spmm_kernels.hpp"

namespace fg::detail::spmm_hash {

/// Shared memory of block_rows beyond its static arrays: the table's values, then its keys.
template <int Slots, class Sr, class V>
constexpr std::size_t block_table_bytes() {
  constexpr bool values = !is_pattern_v<spmm_value_t<Sr, V>>;
  return std::size_t(Slots) * (4 + (values ? sizeof(typename Sr::value_type) : 0));
}

/// The most distinct columns block_rows sorts by counting (every key compared with every other);
/// more go through the bitonic network.
constexpr int block_count_sort_max = 128;

/// The first try's table, and the distinct columns past which a row gives up (three quarters: short
/// probe runs until then).
constexpr int block_first_slots = 2048, block_first_limit = 1536;
/// Bins the first try takes (spmm_hash_bin: 1025-2048, ..., 16385+ products).
constexpr int block_first_bin = 9, block_last_bin = 13;
constexpr int block_redo_bins = block_last_bin - block_first_bin + 1;

/// Where the first try lists the rows it gives up: bin b's from list + at[b - block_first_bin],
/// counted by n[b - block_first_bin].
struct block_redo {
  vertex_t* list = nullptr;
  std::int64_t at[block_redo_bins] = {};
  unsigned long long* n = nullptr;
};

/// Block per row of rows[0, n) (n = *dyn_rows when given, else the grid): without Abort a row has at
/// most Slots products, with Abort it gives up past block_first_limit distinct columns (redo).
template <int Slots, int Threads, bool Abort, class Sr, class V>
__global__ void __launch_bounds__(Threads, 2048 / Threads / 2)
block_rows(spmm_operand<V> A, spmm_operand<V> B, const vertex_t* __restrict__ rows,
           const unsigned long long* __restrict__ dyn_rows, const offset_t* __restrict__ ptr, offset_t base,
           vertex_t r0, vertex_t* __restrict__ ws_col, stored_t<spmm_value_t<Sr, V>>* __restrict__ ws_val,
           offset_t* __restrict__ count, block_redo redo) {
  using VC = spmm_value_t<Sr, V>;
  using T = typename Sr::value_type;
  constexpr bool values = !is_pattern_v<VC>;
  constexpr int slots = Slots;
  static_assert(slots % Threads == 0, "spmm_hash: slots must be a multiple of the block");
  if (dyn_rows != nullptr && blockIdx.x >= *dyn_rows) return;  // the whole block
  using block_scan = cub::BlockScan<int, Threads>;
  __shared__ typename block_scan::TempStorage scan_tmp;
  __shared__ int start[Threads];
  __shared__ vertex_t brow[Threads];
  __shared__ offset_t bbegin[Threads], blength[Threads];
  __shared__ T aval[Threads];
  __shared__ int used, gave_up;
  const chunk_entries<T> ch{brow, bbegin, blength, aval};
  extern __shared__ __align__(16) unsigned char table[];
  T* val = reinterpret_cast<T*>(table);
  auto* key = reinterpret_cast<std::uint32_t*>(table + (values ? slots * sizeof(T) : 0));
  const vertex_t r = rows[blockIdx.x];
  const int t = int(threadIdx.x);
  const offset_t products = Abort ? ptr[r + 1] - ptr[r] : 0;  // only a first try reads it
  if (t == 0) used = 0, gave_up = Abort && products > (offset_t(1) << 30);  // a chunk's int scan could overflow
  for (int s = t; s < slots; s += Threads) {
    key[s] = empty_slot;
    if constexpr (values) val[s] = Sr::zero();
  }
  __syncthreads();
  A.for_each_piece(r, [&](offset_t b, offset_t e) {
    for (offset_t c0 = b; c0 < e && !(Abort && gave_up); c0 += Threads) {  // gave_up read after a barrier
      const int len = load_entry<Sr, V, values>(A, B, c0 + t, e, ch, t);
      int off = 0, chunk = 0;
      block_scan(scan_tmp).ExclusiveSum(len, off, chunk);
      start[t] = off;
      __syncthreads();
      // A thread stops at its own first failure; the block at the next barrier (the flag is set by
      // atomics and read only after barriers: no race for racecheck). Each thread fails at most
      // once, so the claims stop at block_first_limit + Threads <= Slots.
      bool quit = false;
      for_each_product<Threads, Sr, V, values>(B, start, ch, t, chunk, Threads, [&](int, std::uint32_t c, T v) {
        if constexpr (Abort) {
          if (!quit && !insert_counted<slots, Sr, values>(key, val, c, v, &used, block_first_limit)) {
            quit = true;
            atomicOr(&gave_up, 1);
          }
        } else {
          insert<slots, Sr, values>(key, val, c, v);
        }
      });
      __syncthreads();
    }
  });
  if (Abort && gave_up) {  // the same on every thread (set before the last barrier)
    if (t == 0) {
      const int b = spmm_hash_bin(products, A.size(r)) - block_first_bin;
      redo.list[redo.at[b] + std::int64_t(atomicAdd(redo.n + b, 1ull))] = r;
    }
    return;
  }
  // Compact, a block's width of slots at a time: a block scan of their occupancy places them (a slot
  // moves only to a lower index, one whose round has already been read).
  int u = 0;
  for (int s0 = 0; s0 < slots; s0 += Threads) {
    const std::uint32_t k = key[s0 + t];
    T v{};
    if constexpr (values) v = val[s0 + t];
    int pos = 0, n = 0;
    block_scan(scan_tmp).ExclusiveSum(k != empty_slot ? 1 : 0, pos, n);  // its barrier: all have read
    if (k != empty_slot) {
      key[u + pos] = k;
      if constexpr (values) val[u + pos] = v;
    }
    u += n;
    __syncthreads();
  }
  const offset_t w0 = ptr[r] - base;
  // Sorted by counting while that is cheaper than the bitonic network: u² compares over the block
  // against ~log²(u)/2 steps of a compare-exchange each. At u = 1000 the counting took 5× the
  // network (FEM level 1, ncu: 40k warp instructions a row, most of them this loop).
  if (u <= block_count_sort_max) {
    for (int x = t; x < u; x += Threads) {
      const std::uint32_t kx = key[x];
      int rank = 0;
      for (int y = 0; y < u; ++y) rank += key[y] < kx ? 1 : 0;
      ws_col[w0 + rank] = vertex_t(kx);
      store_value<VC>(ws_val, w0 + rank, val[values ? x : 0]);
    }
  } else {  // a bitonic sort of the next power of two (u is the same for the whole block)
    int n2 = 1;
    while (n2 < u) n2 <<= 1;
    for (int x = u + t; x < n2; x += Threads) key[x] = empty_slot;
    __syncthreads();
    bitonic_sort<values>(key, val, n2);
    for (int x = t; x < u; x += Threads) {
      ws_col[w0 + x] = vertex_t(key[x]);
      store_value<VC>(ws_val, w0 + x, val[values ? x : 0]);
    }
  }
  if (t == 0) count[r - r0] = u;
}

/// block_rows over rows[0, n) (n = *dyn_rows when given, at most the grid of n blocks).
template <int Slots, int Threads, bool Abort, class Sr, class V>
void launch_blocks(std::int64_t n, const unsigned long long* dyn_rows, const spmm_operand<V>& A,
                   const spmm_operand<V>& B, const vertex_t* rows, const offset_t* ptr, offset_t base, vertex_t r0,
                   vertex_t* ws_col, stored_t<spmm_value_t<Sr, V>>* ws_val, offset_t* count, block_redo redo = {}) {
  if (n == 0) return;
  constexpr std::size_t bytes = block_table_bytes<Slots, Sr, V>();
  // Tables past 48 KiB need the opt-in; set once per instantiation.
  static const bool opted = [] {
    FG_CUDA_TRY(cudaFuncSetAttribute(block_rows<Slots, Threads, Abort, Sr, V>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    return true;
  }();
  (void)opted;
  block_rows<Slots, Threads, Abort, Sr, V><<<unsigned(n), Threads, bytes>>>(A, B, rows, dyn_rows, ptr, base, r0, ws_col,
                                                                          ws_val, count, redo);
  FG_CUDA_CHECK_LAUNCH();
}

}  // namespace fg::detail::spmm_hash
