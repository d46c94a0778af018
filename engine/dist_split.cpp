// The split rows of engine/dist_split.hpp: the local store's entries, their columns renumbered into
// local ids and received positions, parted by the renumbered id (stable) and built as two stores.
#include "engine/dist_split.hpp"

#include <limits>
#include <numeric>

#include "engine/detail/dist_kernels.hpp"
#include "engine/dist_graph.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

template <class V, class S>
dist_split_rows<V, S> split_rows(const dist_graph<V, S>& A) {
  using K = detail::dist_kernels<S>;
  const x_exchange_plan<S>& plan = A.exchange_plan();
  const vertex_t nl = A.local_vertices();
  const std::int64_t in = std::accumulate(plan.recv_counts.begin(), plan.recv_counts.end(), std::int64_t(0));
  FG_EXPECTS(std::int64_t(nl) + in <= std::int64_t(std::numeric_limits<vertex_t>::max()),
             "split_rows: local and received entries overflow vertex_t");
  dist_split_rows<V, S> out;
  out.batches = plan.batches, out.n = plan.n;
  // Global column -> compact id: own vertices 0..nl, received entries nl.. in the plan's order.
  // Columns no row here names keep no id (never read).
  array<vertex_t, S> id(static_cast<std::size_t>(A.num_vertices()));
  K::number(plan.own_global.data(), nl, 0, id.data());
  K::number(plan.recv_global.data(), in, nl, id.data());
  const coo_matrix<V, S> all = A.local().to_coo();
  const std::int64_t nnz = std::int64_t(all.nnz);
  array<vertex_t, S> key(all.nnz);
  K::gather(all.col.data(), nnz, id.data(), key.data());
  id = {};
  // Parted in the store's entry order, so each row's entries keep their order (sums in the order
  // one rank's would add them, part by part).
  std::int64_t below = 0;
  {
    coo_matrix<V, S> own(all.nnz), remote(all.nnz);  // sized for either extreme, trimmed by from_coo
    below = K::split(key.data(), nnz, nl, all.row.data(), own.row.data(), remote.row.data());
    K::split(key.data(), nnz, nl, key.data(), own.col.data(), remote.col.data());
    if constexpr (!is_pattern_v<V>) K::split(key.data(), nnz, nl, all.val.data(), own.val.data(), remote.val.data());
    K::shift(remote.col.data(), nnz - below, -nl);
    own.nnz = std::size_t(below), remote.nnz = std::size_t(nnz - below);
    // The entries are distinct already (the store's); accumulate skips the duplicate check's
    // edge set, and the remote part is not square (rows x received entries).
    dcsr_config cfg;
    cfg.dups = duplicates::accumulate;
    cfg.square = false;
    cfg.index = edge_index::never;
    out.own = dcsr_matrix<V, S>::from_coo(own, nl, nl, cfg);
    out.remote = dcsr_matrix<V, S>::from_coo(remote, nl, vertex_t(in), cfg);
  }
  return out;
}

#define FG_INSTANTIATE_IN(V, S) template dist_split_rows<V, S> split_rows(const dist_graph<V, S>&);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

}  // namespace fg
