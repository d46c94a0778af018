// Kernel interface of CSR-Adaptive (storage/csr_adaptive.hpp). Twins: storage/reference/csr_adaptive.cpp;
// storage/device/csr_adaptive_convert.cpp + csr_adaptive_spmv_portable.cpp (CPU build) or
// storage/cuda/csr_adaptive_spmv.cu (CUDA build).
#pragma once
#include "storage/csr_adaptive.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {

/// Row r in [0, rows] starts a block when r is 0 or rows, when it starts in another block_nnz bucket
/// than row r - 1, or when row r or row r - 1 is long (> block_nnz). Same rule in both twins.
FG_HD inline bool csr_adaptive_boundary(const offset_t* rp, vertex_t rows, offset_t r, offset_t block_nnz) {
  if (r == 0 || r == rows) return true;
  const bool long_prev = rp[r] - rp[r - 1] > block_nnz, long_here = rp[r + 1] - rp[r] > block_nnz;
  return long_prev || long_here || rp[r] / block_nnz != rp[r - 1] / block_nnz;
}

template <class Space>
struct csr_adaptive_kernels;

#define FG_CSR_ADAPTIVE_KERNELS(S)                                                                  \
  /* boundaries into out (rows + 1 slots); returns their count (blocks + 1) */                      \
  static offset_t row_blocks(const offset_t* row_ptr, vertex_t rows, offset_t block_nnz, vertex_t* out); \
  template <class Sr, class V>                                                                      \
  static void spmv(const csr_adaptive_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y);

template <>
struct csr_adaptive_kernels<host_space> {
  FG_CSR_ADAPTIVE_KERNELS(host_space)
};
template <>
struct csr_adaptive_kernels<device_space> {
  FG_CSR_ADAPTIVE_KERNELS(device_space)
};
#undef FG_CSR_ADAPTIVE_KERNELS

}  // namespace fg::detail
