// PageRank by power iteration (networkx.pagerank semantics): damping d, uniform teleport, dangling
// mass spread uniformly, stop when the L1 change < tol * n. Each iteration is one plus-times SpMV
// over the in-edge store (pull: no atomics) and one fused vector pass.
#include "algorithms/pagerank.hpp"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <iterator>
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

namespace {
// Where each set puts its teleport: slot[v] >= 0 for a vertex some set seeds, and row slot[v] of
// seed_w (k entries) its weight in each set (1 / the set's size, 0 in sets without it).
template <class S>
void seed_table(const std::vector<std::vector<vertex_t>>& sets, vertex_t n, array<std::int32_t, S>& slot, array<double, S>& seed_w) {
  const std::size_t k = sets.size();
  std::vector<std::int32_t> at(std::size_t(n), -1);
  std::vector<double> w;
  for (std::size_t j = 0; j < k; ++j) {
    std::vector<vertex_t> set = sets[j];
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());  // a set: a seed named twice counts once
    for (vertex_t v : set) {
      if (at[std::size_t(v)] < 0) at[std::size_t(v)] = std::int32_t(w.size() / k), w.resize(w.size() + k, 0.0);
      w[std::size_t(at[std::size_t(v)]) * k + j] = 1.0 / double(set.size());
    }
  }
  slot = to_space<S>(at), seed_w = to_space<S>(w);
}

// The score vectors of a group of sets, row-major (vertex v's scores side by side), and which set
// each column holds. When a vector converges the block narrows to the others (later reads gather
// only theirs), and the finished one's scores go to its result.
template <class S>
struct score_block {
  array<double, S> rank, scaled, y, seed_w;
  std::vector<int> set;  // column j holds set[j]
  int width() const { return int(set.size()); }
};

// The scores of columns `cols` of b into their sets' results: each column picked on the device into
// one vector and copied out as it is (no host copy of the block to split, vertex by vertex).
template <class S>
void copy_out(const score_block<S>& b, const detail::column_pick& cols, std::vector<pagerank_result>& res, vertex_t n) {
  array<double, S> one{std::size_t(n)};
  for (int i = 0; i < cols.count; ++i) {
    detail::column_pick pick;
    pick.from[0] = cols.from[i], pick.count = 1;
    detail::pagerank_kernels<S>::pick_columns(b.rank.data(), b.width(), one.data(), pick, n);
    res[std::size_t(b.set[std::size_t(cols.from[i])])].score = to_vector(one);
  }
}

// The finished columns (done[j]) leave `b`: their scores into res, the rest into a narrower block.
template <class S>
void narrow(score_block<S>& b, detail::ppr_step& step, std::vector<double>& sums, std::vector<pagerank_result>& res,
            vertex_t n, std::int64_t seeds) {
  using P = detail::pagerank_kernels<S>;
  const int w = b.width();
  detail::column_pick keep, leave;
  for (int j = 0; j < w; ++j) {
    detail::column_pick& to = step.done[j] ? leave : keep;
    to.from[to.count++] = j;
  }
  copy_out(b, leave, res, n);
  score_block<S> next;
  next.rank = array<double, S>(std::size_t(n) * std::size_t(keep.count));
  next.scaled = array<double, S>(next.rank.size());
  next.y = array<double, S>(next.rank.size());
  next.seed_w = array<double, S>(std::size_t(seeds) * std::size_t(keep.count));
  P::pick_columns(b.rank.data(), w, next.rank.data(), keep, n);
  P::pick_columns(b.scaled.data(), w, next.scaled.data(), keep, n);
  P::pick_columns(b.seed_w.data(), w, next.seed_w.data(), keep, seeds);
  detail::ppr_step s;
  s.k = keep.count;
  std::vector<double> sm(2 * std::size_t(keep.count));
  for (int i = 0; i < keep.count; ++i) {
    next.set.push_back(b.set[std::size_t(keep.from[i])]);
    sm[std::size_t(i)] = sums[std::size_t(keep.from[i])], sm[std::size_t(keep.count + i)] = sums[std::size_t(w + keep.from[i])];
  }
  b = std::move(next), step = s, sums = std::move(sm);
}

// Up to 32 sets as one iteration over k row-major vectors: one k-vector read of the scaled scores,
// then one pass for every vector's new scores, change and dangling mass. A converged vector keeps
// networkx's result at that iteration and leaves the block (narrow).
template <class V, class S>
std::vector<pagerank_result> ppr_group(const dcsr_matrix<V, S>& At, const pagerank_options& opt,
                                       const std::vector<std::vector<vertex_t>>& sets, const array<double, S>& out_w) {
  using P = detail::pagerank_kernels<S>;
  const auto t0 = std::chrono::steady_clock::now();
  const vertex_t n = At.rows();
  const int k = int(sets.size());
  const double d = opt.damping, tol_n = opt.tol * n;
  reader_options ro;
  ro.kernel = opt.kernel, ro.expected_reads = pagerank_expected_reads(opt, n), ro.max_reads = opt.max_iter;
  ro.tol = tol_n, ro.slowest = d, ro.vectors = k;
  reader<V, S> in(ro);
  array<std::int32_t, S> slot;
  score_block<S> b;
  b.rank = array<double, S>(std::size_t(n) * k), b.scaled = array<double, S>(b.rank.size()), b.y = array<double, S>(b.rank.size());
  for (int j = 0; j < k; ++j) b.set.push_back(j);
  seed_table(sets, n, slot, b.seed_w);
  const std::int64_t seeds = std::int64_t(b.seed_w.size()) / k;
  detail::ppr_step step;
  step.k = k;
  std::vector<double> sums(2 * std::size_t(k));
  P::update_k(nullptr, b.rank.data(), b.scaled.data(), out_w.data(), slot.data(), b.seed_w.data(), step, n, d, sums.data());
  std::vector<pagerank_result> res(static_cast<std::size_t>(k));
  device_stopwatch watch;
  int reads = 0;
  in.iterate(At, [&](const spmv_view<V, S>& v) {
    FG_EXPECTS(bool(v.run_k), "personalized pagerank: kernel " + v.kernel + " has no k-vector read");
    const int w = b.width();
    watch.start();
    v.run_k(b.scaled, b.y, w);
    watch.stop();
    for (int j = 0; j < w; ++j) step.teleport[j] = d * sums[std::size_t(w + j)] + (1.0 - d);
    P::update_k(b.y.data(), b.rank.data(), b.scaled.data(), out_w.data(), slot.data(), b.seed_w.data(), step, n, d, sums.data());
    double furthest = 0;  // the reader's convergence measure: the vector furthest from its end
    int going = 0;
    for (int j = 0; j < w; ++j) {
      if (step.done[j]) continue;
      pagerank_result& r = res[std::size_t(b.set[std::size_t(j)])];
      r.iterations++, r.last_change = sums[std::size_t(j)], r.converged = r.last_change < tol_n;
      step.done[j] = r.converged || r.iterations >= opt.max_iter;
      going += !step.done[j];
      furthest = std::max(furthest, r.last_change / tol_n);
    }
    if (going > 0 && going < w) narrow(b, step, sums, res, n, seeds);
    if (opt.progress) opt.progress(++reads, furthest * tol_n);
    return step_report{going > 0, furthest * tol_n, watch.seconds()};
  });
  detail::column_pick all;
  for (int j = 0; j < b.width(); ++j) all.from[all.count++] = j;
  copy_out(b, all, res, n);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - in.view_seconds();
  for (pagerank_result& r : res) {
    r.kernel = in.kernel(), r.kernel_reason = in.reason();
    r.view_seconds = in.view_seconds(), r.decide_seconds = in.decide_seconds(), r.read_seconds = in.read_seconds();
    r.seconds = seconds;
  }
  return res;
}
}  // namespace

template <class V, class S>
std::vector<pagerank_result> personalized_pagerank(const dcsr_matrix<V, S>& At, const pagerank_options& opt,
                                                   const std::vector<std::vector<vertex_t>>& seeds, const pagerank_start& start) {
  validate(opt);
  FG_EXPECTS(!seeds.empty(), "personalized pagerank: no seed sets");
  const vertex_t n = At.rows();
  FG_EXPECTS(n > 0, "personalized pagerank: the graph has no vertices to seed");
  using P = detail::pagerank_kernels<S>;
  array<double, S> out_w(n);
  if (is_pattern_v<V> && start.out_degree) P::from_degrees(start.out_degree, out_w.data(), n);
  else P::template out_weights<V>(At.view(), out_w.data(), n);
  if constexpr (!is_pattern_v<V>)
    for (double w : to_vector(out_w)) FG_EXPECTS(w >= 0, "personalized pagerank: weighted PageRank needs non-negative edge weights");
  for (std::size_t j = 0; j < seeds.size(); ++j) {
    FG_EXPECTS(!seeds[j].empty(), "personalized pagerank: seed set " + std::to_string(j + 1) + " is empty");
    for (vertex_t v : seeds[j])
      FG_EXPECTS(v >= 0 && v < n, "personalized pagerank: seed " + std::to_string(v) + " of set " + std::to_string(j + 1) +
                                      " is not a vertex of the graph (" + std::to_string(n) + " vertices)");
  }
  std::vector<pagerank_result> out;
  for (std::size_t first = 0; first < seeds.size(); first += max_read_vectors) {
    const std::size_t last = std::min(seeds.size(), first + std::size_t(max_read_vectors));
    const std::vector<std::vector<vertex_t>> group(seeds.begin() + std::ptrdiff_t(first), seeds.begin() + std::ptrdiff_t(last));
    std::vector<pagerank_result> r = ppr_group(At, opt, group, out_w);
    std::move(r.begin(), r.end(), std::back_inserter(out));
  }
  return out;
}

#define FG_INSTANTIATE(V, S)                                                                   \
  template pagerank_result pagerank(const dcsr_matrix<V, S>&, const pagerank_options&, const pagerank_start&); \
  template std::vector<pagerank_result> personalized_pagerank(const dcsr_matrix<V, S>&, const pagerank_options&, \
                                                              const std::vector<std::vector<vertex_t>>&, const pagerank_start&);
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE

}  // namespace fg
