// Shared pieces of the CSR-vector style kernels (Bell & Garland): a sub-warp of W lanes per row,
// W chosen from the mean row length mu, partial sums combined by shuffles within the sub-warp.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "core/cuda_check.hpp"
#include "core/types.hpp"
#include "storage/coo.hpp"

namespace fg::detail {

/// Sub-warp width from the mean row length: the smallest power of two >= mu, in [2, 32].
inline int vector_width(double mu) {
  int w = 2;
  while (w < 32 && w < mu) w *= 2;
  return w;
}

template <class T>
__device__ inline T shuffle_down(T v, int offset, int width) {
  if constexpr (sizeof(T) < 4) return T(__shfl_down_sync(0xffffffffu, int(v), offset, width));
  else return __shfl_down_sync(0xffffffffu, v, offset, width);
}

template <class T>
__device__ inline T shuffle_up(T v, int offset) {
  if constexpr (sizeof(T) < 4) return T(__shfl_up_sync(0xffffffffu, int(v), offset));
  else return __shfl_up_sync(0xffffffffu, v, offset);
}

/// Every lane of the warp must call this (rows past the end included), since the shuffles use the
/// full mask. Lane 0 of the sub-warp ends with the row's total.
template <int W, class Sr>
__device__ inline typename Sr::value_type subwarp_reduce(typename Sr::value_type v) {
#pragma unroll
  for (int off = W / 2; off > 0; off /= 2) v = Sr::add(v, shuffle_down(v, off, W));
  return v;
}

/// Whether the CSR and SELL-C-sigma kernels load the matrix's columns and values evict-first
/// (ld.global.cs): an SpMV reads them once, and left to LRU they push out of L2 the parts of x that
/// are read again. Measured (docs/perf-journal.md): csr_merge on rmat-24 1-5% faster (2026-11-27), SELL
/// float on the 3D FE problem 7% (2026-11-29), never slower. FG_SPMV_CACHED_LOADS=1 turns it off,
/// for A/B runs.
inline bool streaming_loads() {
  static const bool on = [] {
    const char* e = std::getenv("FG_SPMV_CACHED_LOADS");
    return !(e && *e == '1');
  }();
  return on;
}

/// A matrix array's element, evict-first when `stream`.
template <class T>
__device__ inline T matrix_load(const T* p, bool stream) {
  return stream ? __ldcs(p) : *p;
}

/// value_or for a matrix read once: the stored value of entry j (evict-first when `stream`), or the
/// pattern value for a matrix without values.
template <class V, class T>
__device__ inline T matrix_value(const stored_t<V>* val, offset_t j, T pattern_value, bool stream) {
  if constexpr (is_pattern_v<V>) return pattern_value;
  else return T(matrix_load(val + j, stream));
}

constexpr int vector_block = 256;

inline unsigned vector_blocks(std::int64_t rows, int width) {
  return unsigned((rows * width + vector_block - 1) / vector_block);
}

/// Calls launch(std::integral_constant<int, W>{}) with W the compile-time width for mu.
template <class Launch>
void dispatch_width(double mu, Launch&& launch) {
  switch (vector_width(mu)) {
    case 2: launch(std::integral_constant<int, 2>{}); break;
    case 4: launch(std::integral_constant<int, 4>{}); break;
    case 8: launch(std::integral_constant<int, 8>{}); break;
    case 16: launch(std::integral_constant<int, 16>{}); break;
    default: launch(std::integral_constant<int, 32>{}); break;
  }
}

}  // namespace fg::detail
