// The CMRS kernel interface (storage/cmrs.hpp), specialised like storage/detail/kernels.hpp:
//   cmrs_kernels<host_space>   = storage/reference/cmrs.cpp : sequential twins (the oracle)
//   cmrs_kernels<device_space> = storage/device/cmrs_convert.cpp (Thrust) and
//                                storage/device/cmrs_spmv_portable.cpp (CPU build) or
//                                storage/cuda/cmrs_spmv.cu (CUDA build; same symbols)
// Orchestration (checks, allocation) is in storage/cmrs.cpp.
#pragma once
#include "core/array.hpp"
#include "storage/cmrs.hpp"
#include "storage/csr.hpp"

namespace fg::detail {

/// Windows of 32 slots the modified layout gives a strip of `entries` entries whose longest row
/// has `longest` (storage/cmrs.hpp): the least W with 32 W >= entries and 8 W >= longest.
FG_HD inline offset_t cmrs_windows(offset_t entries, offset_t longest) {
  const offset_t a = (entries + cmrs_warp - 1) / cmrs_warp;
  const offset_t b = (longest + cmrs_modified_groups - 1) / cmrs_modified_groups;
  return a > b ? a : b;
}

template <class Space>
struct cmrs_kernels;

#define FG_CMRS_KERNELS(S)                                                                         \
  /* strip_ptr[strips + 1] = where each strip starts (basic: row_ptr[s * height]; modified: the    \
     scan of the padded strip sizes 32 W); returns strip_ptr[strips], the stored slot count */      \
  template <class V>                                                                               \
  static offset_t strip_layout(const csr_view<V>& A, int height, bool modified, offset_t strips,   \
                               offset_t* strip_ptr);                                               \
  /* writes every stored slot: basic: a strip's entries stably sorted by column; modified: the     \
     cyclic window layout, padding slots = cmrs_padding with value 0 */                            \
  template <class V>                                                                               \
  static void fill_strips(const csr_view<V>& A, int height, bool modified, offset_t strips,        \
                          const offset_t* strip_ptr, std::uint32_t* col, stored_t<V>* val);        \
  template <class Sr, class V>                                                                     \
  static void cmrs_spmv(const cmrs_view<V>& A, const typename Sr::value_type* x,                   \
                        typename Sr::value_type* y);

template <>
struct cmrs_kernels<host_space> {
  FG_CMRS_KERNELS(host_space)
};
template <>
struct cmrs_kernels<device_space> {
  FG_CMRS_KERNELS(device_space)
};
#undef FG_CMRS_KERNELS

}  // namespace fg::detail
