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
  r.wedges_checked = d.edges();
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

#define FG_TRIANGLES(V, S)                                                   \
  template triangle_result triangles<V, S>(const dcsr_matrix<V, S>&, bool); \
  template lcc_result lcc<V, S>(const dcsr_matrix<V, S>&);
FG_TRIANGLES(pattern, host_space)
FG_TRIANGLES(pattern, device_space)
FG_TRIANGLES(double, host_space)
FG_TRIANGLES(double, device_space)
#undef FG_TRIANGLES

}  // namespace fg
