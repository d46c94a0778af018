// The split rows of distributed/dist_split.hpp: the local store's entries, their columns renumbered into
// local ids and received positions, parted by the renumbered id (stable) and built as two stores.
#include "distributed/dist_split.hpp"

#include <limits>
#include <numeric>

#include "distributed/detail/dist_kernels.hpp"
#include "distributed/dist_graph.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/spmm_kernels.hpp"

namespace fg {

namespace {
// The entries of `all` whose key is below (or not below) `bound`, as a store of rows x cols: columns
// from the key (less bound for the upper part), values and rows kept.
template <class V, class S>
dcsr_matrix<V, S> part(const coo_matrix<V, S>& all, const array<vertex_t, S>& key, vertex_t bound, std::int64_t count,
                       bool lower, vertex_t rows, vertex_t cols) {
  using K = detail::dist_kernels<S>;
  const std::int64_t nnz = std::int64_t(all.nnz);
  array<vertex_t, S> row(static_cast<std::size_t>(count));
  csr_matrix<V, S> c;
  c.rows = rows, c.cols = cols;
  c.col = array<vertex_t, S>(static_cast<std::size_t>(count));
  K::select(key.data(), nnz, bound, lower, all.row.data(), row.data());
  K::select(key.data(), nnz, bound, lower, key.data(), c.col.data());
  if (!lower) K::shift(c.col.data(), count, -bound);
  if constexpr (!is_pattern_v<V>) {
    c.val = array<stored_t<V>, S>(static_cast<std::size_t>(count));
    K::select(key.data(), nnz, bound, lower, all.val.data(), c.val.data());
  }
  c.row_ptr = array<offset_t, S>(static_cast<std::size_t>(rows) + 1);
  detail::spmm_kernels<S>::row_offsets(row.data(), std::size_t(count), rows, c.row_ptr.data());
  // The entries are distinct already (the store's): accumulate skips the duplicate check's edge
  // set; the remote part is not square (rows x received entries).
  dcsr_config cfg;
  cfg.dups = duplicates::accumulate;
  cfg.square = false;
  cfg.index = edge_index::never;
  return dcsr_matrix<V, S>::from_csr(std::move(c), cfg);
}
}  // namespace

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
  // Parted stably: the snapshot's entries are in row order, so each part is too, and its row
  // offsets come from a search of its rows (no sort; a store's rows need not be in column order,
  // and the remote part's columns, numbered by owner then id, are not).
  const std::int64_t below = K::count_below(key.data(), nnz, nl);
  out.own = part<V, S>(all, key, nl, below, true, nl, nl);
  out.remote = part<V, S>(all, key, nl, nnz - below, false, nl, vertex_t(in));
  return out;
}

#define FG_INSTANTIATE_IN(V, S) template dist_split_rows<V, S> split_rows(const dist_graph<V, S>&);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

}  // namespace fg
