// Vector kernels of conjugate gradient (algorithms/cg.hpp); the SpMV is the matrix format's. Each
// fuses what one CG step reads, so an iteration passes over the vectors three times besides the
// SpMV. Sums are accumulated in double, also for float vectors. Twins:
//   cg_kernels<host_space>   algorithms/reference/cg_step.cpp
//   cg_kernels<device_space> algorithms/device/cg_step.cpp (OpenMP or CUDA)
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "core/types.hpp"

namespace fg::detail {

template <class Space>
struct cg_kernels;

#define FG_CG_KERNELS                                                                        \
  /* r = b - q; p = r; returns r.r */                                                        \
  template <class T>                                                                         \
  static double residual(const T* b, const T* q, T* r, T* p, std::int64_t n);                \
  /* returns a.b */                                                                          \
  template <class T>                                                                         \
  static double dot(const T* a, const T* b, std::int64_t n);                                 \
  /* x += alpha p; r -= alpha q; returns r.r */                                              \
  template <class T>                                                                         \
  static double update_xr(T* x, T* r, const T* p, const T* q, double alpha, std::int64_t n); \
  /* p = r + beta p */                                                                       \
  template <class T>                                                                         \
  static void update_p(T* p, const T* r, double beta, std::int64_t n);

template <>
struct cg_kernels<host_space> {
  FG_CG_KERNELS
};
template <>
struct cg_kernels<device_space> {
  FG_CG_KERNELS
};
#undef FG_CG_KERNELS

// The float and double instantiations of one twin's kernels (K: its cg_kernels<Space>).
#define FG_CG_KERNELS_OF(K, T)                                                            \
  template double K::residual<T>(const T*, const T*, T*, T*, std::int64_t);             \
  template double K::dot<T>(const T*, const T*, std::int64_t);                          \
  template double K::update_xr<T>(T*, T*, const T*, const T*, double, std::int64_t);    \
  template void K::update_p<T>(T*, const T*, double, std::int64_t);
#define FG_CG_KERNELS_INSTANTIATE(K) FG_CG_KERNELS_OF(K, float) FG_CG_KERNELS_OF(K, double)

}  // namespace fg::detail
