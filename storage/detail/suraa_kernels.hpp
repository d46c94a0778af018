// Kernel interface of SURAA (storage/suraa.hpp), the FG_STORAGE_KERNELS pattern:
//   suraa_kernels<host_space>   = storage/reference/suraa.cpp (sequential twins, the oracle)
//   suraa_kernels<device_space> = storage/device/suraa_convert.cpp (Thrust) and
//                                 storage/device/suraa_spmv_portable.cpp | storage/cuda/suraa_spmv.cu
// Orchestration (Freedman–Diaconis segmentation, grouping) lives once, in storage/suraa.cpp, so both
// twins segment and group identically by construction.
#pragma once
#include <cstddef>

#include "core/array.hpp"
#include "storage/csr.hpp"
#include "storage/suraa.hpp"

namespace fg::detail {

/// Threads for a row of npr entries (Algorithm 1 lines 7-9, Algorithm 3 lines 8-10): half the row
/// length rounded up to a multiple of 32, so a thread reads about two entries; clamped to [32, 1024]
/// (a block's limit).
FG_HD inline int suraa_threads(offset_t npr) {
  const offset_t t = (((npr >> 1) + 31) >> 5) << 5;
  return t < 32 ? 32 : t > 1024 ? 1024 : int(t);
}

template <class Space>
struct suraa_kernels;

#define FG_SURAA_KERNELS(S)                                                                         \
  /* perm = 0..rows-1 sorted by row length, descending, stably (Algorithm 2 line 4, radix sort by  \
     key); npr[i] = length of row perm[i] */                                                        \
  static void suraa_sort_rows(const offset_t* row_ptr, vertex_t rows, vertex_t* perm, offset_t* npr); \
  /* Algorithm 2 line 5: the entries of row perm[i], in stored order, to [row_ptr[i], row_ptr[i+1]) \
     of col/val (row_ptr is the scan of the sorted lengths) */                                      \
  template <class V>                                                                                \
  static void suraa_rearrange(const csr_view<V>& A, const vertex_t* perm, const offset_t* row_ptr,  \
                              vertex_t* col, stored_t<V>* val);                                     \
  /* out[i] = a[pos[i]] for i < n; pos and out are host memory */                                   \
  static void suraa_read(const offset_t* a, const offset_t* pos, std::size_t n, offset_t* out);     \
  /* Algorithm 1: every launch (a segment, or consecutive segments of one kernel and thread count   \
     joined) by its group's kernel; y[perm[i]] = row i . x */                                       \
  template <class Sr, class V>                                                                      \
  static void suraa_spmv(const suraa_view<V>& A, const suraa_segment* seg, std::size_t nseg,        \
                         bool dynamic_parallelism, const typename Sr::value_type* x,                \
                         typename Sr::value_type* y);

template <>
struct suraa_kernels<host_space> {
  FG_SURAA_KERNELS(host_space)
};
template <>
struct suraa_kernels<device_space> {
  FG_SURAA_KERNELS(device_space)
};
#undef FG_SURAA_KERNELS

}  // namespace fg::detail
