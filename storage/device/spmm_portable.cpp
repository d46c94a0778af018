// Portable multiply_rows (CPU build: Thrust on OpenMP): every row of the slice takes the global path
// (expand, sort by (row, column), reduce by key, mask), through the same workspace and gather as the
// CUDA build's binned kernels (storage/cuda/spmm_binned.cu), so CI runs those pieces too.
// Reference twin: storage/reference/spmm.cpp.
#include "storage/detail/spmm_kernels.hpp"
#include "storage/device/spmm_device.hpp"

namespace fg::detail {
using K = spmm_kernels<device_space>;

template <class Sr, class V>
coo_matrix<spmm_value_t<Sr, V>, device_space> K::multiply_rows(const spmm_operand<V>& A, const spmm_operand<V>& B,
                                                               const spmm_operand<pattern>* M, vertex_t r0,
                                                               vertex_t r1, const offset_t* ptr, offset_t base,
                                                               offset_t products) {
  using VC = spmm_value_t<Sr, V>;
  array<vertex_t, device_space> ws_col(static_cast<std::size_t>(products));
  array<stored_t<VC>, device_space> ws_val(is_pattern_v<VC> ? 0 : static_cast<std::size_t>(products));
  array<offset_t, device_space> count(std::size_t(r1 - r0) + 1);
  fill_zero(count);  // the last entry stays 0 for gather
  spmm_device::global_rows<Sr>(A, B, M, nullptr, std::int64_t(r1) - r0, r0, ptr, base, ws_col.data(), ws_val.data(),
                               count.data());
  return spmm_device::gather<VC>(r0, r1, ptr, base, ws_col.data(), ws_val.data(), count.data());
}

FG_FOR_EACH_SPMM(FG_SPMM_MULTIPLY_DEVICE)

}  // namespace fg::detail
