// Device pieces of the SpMM bins (storage/cuda/spmm_binned.cu, storage/cuda/spmm_hash.cuh).
#pragma once
#include <cstdint>

#include "storage/detail/search.hpp"
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

/// Entry j of A's row (j < e; else nothing) for a chunk: its B row to brow, its value to aval;
/// returns its B-row length, the products it makes (0 past the row's end).
template <class Sr, class V, bool Values>
__device__ int load_entry(const spmm_operand<V>& A, const spmm_operand<V>& B, offset_t j, offset_t e, vertex_t* brow,
                          typename Sr::value_type* aval) {
  if (j >= e) return 0;
  const vertex_t k = A.col[j];
  *brow = k;
  if constexpr (Values) *aval = value_or<V>(A.val, j, Sr::pattern_value());
  return k < B.rows ? int(B.size(k)) : 0;
}

/// The products q = first, first + stride, ... < chunk of a chunk of `width` entries of A, placed
/// by the exclusive scan `start` of their B-row lengths (entries past the row's end start at the
/// chunk's total): emit(q, column, product value) for each (the value is T{} for patterns).
template <class Sr, class V, bool Values, class Emit>
__device__ void for_each_product(const spmm_operand<V>& B, const int* start, int width, const vertex_t* brow,
                                 const typename Sr::value_type* aval, int first, int chunk, int stride, Emit&& emit) {
  using T = typename Sr::value_type;
  for (int q = first; q < chunk; q += stride) {
    const int s = int(last_not_greater(start, std::int64_t(width), q));
    const offset_t jb = B.locate(brow[s], q - start[s]);
    T v{};
    if constexpr (Values) v = Sr::mul(aval[s], value_or<V>(B.val, jb, Sr::pattern_value()));
    emit(q, std::uint32_t(B.col[jb]), v);
  }
}

}  // namespace fg::detail
