// PageRank by power iteration (networkx.pagerank semantics): damping d, uniform teleport, dangling
// mass spread uniformly, stop when the L1 change < tol * n. Each iteration is one plus-times SpMV
// over the in-edge store (pull: no atomics) and one fused vector pass.
#include "algorithms/pagerank.hpp"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <utility>

#include "algorithms/detail/pagerank_kernels.hpp"
#include "core/error.hpp"
#include "core/semiring.hpp"
#include "core/stopwatch.hpp"
#include "read/reader.hpp"
#include "storage/dcsr.hpp"

namespace fg {

void validate(const pagerank_options& o) {
  FG_EXPECTS(o.damping >= 0 && o.damping < 1, "pagerank: damping must be in [0, 1)");
  FG_EXPECTS(o.tol > 0 && std::isfinite(o.tol), "pagerank: tolerance must be > 0");
  FG_EXPECTS(o.max_iter >= 1, "pagerank: max-iter must be >= 1");
}

namespace {

// The warm start as a probability vector of n entries: given scores, 1/n for vertices past them,
// scaled to sum 1 (the L1 contraction by d holds between probability vectors only).
std::vector<double> warm_start(const std::vector<double>& given, vertex_t n) {
  FG_EXPECTS(given.size() <= std::size_t(n), "pagerank: the initial vector has more entries than the graph has vertices");
  std::vector<double> r(std::size_t(n), 1.0 / n);
  double sum = 0;
  for (std::size_t v = 0; v < r.size(); ++v) {
    if (v < given.size()) {
      FG_EXPECTS(std::isfinite(given[v]) && given[v] >= 0, "pagerank: initial score of vertex " + std::to_string(v) +
                                                                " is negative or not finite");
      r[v] = given[v];
    }
    sum += r[v];
  }
  FG_EXPECTS(sum > 0, "pagerank: the initial vector sums to 0");
  for (double& x : r) x /= sum;
  return r;
}
}  // namespace

void best_first(std::vector<std::pair<vertex_t, double>>& s, std::size_t k) {
  std::sort(s.begin(), s.end(), [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  std::size_t keep = std::min(k, s.size());
  while (keep > 0 && keep < s.size() && s[keep].second == s[keep - 1].second) ++keep;
  s.resize(keep);
}

double pagerank_expected_reads(const pagerank_options& opt, vertex_t n) {
  const double prior = opt.damping > 0 ? std::ceil(std::log(opt.tol * n / 2) / std::log(opt.damping)) : 1.0;
  return std::clamp(prior, 1.0, double(opt.max_iter));
}

// The iteration over the reader's views (read/reader.hpp chooses, races and logs): one read of the
// scaled scores x = rank / out-weight, then one fused pass for the new ranks, the next x, the L1
// change and the dangling mass. x is float where the view can read it so (mixed_precision) and
// follows a renumbered view's order.
template <class V, class S>
pagerank_result pagerank(const dcsr_matrix<V, S>& At, const pagerank_options& opt, const pagerank_start& start) {
  validate(opt);
  using P = detail::pagerank_kernels<S>;
  const vertex_t n = At.rows();
  pagerank_result res;
  res.converged = n == 0;
  if (n == 0) return res;
  const auto t0 = std::chrono::steady_clock::now();
  const double d = opt.damping, tol_n = opt.tol * n;
  reader_options ro;
  ro.kernel = opt.kernel, ro.expected_reads = pagerank_expected_reads(opt, n), ro.max_reads = opt.max_iter;
  ro.tol = tol_n, ro.slowest = d;
  ro.float_reads = opt.mixed_precision && tol_n >= std::ldexp(1.0, -16);  // x's rounding: 1/256 of the threshold at most
  reader<V, S> in(ro);
  array<double, S> out_w(n), rank(n), scaled(n), y(n);
  array<float, S> scaled32;  // x as float, allocated at the first such read; in32: it holds x now
  bool in32 = false;
  if (is_pattern_v<V> && start.out_degree) P::from_degrees(start.out_degree, out_w.data(), n);
  else P::template out_weights<V>(At.view(), out_w.data(), n);
  if constexpr (!is_pattern_v<V>)  // a negative out-weight would make the "probabilities" negative
    for (double w : to_vector(out_w)) FG_EXPECTS(w >= 0, "pagerank: weighted PageRank needs non-negative edge weights");
  if (!start.initial.empty()) rank = to_space<S>(warm_start(start.initial, n));
  double dangling = start.initial.empty() ? P::init(rank.data(), scaled.data(), out_w.data(), n)
                                          : P::resume(rank.data(), scaled.data(), out_w.data(), n);
  vectors_in_order<S> order({&rank, &scaled, &out_w});
  device_stopwatch watch;
  in.iterate(At, [&](const spmv_view<V, S>& v) {
    const bool mixed = ro.float_reads && v.run_mixed && !v.order;
    if (in32 && !mixed) P::to_double(scaled32.data(), scaled.data(), n), in32 = false;
    order.follow(v.order);
    if (mixed && !in32) {
      if (scaled32.empty()) scaled32 = array<float, S>(std::size_t(n));
      P::to_float(scaled.data(), scaled32.data(), n), in32 = true;
    }
    watch.start();  // device time by events, read after the update has waited anyway
    if (mixed) v.run_mixed(scaled32, y), ++res.mixed_reads;
    else (v.order ? v.run_ordered : v.run)(scaled, y);
    watch.stop();
    const double base = (d * dangling + (1.0 - d)) / n;
    const detail::pagerank_sums s = P::update(y.data(), rank.data(), scaled.data(), in32 ? scaled32.data() : nullptr, out_w.data(), n, d, base);
    dangling = s.dangling, res.last_change = s.change, res.iterations++;
    if (opt.progress) opt.progress(res.iterations, s.change);
    res.converged = s.change < tol_n;
    return step_report{!res.converged && res.iterations < opt.max_iter, s.change, watch.seconds()};
  });
  order.follow(nullptr);
  memory::synchronize();
  res.kernel = in.kernel(), res.kernel_reason = in.reason();
  res.view_seconds = in.view_seconds(), res.decide_seconds = in.decide_seconds(), res.read_seconds = in.read_seconds();
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - res.view_seconds;
  res.score = to_vector(rank);
  return res;
}

#define FG_INSTANTIATE(V, S)                                                                   \
  template pagerank_result pagerank(const dcsr_matrix<V, S>&, const pagerank_options&, const pagerank_start&);
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE

}  // namespace fg
