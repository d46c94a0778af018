// Device pieces of the SpMM bins (storage/cuda/spmm_binned.cu, storage/cuda/spmm_hash.cuh).
#pragma once
#include <cstdint>

#include "storage/detail/spmm_kernels.hpp"

namespace fg::detail {

/// Bitonic sort of key[0, n) (n a power of two) with its values, by the whole block.
template <bool Values, class T>
__device__ void bitonic_sort(std::uint32_t* key, T* val, int n) {
  for (int k = 2; k <= n; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int p = i ^ j;
        if (p > i) {
          const std::uint32_t a = key[i], b = key[p];
          if ((a > b) == ((i & k) == 0)) {
            key[i] = b;
            key[p] = a;
            if constexpr (Values) {
              const T v = val[i];
              val[i] = val[p];
              val[p] = v;
            }
          }
        }
      }
      __syncthreads();
    }
}

/// What a chunk of A's row keeps per entry in shared memory: the entry's B row, the first run of
/// that row (most B rows have one, so a product's position needs no walk of the segments) and the
/// entry's value.
template <class T>
struct chunk_entries {
  vertex_t* brow;
  offset_t* bbegin;
  offset_t* blength;
  T* aval;
};

/// The chunk arrays of warp_rows in shared memory, a row of 32 entries per warp: start[w] (the
/// entries' first products) and of(w).
template <class T, int Warps>
struct warp_chunks {
  int start[Warps][32];
  vertex_t brow[Warps][32];
  offset_t bbegin[Warps][32], blength[Warps][32];
  T aval[Warps][32];
  __device__ chunk_entries<T> of(int w) { return {brow[w], bbegin[w], blength[w], aval[w]}; }
};

/// Entry j of A's row (j < e; else nothing) to slot i of a chunk; returns its B-row length, the
/// products it makes (0 past the row's end).
template <class Sr, class V, bool Values>
__device__ int load_entry(const spmm_operand<V>& A, const spmm_operand<V>& B, offset_t j, offset_t e,
                          const chunk_entries<typename Sr::value_type>& ch, int i) {
  if (j >= e) return 0;
  const vertex_t k = A.col[j];
  ch.brow[i] = k;
  if constexpr (Values) ch.aval[i] = value_or<V>(A.val, j, Sr::pattern_value());
  if (k >= B.rows) return 0;
  const auto p = B.first_piece(k);
  ch.bbegin[i] = p.begin, ch.blength[i] = p.length;
  return int(p.size);
}

/// The entry of a chunk of Width (a power of two) entries that holds product q: the last s with
/// start[s] <= q (start[0] = 0, non-decreasing; entries past the row's end start at the chunk's
/// total). log2(Width) fixed steps of 32-bit compares: the generic 64-bit search took ~12
/// instructions a step and a loop, for every product of the warp and block kernels
/// (docs/perf-journal.md, 2026-11-29).
template <int Width>
__device__ __forceinline__ int entry_of(const int* start, int q) {
  static_assert((Width & (Width - 1)) == 0, "entry_of: a power of two");
  int s = 0;
#pragma unroll
  for (int b = Width / 2; b >= 1; b /= 2)
    if (start[s + b] <= q) s += b;
  return s;
}

/// The products q = first, first + stride, ... < chunk of a chunk of Width entries of A, placed
/// by the exclusive scan `start` of their B-row lengths (entries past the row's end start at the
/// chunk's total): emit(q, column, product value) for each (the value is T{} for patterns). Four
/// products a thread at a time, so that their loads are in flight together.
template <int Width, class Sr, class V, bool Values, class Emit>
__device__ void for_each_product(const spmm_operand<V>& B, const int* start,
                                 const chunk_entries<typename Sr::value_type>& ch, int first, int chunk, int stride,
                                 Emit&& emit) {
  using T = typename Sr::value_type;
  constexpr int unroll = 4;
  for (int q0 = first; q0 < chunk; q0 += unroll * stride) {
    int s[unroll];
    offset_t jb[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const int q = q0 + u * stride;
      s[u] = 0, jb[u] = -1;
      if (q < chunk) {
        s[u] = entry_of<Width>(start, q);
        const offset_t p = q - start[s[u]];
        jb[u] = p < ch.blength[s[u]] ? ch.bbegin[s[u]] + p : B.locate(ch.brow[s[u]], p);
      }
    }
    std::uint32_t c[unroll];
    T v[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      v[u] = T{};
      if (jb[u] < 0) continue;
      c[u] = std::uint32_t(B.col[jb[u]]);
      if constexpr (Values) v[u] = Sr::mul(ch.aval[s[u]], value_or<V>(B.val, jb[u], Sr::pattern_value()));
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u)
      if (jb[u] >= 0) emit(q0 + u * stride, c[u], v[u]);
  }
}

}  // namespace fg::detail
