// Kernel interface of SELL-C-sigma (storage/sell.hpp), the FG_STORAGE_KERNELS pattern of
// storage/detail/kernels.hpp:
//   sell_kernels<host_space>   = storage/reference/sell.cpp : sequential twins (the oracle)
//   sell_kernels<device_space> = storage/device/sell_convert.cpp (Thrust) and
//                                storage/device/sell_spmv_portable.cpp | storage/cuda/sell_spmv.cu
// Orchestration (argument checks, allocation) lives once, in storage/sell.cpp. The twins must build
// identical arrays: the permutation is a stable sort (ties keep row order) in both.
#pragma once
#include "core/array.hpp"
#include "storage/csr.hpp"
#include "storage/sell.hpp"

namespace fg::detail {

template <class Space>
struct sell_kernels;

#define FG_SELL_KERNELS(S)                                                                          \
  /* perm[s] = original row at sorted slot s: rows sorted by length, descending, stably, within   \
     windows [w * sigma, (w + 1) * sigma) */                                                        \
  static void sell_permutation(const offset_t* row_ptr, vertex_t rows, vertex_t sigma, vertex_t* perm); \
  /* chunk_ptr[c] = C x (sum of the widths of chunks before c), chunks + 1 entries; the width of a  \
     chunk is the longest row among its slots. Returns chunk_ptr[chunks] (the padded size). */      \
  static offset_t sell_chunk_offsets(const offset_t* row_ptr, const vertex_t* perm, vertex_t rows,  \
                                     offset_t* chunk_ptr);                                          \
  /* writes every slot: the row's k-th entry, or col = sell_padding and value 0 past its end */     \
  template <class V>                                                                                \
  static void sell_fill(const csr_view<V>& A, const vertex_t* perm, const offset_t* chunk_ptr,      \
                        offset_t padded, vertex_t* col, stored_t<V>* val);                          \
  template <class Sr, class V>                                                                      \
  static void sell_spmv(const sell_view<V>& A, const typename Sr::value_type* x,                    \
                        typename Sr::value_type* y);

template <>
struct sell_kernels<host_space> {
  FG_SELL_KERNELS(host_space)
};
template <>
struct sell_kernels<device_space> {
  FG_SELL_KERNELS(device_space)
};
#undef FG_SELL_KERNELS

}  // namespace fg::detail
