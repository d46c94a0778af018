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

/// One iteration of k personalized PageRanks read together (algorithms/pagerank.hpp): what each
/// vector j adds at its seeds, and whether it is done (converged: kept as it is).
struct ppr_step {
  static constexpr int max_k = max_read_vectors;  ///< storage/dcsr.hpp: the vectors one read takes
  int k = 1;
  double teleport[max_k] = {};      ///< damping * dangling mass + 1 - damping
  std::uint8_t done[max_k] = {};
};

/// Columns of a row-major block picked into a narrower one (personalized PageRank's converged
/// vectors leaving the block): out column i = in column from[i].
struct column_pick {
  int count = 0;
  int from[ppr_step::max_k] = {};
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
  static void to_double(const float* from, double* to, vertex_t n);                              \
  /* k vectors, row-major (entry v * k + j: vertex v in vector j); for each vector j not done:   \
     rank' = damping * y + teleport[j] * seed_w[slot[v] * k + j] (0 where slot[v] < 0), or 1/n   \
     when y is null (the start); scaled = rank' / out_w (0 where out_w = 0). sums (2k entries):   \
     vector j's L1 change at j, its dangling mass at k + j (0 for a vector done) */               \
  static void update_k(const double* y, double* rank, double* scaled, const double* out_w,       \
                       const std::int32_t* slot, const double* seed_w, const ppr_step& step,     \
                       vertex_t n, double damping, double* sums);                                 \
  /* out[r * pick.count + i] = in[r * k + pick.from[i]] for rows r < rows */                     \
  static void pick_columns(const double* in, int k, double* out, const column_pick& pick,        \
                           std::int64_t rows);

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
