// The one CFL step that is not an SpMM (algorithms/cfl.hpp, fused indexed rules): an entry (r, c) of
// T'·ΔX, whose row r is a port of index tag[r], moves to the column "u's port (c, tag[r])" when that
// port exists, and is dropped otherwise. Twins: algorithms/reference/cfl_retag.cpp (a loop),
// algorithms/device/cfl_retag.cpp (Thrust: OpenMP or CUDA).
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "storage/coo.hpp"

namespace fg::detail {

/// The port key of (column c, index k): sorted by index, then column.
FG_HD inline std::int64_t port_key(std::int64_t k, std::int64_t c) { return (k << 32) | c; }

template <class Space>
struct cfl_kernels;

// One explicit specialization per twin (as the other kernel interfaces), defined in its own file.
#define FG_CFL_KERNELS(Space)                                                                               \
  template <>                                                                                               \
  struct cfl_kernels<Space> {                                                                               \
    /* Keeps entry j of `in` when port_key(tag[row[j]], col[j]) is among `keys` (sorted, distinct) and */   \
    /* replaces its column by that key's position; entries keep their order. */                             \
    static coo_matrix<pattern, Space> retag(const coo_matrix<pattern, Space>& in, const array<vertex_t, Space>& tag, \
                                            const array<std::int64_t, Space>& keys);                        \
  };
FG_CFL_KERNELS(host_space)
FG_CFL_KERNELS(device_space)
#undef FG_CFL_KERNELS

}  // namespace fg::detail
