// Vector kernels of one PageRank iteration; the SpMV itself is the store's. Twins:
//   pagerank_kernels<host_space>   algorithms/reference/pagerank_step.cpp
//   pagerank_kernels<device_space> algorithms/device/pagerank_step.cpp (OpenMP or CUDA)
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "storage/dcsr.hpp"

namespace fg::detail {

struct pagerank_sums {
  double change = 0;    ///< L1 distance between the old and new score vectors
  double dangling = 0;  ///< score mass on vertices without out-edges (new vector)
};

template <class Space>
struct pagerank_kernels;

#define FG_PAGERANK_KERNELS                                                                      \
  /* out[u] = sum of the entries in column u of the in-edge store (u's out-weight) */            \
  template <class V>                                                                             \
  static void out_weights(const dcsr_view<V>& At, double* out, vertex_t n);                      \
  /* out[u] = deg[u]: the out-weights of an unweighted graph from its out-degrees */             \
  static void from_degrees(const vertex_t* deg, double* out, vertex_t n);                        \
  /* rank = 1/n; scaled = rank / out_w (0 where out_w = 0); returns the dangling mass */         \
  static double init(double* rank, double* scaled, const double* out_w, vertex_t n);             \
  /* rank given (a warm start): scaled = rank / out_w (0 where out_w = 0); returns dangling */  \
  static double resume(const double* rank, double* scaled, const double* out_w, vertex_t n);     \
  /* rank' = damping * y + base; scaled = rank' / out_w, into scaled32 (float) when it is not   \
     null, else into scaled; returns L1 change and dangling mass */                              \
  static pagerank_sums update(const double* y, double* rank, double* scaled, float* scaled32,     \
                              const double* out_w, vertex_t n, double damping, double base);     \
  /* to[i] = from[i], rounded to float / widened to double (x moving between read precisions) */ \
  static void to_float(const double* from, float* to, vertex_t n);                               \
  static void to_double(const float* from, double* to, vertex_t n);

template <>
struct pagerank_kernels<host_space> {
  FG_PAGERANK_KERNELS
};
template <>
struct pagerank_kernels<device_space> {
  FG_PAGERANK_KERNELS
};
#undef FG_PAGERANK_KERNELS

}  // namespace fg::detail
