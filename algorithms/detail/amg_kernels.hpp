// Vector kernels of the multigrid V-cycle (algorithms/amg.hpp); the SpMVs are CSR's. Twins:
//   amg_kernels<host_space>   algorithms/reference/amg_step.cpp
//   amg_kernels<device_space> algorithms/device/amg_step.cpp (OpenMP or CUDA)
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "core/types.hpp"

namespace fg::detail {

template <class Space>
struct amg_kernels;

#define FG_AMG_KERNELS                                                                                    \
  /* weighted Jacobi: x += w dinv (b - q), q = A x */                                                     \
  static void smooth(double* x, const double* b, const double* q, const double* dinv, double w, std::int64_t n); \
  /* r = b - q */                                                                                         \
  static void residual(const double* b, const double* q, double* r, std::int64_t n);                      \
  /* x += y */                                                                                            \
  static void add(double* x, const double* y, std::int64_t n);

template <>
struct amg_kernels<host_space> {
  FG_AMG_KERNELS
};
template <>
struct amg_kernels<device_space> {
  FG_AMG_KERNELS
};
#undef FG_AMG_KERNELS

}  // namespace fg::detail
