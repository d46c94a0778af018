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
  static void spread(const partition_view& p, const std::int64_t* offset, const T* gathered, vertex_t n, T* full);

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
