// Kernel interface of ADCSR (storage/adcsr.hpp), the FG_STORAGE_KERNELS pattern:
//   adcsr_kernels<host_space>   = storage/reference/adcsr.cpp (sequential twins, the oracle)
//   adcsr_kernels<device_space> = storage/device/adcsr_convert.cpp (Thrust) and
//                                 storage/device/adcsr_spmv_portable.cpp | storage/cuda/adcsr_spmv.cu
// The twins must bin identically: the permutation is a stable sort on the bin label in both.
#pragma once
#include "core/array.hpp"
#include "storage/adcsr.hpp"
#include "storage/csr.hpp"

namespace fg::detail {

template <class Space>
struct adcsr_kernels;

#define FG_ADCSR_KERNELS(S)                                                                          \
  /* perm = 0..rows-1 stably sorted by adcsr_bin(row length); bin_ptr (host, adcsr_bins + 1         \
     entries) = where each bin starts in perm */                                                     \
  static void adcsr_bin_rows(const offset_t* row_ptr, vertex_t rows, vertex_t* perm, vertex_t* bin_ptr); \
  /* the rows of A copied in perm order: row k of the result is row perm[k] of A (prow_ptr: rows + 1) */ \
  template <class V>                                                                                 \
  static void adcsr_reorder(const csr_view<V>& A, const vertex_t* perm, offset_t* prow_ptr, vertex_t* pcol, \
                            stored_t<V>* pval);                                                      \
  /* y[r] = row r . x, each bin's rows by its own kernel */                                          \
  template <class Sr, class V>                                                                       \
  static void adcsr_spmv(const adcsr_view<V>& A, const typename Sr::value_type* x,                  \
                         typename Sr::value_type* y);

template <>
struct adcsr_kernels<host_space> {
  FG_ADCSR_KERNELS(host_space)
};
template <>
struct adcsr_kernels<device_space> {
  FG_ADCSR_KERNELS(device_space)
};
#undef FG_ADCSR_KERNELS

}  // namespace fg::detail
