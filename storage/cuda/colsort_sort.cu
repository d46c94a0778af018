// The column-sorted partitions' sorts, CUDA build. Replaces storage/device/colsort_sort_portable.cpp
// (the CPU build's, a group at a time in its cache).
// - Within groups: one radix sort of (group, column) keys over all entries. Only the bits the keys
//   use are sorted (rmat-24: 12 + 24 of 64, 5 passes instead of 8), LSD radix sort is stable (ties
//   stay in CSR order, so the layout equals the reference twin's), and what rides along is as small
//   as the matrix allows: a pattern matrix's entry is its column (in the key) and its row in the
//   group (2 bytes), so nothing is gathered afterwards; a valued one carries a 32-bit position. An
//   entry finds its row by a binary search of the row offsets, so a hub row of millions of entries is
//   spread over as many threads.
// - The tiles' row order: a block a tile sorts its 2048 (row << 11 | position) keys in registers and
//   shared memory (distinct keys: the order is the stable one) and moves the tile's entries into that
//   order in place: one read and one write of the tile.
#include <cub/block/block_radix_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <thrust/scan.h>

#include <algorithm>

#include "core/bits.hpp"
#include "core/cuda_check.hpp"
#include "storage/detail/colsort_kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = colsort_kernels<device_space>;

namespace {
// Sorts n (key, value) pairs by the key's low `bits` bits, stably: keys/values in a, out in b.
template <class Value>
void radix_pairs(const std::uint64_t* ka, std::uint64_t* kb, const Value* va, Value* vb, std::int64_t n, int bits) {
  std::size_t temp_bytes = 0;
  FG_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, ka, kb, va, vb, n, 0, bits));
  array<std::uint8_t, device_space> temp(std::max<std::size_t>(temp_bytes, 1));
  FG_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, ka, kb, va, vb, n, 0, bits));
}

constexpr int tile_bits = 11;  // positions within a tile
static_assert(colsort_tile == offset_t(1) << tile_bits, "a tile's positions take tile_bits bits");
static_assert(colsort_rows <= (1 << (32 - tile_bits)), "(row, position) keys fit 32 bits");

// Tile `tile` of the partitions (tiles[p]: partition p's first tile, nparts + 1 entries): its first
// entry t0, its size n, and its entries' (row << tile_bits | position) keys sorted, striped (item k
// of thread t is rank k * threads + t). Padding's low bits are all ones: above any real key of a
// partial tile (its positions <= n - 1 <= 2046). lrow is not __restrict__: tile_reorder_kernel
// writes it afterwards (its own tile only, after the reads).
using tile_sort = cub::BlockRadixSort<std::uint32_t, colsort_threads, colsort_items>;
__device__ void sorted_tile(const colsort_part* __restrict__ parts, const offset_t* __restrict__ tiles, offset_t nparts,
                            const std::uint16_t* lrow, typename tile_sort::TempStorage& tmp,
                            std::uint32_t (&key)[colsort_items], offset_t& t0, int& n) {
  constexpr int row_bits = 13;  // rows within a partition < colsort_rows
  static_assert(colsort_rows <= (1 << row_bits), "rows within a partition take row_bits bits");
  const offset_t tile = blockIdx.x;
  const std::int64_t p = last_not_greater(tiles, nparts + 1, tile);
  t0 = parts[p].begin + (tile - tiles[p]) * colsort_tile;
  n = int(parts[p].end - t0 < colsort_tile ? parts[p].end - t0 : colsort_tile);
#pragma unroll
  for (int k = 0; k < colsort_items; ++k) {  // blocked: thread t holds positions t * items + k
    const int i = int(threadIdx.x) * colsort_items + k;
    key[k] = i < n ? (std::uint32_t(lrow[t0 + i]) << tile_bits) | std::uint32_t(i) : ~0u;
  }
  tile_sort(tmp).SortBlockedToStriped(key, 0, tile_bits + row_bits);
}

// A block a tile: its entries moved into row order, in place (all read before any is written).
template <class V>
__global__ void __launch_bounds__(colsort_threads)
tile_reorder_kernel(const colsort_part* __restrict__ parts, const offset_t* __restrict__ tiles, offset_t nparts,
                    std::uint16_t* lrow, vertex_t* col, stored_t<V>* val) {
  __shared__ typename tile_sort::TempStorage tmp;
  std::uint32_t key[colsort_items];
  offset_t t0;
  int n;
  sorted_tile(parts, tiles, nparts, lrow, tmp, key, t0, n);
  vertex_t c[colsort_items];
  stored_t<V> v[colsort_items];
#pragma unroll
  for (int k = 0; k < colsort_items; ++k) {
    const int i = k * colsort_threads + int(threadIdx.x);
    const offset_t from = t0 + offset_t(key[k] & ((1u << tile_bits) - 1));
    if (i < n) {
      c[k] = col[from];
      if constexpr (!is_pattern_v<V>) v[k] = val[from];
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < colsort_items; ++k) {
    const int i = k * colsort_threads + int(threadIdx.x);
    if (i < n) {
      col[t0 + i] = c[k];
      if constexpr (!is_pattern_v<V>) val[t0 + i] = v[k];
      lrow[t0 + i] = std::uint16_t(key[k] >> tile_bits);
    }
  }
}

// The tiles of the partitions: each partition's first tile (nparts + 1 entries, the last the total),
// and the grid of a block a tile.
struct tile_grid {
  array<offset_t, device_space> starts;
  unsigned blocks = 0;
};
tile_grid tiles_of(const colsort_part* parts, offset_t nparts) {
  tile_grid g{array<offset_t, device_space>(static_cast<std::size_t>(nparts) + 1)};
  offset_t* t = g.starts.data();
  parallel_for(nparts + 1, FG_LAMBDA(std::int64_t p) {
    t[p] = p < nparts ? (parts[p].end - parts[p].begin + colsort_tile - 1) / colsort_tile : 0;
  });
  thrust::exclusive_scan(policy(), t, t + nparts + 1, t);
  g.blocks = unsigned(read_one<device_space>(t + nparts));
  return g;
}
}  // namespace

template <class V>
void K::sort_entries(const csr_view<V>& A, const vertex_t* g, offset_t groups, vertex_t* col, stored_t<V>* val,
                     std::uint16_t* lrow) {
  const offset_t nnz = A.nnz;
  if (nnz == 0) return;
  const int cbits = std::max(1, bit_width(std::uint64_t(std::max<vertex_t>(A.cols, 1) - 1)));
  const int bits = cbits + std::max(1, bit_width(std::uint64_t(groups)));
  array<std::uint64_t, device_space> key(static_cast<std::size_t>(nnz)), sorted(static_cast<std::size_t>(nnz));
  array<std::uint16_t, device_space> rl(static_cast<std::size_t>(nnz));
  std::uint64_t* k = key.data();
  std::uint16_t* w = rl.data();
  const csr_view<V> M = A;
  const std::int64_t ng = groups;
  parallel_for(nnz, FG_LAMBDA(std::int64_t j) {  // an entry's key (its group, its column), its row in the group
    const std::int64_t r = last_not_greater(M.row_ptr, std::int64_t(M.rows) + 1, offset_t(j));
    const std::int64_t gi = last_not_greater(g, ng + 1, vertex_t(r));
    k[j] = (std::uint64_t(gi) << cbits) | std::uint32_t(M.col[j]);
    w[j] = std::uint16_t(r - g[gi]);
  });
  const std::uint64_t* s = sorted.data();
  const std::uint64_t mask = (std::uint64_t(1) << cbits) - 1;
  if constexpr (is_pattern_v<V>) {
    radix_pairs(k, sorted.data(), w, lrow, nnz, bits);  // the row in the group rides along; the column is the key's
    parallel_for(nnz, FG_LAMBDA(std::int64_t j) { col[j] = vertex_t(s[j] & mask); });
  } else {
    FG_EXPECTS(nnz <= offset_t(UINT32_MAX), "colsort: at most 2^32 - 1 valued entries");
    array<std::uint32_t, device_space> at(static_cast<std::size_t>(nnz)), perm(static_cast<std::size_t>(nnz));
    std::uint32_t* a = at.data();
    parallel_for(nnz, FG_LAMBDA(std::int64_t j) { a[j] = std::uint32_t(j); });
    radix_pairs(k, sorted.data(), a, perm.data(), nnz, bits);
    const std::uint32_t* o = perm.data();
    const stored_t<V>* from = M.val;
    parallel_for(nnz, FG_LAMBDA(std::int64_t j) {
      col[j] = vertex_t(s[j] & mask);
      val[j] = from[o[j]];
      lrow[j] = w[o[j]];
    });
  }
}

template <class V>
void K::tile_reorder(const colsort_part* parts, offset_t nparts, offset_t nnz, std::uint16_t* lrow, vertex_t* col,
                     stored_t<V>* val) {
  if (nnz == 0) return;
  const tile_grid g = tiles_of(parts, nparts);
  tile_reorder_kernel<V><<<g.blocks, colsort_threads>>>(parts, g.starts.data(), nparts, lrow, col, val);
  FG_CUDA_CHECK_LAUNCH();
}

#define FG_INSTANTIATE(V)                                                                                 \
  template void K::sort_entries<V>(const csr_view<V>&, const vertex_t*, offset_t, vertex_t*, stored_t<V>*, \
                                   std::uint16_t*);                                                        \
  template void K::tile_reorder<V>(const colsort_part*, offset_t, offset_t, std::uint16_t*, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
