// fluxgraph::graph's graph applications (docs/graph-apps.md): the engine's algorithms on the store,
// their results in the public types.
#include <cmath>

#include "algorithms/cdlp.hpp"
#include "algorithms/components.hpp"
#include "algorithms/traversal.hpp"
#include "algorithms/triangles.hpp"
#include "api/store.hpp"

namespace fluxgraph::api {

namespace {
fg::vertex_t checked_source(vertex_id s, vertex_id n, const char* what) {
  if (s < 0 || s >= n)
    throw invalid_argument(std::string(what) + ": source vertex " + std::to_string(s) + " is not in [0, " +
                           std::to_string(n) + ")");
  return fg::vertex_t(s);
}
std::vector<std::int64_t> widened(const std::vector<fg::vertex_t>& v) { return {v.begin(), v.end()}; }
}  // namespace

template <class V, class S>
bfs_result store<V, S>::bfs(vertex_id source) {
  const fg::vertex_t s = checked_source(source, vertices(), "bfs");
  const fg::dcsr_view<fg::pattern> in = in_pattern().view();
  fg::bfs_result r = fg::bfs(g_.store(), &in, false, s);
  return {std::move(r.level), r.depth, r.reached, r.edges, r.push_steps, r.pull_steps, r.seconds};
}

template <class V, class S>
sssp_result store<V, S>::sssp(vertex_id source, double delta) const {
  const fg::vertex_t s = checked_source(source, vertices(), "sssp");
  if (!(delta >= 0) || !std::isfinite(delta)) throw invalid_argument("sssp: delta must be >= 0 and finite");
  fg::sssp_options o;
  o.delta = delta;
  fg::sssp_result r = fg::sssp(g_.store(), s, o);
  return {std::move(r.dist), r.reached, r.edges, r.delta, r.seconds};
}

template <class V, class S>
wcc_result store<V, S>::wcc() const {
  const fg::wcc_result r = fg::wcc(g_.store());
  return {widened(r.label), r.components, r.seconds};
}

template <class V, class S>
cdlp_result store<V, S>::cdlp(int iterations) const {
  if (iterations < 0) throw invalid_argument("cdlp: iterations must be >= 0");
  const fg::cdlp_result r = fg::cdlp(g_.store(), iterations);
  return {widened(r.label), r.iterations, r.seconds};
}

template <class V, class S>
lcc_result store<V, S>::lcc() const {
  fg::lcc_result r = fg::lcc(g_.store());
  return {std::move(r.lcc), r.seconds};
}

template <class V, class S>
triangle_result store<V, S>::triangles(bool per_vertex) const {
  fg::triangle_result r = fg::triangles(g_.store(), per_vertex);
  return {r.total, std::move(r.per_vertex), r.seconds};
}

#define FG_INSTANTIATE(V, S)                                                 \
  template bfs_result store<V, S>::bfs(vertex_id);                           \
  template sssp_result store<V, S>::sssp(vertex_id, double) const;           \
  template wcc_result store<V, S>::wcc() const;                              \
  template cdlp_result store<V, S>::cdlp(int) const;                         \
  template lcc_result store<V, S>::lcc() const;                              \
  template triangle_result store<V, S>::triangles(bool) const;
FG_API_FOR_EACH_STORE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fluxgraph::api
