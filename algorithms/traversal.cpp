// BFS and SSSP orchestration (algorithms/traversal.hpp), written once for both twins on the steps
// of algorithms/detail/app_kernels.hpp.
#include "algorithms/traversal.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "algorithms/detail/app_kernels.hpp"
#include "core/error.hpp"

namespace fg {

namespace {
double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct bfs_counts {
  std::int32_t depth = 0;
  std::int64_t reached = 0, edges = 0;
  int push = 0, pull = 0;
};

/// Levels from `source` into `level` (already initialised: source 0, the rest -1).
template <class S>
bfs_counts run_bfs(const dcsr_view<pattern>& out, offset_t nnz, const dcsr_view<pattern>* pull, vertex_t source,
                   array<std::int32_t, S>& level, const bfs_options& opt) {
  using K = detail::app_kernels<S>;
  const vertex_t n = out.rows;
  array<vertex_t, S> cur(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n));
  write_at(cur, 0, source);
  bfs_counts c;
  vertex_t nf = 1;
  offset_t frontier_edges = read_many<S>(out.sizes + source, 1)[0];
  c.reached = 1, c.edges = frontier_edges;
  bool pulling = false, listed = true;  // listed: cur holds the frontier (pull leaves only levels)
  vertex_t prev_nf = 0;
  while (nf > 0) {
    if (pull && opt.direction_optimizing) {
      const double unvisited_edges = double(nnz - c.edges);
      // Beamer's rule: pull only while the frontier grows (at a BFS's tail the unvisited edges are
      // few, and a pull would scan every vertex for a frontier of a handful)
      if (!pulling && nf > prev_nf && double(frontier_edges) > unvisited_edges / opt.alpha) pulling = true;
      else if (pulling && double(nf) < double(n) / opt.beta) pulling = false;
    }
    offset_t next_edges = 0;
    vertex_t found;
    if (pulling) {
      found = K::bfs_pull(*pull, out.sizes, level.data(), c.depth, &next_edges);
      listed = false, ++c.pull;
    } else {
      if (!listed) nf = K::bfs_frontier(level.data(), n, c.depth, cur.data());
      found = K::bfs_push(out, cur.data(), nf, level.data(), c.depth, next.data(), &next_edges);
      std::swap(cur, next);
      listed = true, ++c.push;
    }
    if (found == 0) break;
    ++c.depth;
    prev_nf = nf, nf = found, frontier_edges = next_edges;
    c.reached += found, c.edges += next_edges;
  }
  return c;
}

void check_source(vertex_t source, vertex_t n, const char* what) {
  FG_EXPECTS(source >= 0 && source < n, std::string(what) + ": source vertex " + std::to_string(source) +
                                            " is not a vertex of the graph (" + std::to_string(n) + " vertices)");
}

double auto_delta(const detail::weight_summary& w, offset_t nnz, vertex_t n) {
  if (nnz == 0) return 1;
  const double mean_w = w.sum / double(nnz), mean_d = double(nnz) / double(n);
  const double d = std::max(mean_w, 32 * mean_w / mean_d);
  return d > 0 && std::isfinite(d) ? d : 1;
}

/// The near/far loop: relax the pending vertices below the bound until none is left, then move the
/// bound to the least pending distance + delta.
template <class V, class S>
int near_far(const dcsr_view<V>& out, array<double, S>& dist, array<std::uint8_t, S>& pending, double delta) {
  using K = detail::app_kernels<S>;
  const vertex_t n = out.rows;
  array<vertex_t, S> list(static_cast<std::size_t>(n));
  int rounds = 0;
  for (;;) {
    const double least = K::sssp_min_pending(dist.data(), pending.data(), n);
    if (!(least < std::numeric_limits<double>::infinity())) return rounds;
    const double bound = least + delta;
    for (vertex_t nf; (nf = K::sssp_take(dist.data(), pending.data(), n, bound, list.data())) > 0; ++rounds)
      K::sssp_relax(out, list.data(), nf, dist.data(), pending.data());
  }
}

void check_weights(const detail::weight_summary& w) {
  FG_EXPECTS(w.min_row < 0 || w.min >= 0, "sssp: vertex " + std::to_string(w.min_row) +
                                              " has an out-edge of negative weight " + std::to_string(w.min) +
                                              " (shortest paths need weights >= 0)");
}
}  // namespace

template <class V, class S>
bfs_result bfs(const dcsr_matrix<V, S>& out, const dcsr_view<pattern>* in, bool symmetric, vertex_t source,
               const bfs_options& opt) {
  const vertex_t n = out.rows();
  check_source(source, n, "bfs");
  FG_EXPECTS(!in || in->rows == n, "bfs: the in-edge store has another vertex count than the out-edge store");
  const auto t0 = std::chrono::steady_clock::now();
  const dcsr_view<pattern> ov = detail::pattern_view(out.view());
  array<std::int32_t, S> level(static_cast<std::size_t>(n));
  detail::app_kernels<S>::bfs_init(level.data(), n, source);
  const bfs_counts c = run_bfs<S>(ov, out.nnz(), in ? in : symmetric ? &ov : nullptr, source, level, opt);
  bfs_result r;
  r.seconds = since(t0);
  r.level = to_vector(level);
  r.depth = c.depth, r.reached = c.reached, r.edges = c.edges, r.push_steps = c.push, r.pull_steps = c.pull;
  return r;
}

template <class V, class S>
sssp_result sssp(const dcsr_matrix<V, S>& out, vertex_t source, const sssp_options& opt) {
  using K = detail::app_kernels<S>;
  const vertex_t n = out.rows();
  check_source(source, n, "sssp");
  FG_EXPECTS(opt.delta >= 0 && std::isfinite(opt.delta), "sssp: delta must be >= 0 and finite");
  const auto t0 = std::chrono::steady_clock::now();
  const detail::weight_summary w = K::weights(out.view());
  check_weights(w);
  sssp_result r;
  r.delta = opt.delta > 0 ? opt.delta : auto_delta(w, out.nnz(), n);
  array<double, S> dist(static_cast<std::size_t>(n));
  array<std::uint8_t, S> pending(static_cast<std::size_t>(n));
  K::sssp_init(dist.data(), n, source);
  zero(pending);
  write_at(pending, std::size_t(source), std::uint8_t(1));
  r.rounds = near_far(out.view(), dist, pending, r.delta);
  r.seconds = since(t0);
  r.dist = to_vector(dist);
  const std::vector<vertex_t> deg = read_many<S>(out.view().sizes, std::size_t(n));
  for (vertex_t v = 0; v < n; ++v)
    if (r.dist[std::size_t(v)] < std::numeric_limits<double>::infinity()) ++r.reached, r.edges += deg[std::size_t(v)];
  return r;
}

template <class S>
incremental_bfs<S>::incremental_bfs(vertex_t source, bfs_options opt) : source_(source), opt_(opt) {
  FG_EXPECTS(source >= 0, "incremental_bfs: negative source vertex");
}

template <class S>
incremental_sssp<S>::incremental_sssp(vertex_t source, sssp_options opt) : source_(source), opt_(opt) {
  FG_EXPECTS(source >= 0, "incremental_sssp: negative source vertex");
}

template <class S>
template <class V>
void incremental_bfs<S>::update(const dcsr_matrix<V, S>& out, const dcsr_view<pattern>* in, bool symmetric,
                                const edge_batch<S>& inserted, const edge_batch<S>& deleted) {
  using K = detail::app_kernels<S>;
  const vertex_t n = out.rows();
  const dcsr_view<pattern> ov = detail::pattern_view(out.view());
  const std::size_t had = level_.size();
  if (std::size_t(n) > had) {  // new vertices are unreached until an edge lowers them
    level_ = grown(level_, std::size_t(n));
    K::bfs_init(level_.data() + had, vertex_t(std::size_t(n) - had), -1);
    mark_ = grown(mark_, std::size_t(n));  // new vertices' marks 0, below every stamp
    zero(mark_, had);
  }
  recomputed_ = false;
  if (source_ >= n) return;  // the source has not arrived: nothing is reached
  FG_EXPECTS(!in || in->rows == n, "incremental_bfs: the in-edge store has another vertex count");
  const bool fresh = !started_ || (deleted.size() > 0 && K::any_tight(deleted.u.data(), deleted.v.data(), deleted.size(), level_.data(), n));
  started_ = false;  // an exception below (out of memory) leaves levels half done: the next update starts over
  if (fresh) {
    K::bfs_init(level_.data(), n, source_);
    run_bfs<S>(ov, out.nnz(), in ? in : symmetric ? &ov : nullptr, source_, level_, opt_);
    started_ = recomputed_ = true;
    return;
  }
  if (inserted.size() > 0) {
    array<vertex_t, S> cur(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n));
    auto stamp = [&] {  // a fresh stamp per round; at the top of the range the marks start over
      if (stamp_ == std::numeric_limits<std::int32_t>::max()) zero(mark_), stamp_ = 0;
      return ++stamp_;
    };
    vertex_t nf = K::bfs_seed(inserted.u.data(), inserted.v.data(), inserted.size(), level_.data(), cur.data(), mark_.data(), stamp());
    while (nf > 0) {
      nf = K::bfs_lower(ov, cur.data(), nf, level_.data(), next.data(), mark_.data(), stamp());
      std::swap(cur, next);
    }
  }
  started_ = true;
}

template <class S>
std::vector<std::int32_t> incremental_bfs<S>::levels() const {
  return to_vector(level_);
}

template <class S>
template <class V>
void incremental_sssp<S>::update(const dcsr_matrix<V, S>& out, const edge_batch<S>& inserted,
                                 const edge_batch<S>& deleted) {
  using K = detail::app_kernels<S>;
  const vertex_t n = out.rows();
  const std::size_t had = dist_.size();
  if (std::size_t(n) > had) {
    dist_ = grown(dist_, std::size_t(n));
    K::sssp_init(dist_.data() + had, vertex_t(std::size_t(n) - had), -1);
  }
  if (pending_.size() < std::size_t(n)) {  // near_far leaves every flag 0: a fresh zeroed array
    pending_ = array<std::uint8_t, S>(static_cast<std::size_t>(n));
    zero(pending_);
  }
  recomputed_ = false;
  if (source_ >= n) return;
  const bool fresh = !started_ || (deleted.size() > 0 && K::any_tight(deleted.u.data(), deleted.v.data(), deleted.size(), dist_.data(), n));
  started_ = false;  // an exception below (a negative weight, out of memory): the next update starts over
  if (fresh) {  // the whole store's weights: checked, and delta's mean taken, once per from-scratch run
    const detail::weight_summary w = K::weights(out.view());
    check_weights(w);
    if (delta_ == 0) delta_ = opt_.delta > 0 ? opt_.delta : auto_delta(w, out.nnz(), n);
    K::sssp_init(dist_.data(), n, source_);
    write_at(pending_, std::size_t(source_), std::uint8_t(1));
    recomputed_ = true;
  } else if (inserted.size() > 0) {  // only the batch's weights are new
    for (double x : to_vector(inserted.w))
      FG_EXPECTS(x >= 0, "sssp: an inserted edge has negative weight " + std::to_string(x) + " (shortest paths need weights >= 0)");
    K::sssp_relax_pairs(inserted.u.data(), inserted.v.data(), inserted.w.size() ? inserted.w.data() : nullptr,
                        inserted.size(), dist_.data(), pending_.data());
  }
  near_far(out.view(), dist_, pending_, delta_);
  started_ = true;
}

template <class S>
std::vector<double> incremental_sssp<S>::distances() const {
  return to_vector(dist_);
}

template <class S>
std::int64_t incremental_sssp<S>::reached() const {
  return detail::app_kernels<S>::count_reached(nullptr, dist_.data(), vertex_t(dist_.size()));
}

template <class S>
std::int64_t incremental_bfs<S>::reached() const {
  return detail::app_kernels<S>::count_reached(level_.data(), nullptr, vertex_t(level_.size()));
}

#define FG_TRAVERSAL(V, S)                                                                                        \
  template bfs_result bfs<V, S>(const dcsr_matrix<V, S>&, const dcsr_view<pattern>*, bool, vertex_t, const bfs_options&); \
  template sssp_result sssp<V, S>(const dcsr_matrix<V, S>&, vertex_t, const sssp_options&);                      \
  template void incremental_bfs<S>::update<V>(const dcsr_matrix<V, S>&, const dcsr_view<pattern>*, bool,         \
                                              const edge_batch<S>&, const edge_batch<S>&);                       \
  template void incremental_sssp<S>::update<V>(const dcsr_matrix<V, S>&, const edge_batch<S>&, const edge_batch<S>&);
FG_TRAVERSAL(pattern, host_space)
FG_TRAVERSAL(pattern, device_space)
FG_TRAVERSAL(double, host_space)
FG_TRAVERSAL(double, device_space)
#undef FG_TRAVERSAL
template class incremental_bfs<host_space>;
template class incremental_bfs<device_space>;
template class incremental_sssp<host_space>;
template class incremental_sssp<device_space>;

}  // namespace fg
