// Kernel interface of HYB (storage/hyb.hpp), the FG_STORAGE_KERNELS pattern of
// storage/detail/kernels.hpp:
//   hyb_kernels<host_space>   = storage/reference/hyb.cpp : sequential twins (the oracle)
//   hyb_kernels<device_space> = storage/device/hyb_convert.cpp (Thrust conversion) and
//                               storage/device/hyb_spmv_portable.cpp | storage/cuda/hyb_spmv.cu
//                               (the ELL kernel and the tail's segmented reduction)
// Orchestration (the K rule's threshold, argument checks, allocation, the tail's row blocks by
// storage/detail/csr_adaptive_kernels.hpp) lives once, in storage/hyb.cpp.
#pragma once
#include "core/array.hpp"
#include "storage/csr.hpp"
#include "storage/hyb.hpp"

namespace fg::detail {

/// Sizes of a HYB tail.
struct hyb_tail_size {
  offset_t nnz = 0;   ///< entries beyond the first K of their row
  vertex_t rows = 0;  ///< rows holding such entries
};

template <class Space>
struct hyb_kernels;

#define FG_HYB_KERNELS(S)                                                                           \
  /* the largest K such that at least min_rows rows have length >= K (0 if none, or min_rows >     \
     rows): the reference walks the row-length histogram, the device reads the min_rows-th largest \
     row length */                                                                                  \
  static vertex_t hyb_width(const offset_t* row_ptr, vertex_t rows, offset_t min_rows);            \
  /* tail_ptr[r] = exclusive scan of max(0, length(r) - K), rows + 1 entries */                     \
  static hyb_tail_size hyb_tail_offsets(const offset_t* row_ptr, vertex_t rows, vertex_t K,        \
                                        offset_t* tail_ptr);                                        \
  /* fills the ELL part (pitch * K slots, padding col = hyb_padding, value 0) and the tail          \
     (entry p of row r's tail at tail_ptr[r] + p: row r, its entry K + p) */                        \
  template <class V>                                                                                \
  static void hyb_fill(const csr_view<V>& A, vertex_t K, offset_t pitch, const offset_t* tail_ptr,  \
                       offset_t tail_nnz, vertex_t* ell_col, stored_t<V>* ell_val,                  \
                       vertex_t* tail_row, vertex_t* tail_col, stored_t<V>* tail_val);              \
  /* the tail's segments: key[m] = m-th row with a tail (ascending), ptr[m] = tail_ptr[key[m]],      \
     ptr[tail_rows] = tail_nnz (tail_rows + 1 entries) */                                           \
  static void hyb_tail_rows(const offset_t* tail_ptr, vertex_t rows, offset_t tail_nnz,             \
                            vertex_t tail_rows, vertex_t* key, offset_t* ptr);                     \
  /* y[r] = the (+) of row r's ELL entries (Sr::zero() for K = 0) */                                \
  template <class Sr, class V>                                                                      \
  static void hyb_ell_spmv(const hyb_view<V>& A, const typename Sr::value_type* x,                  \
                           typename Sr::value_type* y);                                             \
  /* y[key[m]] = y[key[m]] (+) the (+) of tail row m's entries, for every tail row (after           \
     hyb_ell_spmv): one writer per row, no atomics, no scratch, no host round trip */               \
  template <class Sr, class V>                                                                      \
  static void hyb_tail_spmv(const hyb_view<V>& A, const typename Sr::value_type* x,                 \
                            typename Sr::value_type* y);

template <>
struct hyb_kernels<host_space> {
  FG_HYB_KERNELS(host_space)
};
template <>
struct hyb_kernels<device_space> {
  FG_HYB_KERNELS(device_space)
};
#undef FG_HYB_KERNELS

}  // namespace fg::detail
