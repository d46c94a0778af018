// The sparse exchange's plan (distributed/dist_exchange.hpp); the exchange itself is start_x_exchange
// (distributed/dist_graph.cpp). The mark kernel is the distributed store's (distributed/detail/dist_kernels.hpp).
#include "distributed/dist_exchange.hpp"

#include "distributed/detail/dist_kernels.hpp"
#include "distributed/dist_graph.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

std::string to_string(x_exchange_mode m) {
  return m == x_exchange_mode::sparse ? "sparse" : m == x_exchange_mode::all_gather ? "allgather" : "auto";
}

template <class V, class S>
x_exchange_plan<S> plan_exchange(const dist_graph<V, S>& A, x_exchange_mode mode) {
  communicator& c = A.comm();
  const int me = c.rank(), parts = c.size();
  const vertex_t n = A.num_vertices(), nl = A.local_vertices();
  const row_partition& p = A.partition();
  x_exchange_plan<S> plan;
  plan.batches = A.batches(), plan.n = n, plan.mode = mode;
  std::vector<vertex_t> own(static_cast<std::size_t>(nl));
  for (vertex_t l = 0; l < nl; ++l) own[std::size_t(l)] = p.global(me, l);
  plan.own_global = to_space<S>(own);
  // The columns this rank's rows name, marked on the device; the other ranks' among them asked
  // of their owners, in rank order.
  array<std::uint8_t, S> named(static_cast<std::size_t>(n));
  fill_zero(named);
  {
    const coo_matrix<V, S> coo = A.local().to_coo();
    detail::dist_kernels<S>::mark(coo.col.data(), std::int64_t(coo.nnz), named.data());
  }
  const std::vector<std::uint8_t> flags = to_vector(named);
  std::vector<std::vector<vertex_t>> want(static_cast<std::size_t>(parts));
  for (vertex_t v = 0; v < n; ++v)
    if (flags[std::size_t(v)] && p.owner(v) != me) want[std::size_t(p.owner(v))].push_back(v);
  std::vector<std::int64_t> recv_counts(static_cast<std::size_t>(parts));
  std::vector<vertex_t> requests;
  for (int r = 0; r < parts; ++r) {
    recv_counts[std::size_t(r)] = std::int64_t(want[std::size_t(r)].size());
    requests.insert(requests.end(), want[std::size_t(r)].begin(), want[std::size_t(r)].end());
  }
  plan.send_counts = c.exchange_counts(recv_counts);
  plan.recv_counts = recv_counts;
  std::vector<vertex_t> asked = exchange(c, requests, recv_counts, plan.send_counts);  // what the others need of mine
  for (vertex_t& v : asked) v = p.local(v);
  plan.send_local = to_space<S>(asked);
  plan.recv_global = to_space<S>(requests);
  double most[2] = {double(requests.size()), double(n - nl)};
  c.allreduce(&most[0], 1, comm_op::max);
  c.allreduce(&most[1], 1, comm_op::max);
  plan.share = most[1] > 0 ? most[0] / most[1] : 0.0;
  plan.sparse = mode == x_exchange_mode::sparse || (mode == x_exchange_mode::automatic && plan.share < sparse_share_limit);
  return plan;
}

#define FG_INSTANTIATE_IN(V, S) template x_exchange_plan<S> plan_exchange(const dist_graph<V, S>&, x_exchange_mode);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN
}  // namespace fg
