// Vector kernels of the distributed store (engine/dist_graph.hpp). Twins:
//   dist_kernels<host_space>   engine/reference/dist_vectors.cpp
//   dist_kernels<device_space> engine/device/dist_vectors.cpp (OpenMP or CUDA)
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "engine/dist_partition.hpp"

namespace fg::detail {

template <class Space>
struct dist_kernels;

#define FG_DIST_KERNELS                                                                           \
  /* full[v] = gathered[offset[owner(v)] + local(v)] for v < n: every rank's entries, allgathered \
     in rank order, put back in global order (offset: parts + 1 entries, in device memory) */    \
  template <class T>                                                                              \
  static void spread(const partition_view& p, const std::int64_t* offset, const T* gathered, vertex_t n, T* full); \
  /* the sparse exchange of x (engine/dist_exchange.hpp): out[i] = in[index[i]] for i < count */  \
  template <class T>                                                                              \
  static void gather(const vertex_t* index, std::int64_t count, const T* in, T* out);           \
  /* out[index[i]] = in[i] for i < count (the indices distinct) */                               \
  template <class T>                                                                              \
  static void scatter(const vertex_t* index, std::int64_t count, const T* in, T* out);          \
  /* named[col[j]] = 1 for j < count: the columns a rank's rows name */                          \
  static void mark(const vertex_t* col, std::int64_t count, std::uint8_t* named);

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

}  // namespace fg::detail
