// A rank's rows split by who owns their columns, for the sparse exchange (docs/distributed.md,
// "Reading x"). `own` holds the entries whose columns this rank owns, numbered by local id
// (0..local_vertices), `remote` the others, numbered by their position among the entries the
// exchange plan receives (0..received). So
//     y = own · x_local  ⊕  remote · received
// and the first product needs nothing from another rank: it runs while the exchange is in flight
// (on NCCL), and each product gathers from a vector of local_vertices or `received` entries instead
// of one of n (on rmat-24 at P = 2: 8.4 M and 3.0 M instead of 16.8 M). PETSc's MPIAIJ splits a
// rank's rows the same way (its diagonal and off-diagonal blocks).
#pragma once
#include <cstdint>

#include "storage/dcsr.hpp"

namespace fg {

template <class V, class Space>
class dist_graph;

template <class V, class Space>
struct dist_split_rows {
  std::int64_t batches = -1;  ///< the graph's batch count and vertex count it was built for
  std::int64_t n = -1;
  dcsr_matrix<V, Space> own;     ///< local rows x local columns
  dcsr_matrix<V, Space> remote;  ///< local rows x the exchange's received entries, in its order
};

/// @brief Collective (it may build A's exchange plan): A's rows split by column owner, by the plan
///        A has now. dist_graph::split_rows keeps one per batch.
template <class V, class Space>
dist_split_rows<V, Space> split_rows(const dist_graph<V, Space>& A);

}  // namespace fg
