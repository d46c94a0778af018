// The sparse exchange of x for a distributed SpMV (issue 24's question; docs/distributed.md): each
// rank receives only the entries its rows name that other ranks own, instead of every other rank's
// entries (the all-gather). Measured by `bench dist`: on rmat-22/24 at P = 2 a rank's rows name a
// third of the others' vertices, on cnr-2000 a twentieth. The plan (which entries go from whom to
// whom) is built collectively once per batch count and vertex count: each rank marks the columns its
// rows name and sends the owners their ids (one all-to-all, host buffers). Each exchange is then a
// pack and one all-to-all of values (device buffers: NCCL or MPI), read by the split rows
// (distributed/dist_split.hpp) in the order received.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/array.hpp"
#include "core/types.hpp"

namespace fg {

template <class V, class Space>
class dist_graph;

/// How x reaches the rows: the all-gather, the sparse exchange, or (auto) the sparse exchange
/// where the busiest rank would receive less than sparse_share_limit of what the all-gather brings.
enum class x_exchange_mode { automatic, all_gather, sparse };
constexpr double sparse_share_limit = 0.7;
std::string to_string(x_exchange_mode m);

template <class Space>
struct x_exchange_plan {
  std::int64_t batches = -1;  ///< the graph's batch count and vertex count it was built for
  std::int64_t n = -1;
  x_exchange_mode mode = x_exchange_mode::automatic;
  std::vector<std::int64_t> send_counts, recv_counts;  ///< values to and from each rank
  array<vertex_t, Space> send_local;   ///< local ids of the entries this rank sends, by destination rank
  array<vertex_t, Space> recv_global;  ///< global ids of the entries it receives, by source rank
  array<vertex_t, Space> own_global;   ///< the global id of each of its own vertices
  double share = 1.0;   ///< the busiest rank's received entries over its all-gather's (every rank alike)
  bool sparse = false;  ///< the exchange in use (every rank alike)
};

/// @brief Collective: the plan for A as it is now (dist_graph::exchange_plan keeps one;
///        start_x_exchange and the split rows in distributed/dist_graph.hpp use it).
template <class V, class Space>
x_exchange_plan<Space> plan_exchange(const dist_graph<V, Space>& A, x_exchange_mode mode);

}  // namespace fg
