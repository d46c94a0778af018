// Kernel interface of CSR-scalar SpMV (storage/csr_scalar.hpp), the FG_STORAGE_KERNELS pattern:
//   csr_scalar_kernels<host_space>   = storage/reference/csr_scalar.cpp (sequential twin)
//   csr_scalar_kernels<device_space> = storage/device/csr_scalar_spmv_portable.cpp (CPU build) |
//                                      storage/cuda/csr_scalar_spmv.cu (CUDA build)
#pragma once
#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg::detail {

template <class Space>
struct csr_scalar_kernels;

#define FG_CSR_SCALAR_KERNELS(S)                                                       \
  template <class Sr, class V>                                                         \
  static void csr_scalar_spmv(const csr_view<V>& A, const typename Sr::value_type* x,  \
                              typename Sr::value_type* y);

template <>
struct csr_scalar_kernels<host_space> {
  FG_CSR_SCALAR_KERNELS(host_space)
};
template <>
struct csr_scalar_kernels<device_space> {
  FG_CSR_SCALAR_KERNELS(device_space)
};
#undef FG_CSR_SCALAR_KERNELS

}  // namespace fg::detail
