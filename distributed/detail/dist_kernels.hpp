// Vector and routing kernels of the distributed store (distributed/dist_graph.hpp). Twins:
//   dist_kernels<host_space>   distributed/reference/dist_vectors.cpp, dist_route.cpp
//   dist_kernels<device_space> distributed/device/dist_vectors.cpp, dist_route.cpp (OpenMP or CUDA)
#pragma once
#include <cstdint>
#include <vector>

#include "core/array.hpp"
#include "distributed/dist_partition.hpp"

namespace fg::detail {

/// What a batch's check finds (dist_kernels::check_batch).
struct batch_check {
  std::int64_t first_bad = INT64_MAX;  ///< the first bad edge's index; INT64_MAX: none
  int reason = 0;                      ///< 1: a negative id, 2: a weight NaN or infinite
  std::int64_t top = -1;               ///< the largest id (-1: no edge)
};

template <class Space>
struct dist_kernels;

#define FG_DIST_KERNELS                                                                           \
  /* full[v] = gathered[offset[owner(v)] + local(v)] for v < n: every rank's entries, allgathered \
     in rank order, put back in global order (offset: parts + 1 entries, in device memory) */    \
  template <class T>                                                                              \
  static void spread(const partition_view& p, const std::int64_t* offset, const T* gathered, vertex_t n, T* full); \
  /* the sparse exchange of x (distributed/dist_exchange.hpp): out[i] = in[index[i]] for i < count */  \
  template <class T>                                                                              \
  static void gather(const vertex_t* index, std::int64_t count, const T* in, T* out);           \
  /* named[col[j]] = 1 for j < count: the columns a rank's rows name */                          \
  static void mark(const vertex_t* col, std::int64_t count, std::uint8_t* named);                \
  /* out[index[i]] = first + i for i < count: ids numbered in the order index lists them */      \
  static void number(const vertex_t* index, std::int64_t count, vertex_t first, vertex_t* out);  \
  /* out = the in[i] whose key[i] < bound (lower) or >= bound (!lower), in order (the split rows \
     of distributed/dist_split.hpp) */                                                                 \
  template <class T>                                                                              \
  static void select(const vertex_t* key, std::int64_t count, vertex_t bound, bool lower, const T* in, T* out); \
  /* how many key[i] < bound */                                                                   \
  static std::int64_t count_below(const vertex_t* key, std::int64_t count, vertex_t bound);       \
  /* a batch part's edges (a[i], b[i], weight[i]; weight may be null) checked in one pass */      \
  static batch_check check_batch(const vertex_t* a, const vertex_t* b, const double* weight, std::int64_t n); \
  /* owner[i] = p.owner(row[i]), key[i] = p.local(row[i]) << 32 | col[i]: the routing keys */      \
  static void route_keys(const partition_view& p, const vertex_t* row, const vertex_t* col, std::int64_t n, \
                         int* owner, std::int64_t* key);                                          \
  /* key (and weight, unless null) stably ordered by owner in place; returns how many edges each \
     of the parts owners has (host) */                                                            \
  static std::vector<std::int64_t> order_by_owner(int* owner, std::int64_t* key, double* weight, std::int64_t n, \
                                                  int parts);                                      \
  /* row[i] = key[i] >> 32, col[i] = the key's low 32 bits */                                     \
  static void unpack(const std::int64_t* key, std::int64_t n, vertex_t* row, vertex_t* col);      \
  /* out[i] = T(weight[i]), or T(1) where weight is null */                                      \
  template <class T>                                                                              \
  static void weights(const double* weight, std::int64_t n, T* out);                              \
  /* v[i] += delta for i < count */                                                               \
  static void shift(vertex_t* v, std::int64_t count, vertex_t delta);                             \
  /* y[i] = Sr::add(y[i], part[i]) for i < n: the remote columns' products joined to the own */   \
  template <class Sr>                                                                             \
  static void join(const typename Sr::value_type* part, std::int64_t n, typename Sr::value_type* y);

template <>
struct dist_kernels<host_space> {
  FG_DIST_KERNELS
};
template <>
struct dist_kernels<device_space> {
  FG_DIST_KERNELS
};
#undef FG_DIST_KERNELS

#define FG_FOR_EACH_DIST_VECTOR(X) X(float) X(double) X(std::uint8_t)
#define FG_FOR_EACH_DIST_SEMIRING(X) \
  X(::fg::plus_times<float>) X(::fg::plus_times<double>) X(::fg::min_plus<float>) X(::fg::min_plus<double>) X(::fg::or_and)

}  // namespace fg::detail
