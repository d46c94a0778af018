// Triangle count and LCC orchestration (algorithms/triangles.hpp) on app_kernels' DAG and merge.
#include "algorithms/triangles.hpp"

#include <chrono>

#include "algorithms/detail/app_kernels.hpp"

namespace fg {

namespace {
template <class V, class S>
detail::simple_dag<S> dag_of(const dcsr_matrix<V, S>& g) {
  const coo_matrix<V, S> c = g.to_coo();
  return detail::app_kernels<S>::dag(c.row.data(), c.col.data(), c.nnz, g.rows());
}
double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

template <class V, class S>
triangle_result triangles(const dcsr_matrix<V, S>& g, bool per_vertex) {
  const auto t0 = std::chrono::steady_clock::now();
  const detail::simple_dag<S> d = dag_of(g);
  triangle_result r;
  array<std::int64_t, S> pv(per_vertex ? std::size_t(g.rows()) : 0);
  r.total = detail::app_kernels<S>::triangles(d, per_vertex ? pv.data() : nullptr, false);
  r.seconds = since(t0);
  if (per_vertex) r.per_vertex = to_vector(pv);
  return r;
}

template <class V, class S>
lcc_result lcc(const dcsr_matrix<V, S>& g) {
  const auto t0 = std::chrono::steady_clock::now();
  const detail::simple_dag<S> d = dag_of(g);
  array<std::int64_t, S> links(static_cast<std::size_t>(g.rows()));
  detail::app_kernels<S>::triangles(d, links.data(), true);
  const std::vector<std::int64_t> num = to_vector(links);
  const std::vector<vertex_t> deg = to_vector(d.deg);
  lcc_result r;
  r.lcc.resize(num.size());
  for (std::size_t v = 0; v < num.size(); ++v) {
    const double k = deg[v];
    r.lcc[v] = k < 2 ? 0.0 : double(num[v]) / (k * (k - 1));
  }
  r.seconds = since(t0);
  return r;
}

template <class S>
template <class V>
void incremental_triangles<S>::update(const dcsr_matrix<V, S>& out, const dcsr_view<pattern>* in,
                                      const edge_batch<S>& inserted, const edge_batch<S>& deleted) {
  using K = detail::app_kernels<S>;
  const vertex_t n = out.rows();
  added_ = removed_ = 0;
  if (!started_) {  // (started_ is set only once U_ and the counts agree: an exception starts over)
    const coo_matrix<V, S> c = out.to_coo();
    const array<std::uint64_t, S> keys = K::canonical_keys(c.row.data(), c.col.data(), c.nnz);
    dcsr_config cfg;
    cfg.dups = duplicates::collapse;
    U_ = dcsr_matrix<pattern, S>::from_coo(K::symmetric_pairs(keys.data(), keys.size()), n, n, cfg);
    const triangle_result t = triangles(U_, want_per_vertex_);
    total_ = t.total;
    if (want_per_vertex_) pv_ = to_space<S>(t.per_vertex);
    started_ = true;
    return;
  }
  if (U_.rows() < n) U_.resize(n, n);
  if (want_per_vertex_ && pv_.size() < std::size_t(n)) {
    const std::size_t had = pv_.size();
    pv_ = grown(pv_, std::size_t(n));
    zero(pv_, had);
  }
  std::int64_t* pv = want_per_vertex_ ? pv_.data() : nullptr;
  started_ = false;  // U_ and the counts change step by step below
  const dcsr_view<pattern> ov = detail::pattern_view(out.view());
  // keys.select(those the store g holds == want)
  auto keep = [](array<std::uint64_t, S>& keys, const dcsr_view<pattern>& g, bool want) {
    array<std::uint8_t, S> found(keys.size());
    K::contains(g, keys.data(), keys.size(), found.data());
    keys = K::select(keys.data(), found.data(), keys.size(), want);
  };
  const dcsr_view<pattern> before = U_.view();
  // gone: in U, and neither direction left in the store ((v, u) in out is (u, v) in the in-edges)
  array<std::uint64_t, S> gone = K::canonical_keys(deleted.u.data(), deleted.v.data(), deleted.size());
  if (gone.size() > 0) {
    keep(gone, before, true);
    keep(gone, ov, false);
    if (in) keep(gone, *in, false);
  }
  array<std::uint64_t, S> fresh = K::canonical_keys(inserted.u.data(), inserted.v.data(), inserted.size());
  if (fresh.size() > 0) keep(fresh, before, false);
  total_ -= K::closing(before, gone.data(), gone.size(), true, pv);
  if (gone.size() > 0) U_.delete_batch(K::symmetric_pairs(gone.data(), gone.size()));
  if (fresh.size() > 0) U_.insert_batch(K::symmetric_pairs(fresh.data(), fresh.size()));
  total_ += K::closing(U_.view(), fresh.data(), fresh.size(), false, pv);
  added_ = std::int64_t(fresh.size()), removed_ = std::int64_t(gone.size());
  started_ = true;
}

template <class S>
std::vector<std::int64_t> incremental_triangles<S>::per_vertex() const {
  return to_vector(pv_);
}

#define FG_TRIANGLES(V, S)                                                   \
  template triangle_result triangles<V, S>(const dcsr_matrix<V, S>&, bool); \
  template lcc_result lcc<V, S>(const dcsr_matrix<V, S>&);                   \
  template void incremental_triangles<S>::update<V>(const dcsr_matrix<V, S>&, const dcsr_view<pattern>*, \
                                                    const edge_batch<S>&, const edge_batch<S>&);
FG_TRIANGLES(pattern, host_space)
FG_TRIANGLES(pattern, device_space)
FG_TRIANGLES(double, host_space)
FG_TRIANGLES(double, device_space)
#undef FG_TRIANGLES
template class incremental_triangles<host_space>;
template class incremental_triangles<device_space>;

}  // namespace fg
