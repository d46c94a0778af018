// SpMM rows of 33-512 unmasked products by a k-way merge (storage/cuda/spmm_hash.cuh), behind
// FG_SPMM_MERGE=1 (session 27: not yet measured on a GPU, off by default).
//
// A Galerkin row R·(AP) or A·P has at most 32 entries of A (lane t takes entry t) and its B rows are
// sorted (CSR inputs, and every SpMM result). So the row is the merge of at most 32 sorted lists:
// the warp stages its products in shared memory (list t at [start[t], start[t + 1])), then each
// step takes the smallest head over the lanes (__reduce_min_sync), sums the lanes holding it (a
// shuffle tree: a fixed order) and writes one result, already in column order. Steps = distinct
// columns (~30 where the hash warp tables cleared, filled, compacted and sorted a table of 128
// slots per row: ~2,550 instructions a row, ncu, 3D level 0). A row with more than 32 entries, an
// unsorted B row or more than `merge_limit` distinct columns is listed for warp_rows<512>.
// The sums repeat to the bit run after run, but a merged row adds in a tree, where the warp tables
// add a column's products in lane order: float bits differ between the two paths. Needs sm_80+
// (__reduce_min_sync).
#pragma once
#include <cstdint>

#include "core/cuda_check.hpp"
#include "storage/cuda/spmm_common.cuh"
#include "storage/cuda/spmm_table.cuh"
#include "storage/detail/spmm_kernels.hpp"

namespace fg::detail::spmm_hash {

/// Most products a merged row stages (bins 4-7), and most distinct columns before it gives up.
constexpr int merge_products = 512, merge_limit = 96;

template <int Warps, class Sr, class V>
__global__ void __launch_bounds__(Warps * 32)
merge_rows(spmm_operand<V> A, spmm_operand<V> B, const vertex_t* __restrict__ rows, std::int64_t nrows,
           const offset_t* __restrict__ ptr, offset_t base, vertex_t r0, vertex_t* __restrict__ ws_col,
           stored_t<spmm_value_t<Sr, V>>* __restrict__ ws_val, offset_t* __restrict__ count, redo_lists redo) {
  using VC = spmm_value_t<Sr, V>;
  using T = typename Sr::value_type;
  constexpr bool values = !is_pattern_v<VC>;
  constexpr unsigned full = 0xffffffffu;
  __shared__ std::uint32_t col_all[Warps][merge_products];
  __shared__ T val_all[Warps][values ? merge_products : 1];
  __shared__ warp_chunks<T, Warps> chunks;
  const int w = int(threadIdx.x >> 5), lane = int(threadIdx.x & 31);
  std::uint32_t* pcol = col_all[w];
  T* pval = val_all[w];
  int* start = chunks.start[w];
  const chunk_entries<T> ch = chunks.of(w);
  for (std::int64_t i = std::int64_t(blockIdx.x) * Warps + w; i < nrows; i += std::int64_t(gridDim.x) * Warps) {
    const vertex_t r = rows[i];
    const offset_t w0 = ptr[r] - base;  // needed last
    const auto ap = A.first_piece(r);
    const offset_t na = ap.size;
    bool give_up = na > 32;  // the same on every lane
    int total = 0;
    if (!give_up) {
      const offset_t j = lane >= na ? 0 : lane < ap.length ? ap.begin + lane : A.locate(r, lane);
      const int len = load_entry<Sr, V, values>(A, B, j, lane < na ? j + 1 : j, ch, lane);
      int incl = len;
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const int y = __shfl_up_sync(full, incl, d);
        if (lane >= d) incl += y;
      }
      total = __shfl_sync(full, incl, 31);
      start[lane] = incl - len;  // lanes past the row's end start at the total
      __syncwarp();
      give_up = total > merge_products;
      if (!give_up)  // stage the products, list by list
        for_each_product<32, Sr, V, values>(B, start, ch, lane, total, 32, [&](int q, std::uint32_t c, T v) {
          pcol[q] = c;
          if constexpr (values) pval[q] = v;
        });
      __syncwarp();
    }
    int b = give_up ? 0 : start[lane];
    const int e = give_up ? 0 : lane < 31 ? start[lane + 1] : total;
    bool sorted = true;
    for (int x = b; x + 1 < e; ++x) sorted = sorted && pcol[x] < pcol[x + 1];
    give_up = !__all_sync(full, sorted) || give_up;  // every lane takes part in the vote
    std::uint32_t head = b < e ? pcol[b] : empty_slot;
    int out = 0;
    while (!give_up) {
      const std::uint32_t c = __reduce_min_sync(full, head);
      if (c == empty_slot) break;
      if (out == merge_limit) {
        give_up = true;
        break;
      }
      const bool mine = head == c;
      if constexpr (values) {
        T v = mine ? pval[b] : Sr::zero();
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) v = Sr::add(v, __shfl_down_sync(full, v, d));  // lane 0: a fixed order
        if (lane == 0) store_value<VC>(ws_val, w0 + out, v);
      }
      if (lane == 0) ws_col[w0 + out] = vertex_t(c);
      ++out;
      if (mine) ++b, head = b < e ? pcol[b] : empty_slot;
    }
    if (give_up) {
      if (lane == 0) redo.warp[atomicAdd(redo.warp_n, 1ull)] = r;
    } else if (lane == 0) {
      count[r - r0] = out;
    }
    __syncwarp();  // the next row's staging overwrites this one's
  }
}

template <class Sr, class V>
void launch_merges(std::int64_t n, const spmm_operand<V>& A, const spmm_operand<V>& B, const vertex_t* rows,
                   const offset_t* ptr, offset_t base, vertex_t r0, vertex_t* ws_col,
                   stored_t<spmm_value_t<Sr, V>>* ws_val, offset_t* count, redo_lists redo) {
  if (n == 0) return;
  constexpr int warps = 4;
  merge_rows<warps, Sr, V><<<unsigned((n + warps - 1) / warps), warps * 32>>>(A, B, rows, n, ptr, base, r0, ws_col,
                                                                            ws_val, count, redo);
  FG_CUDA_CHECK_LAUNCH();
}

}  // namespace fg::detail::spmm_hash
