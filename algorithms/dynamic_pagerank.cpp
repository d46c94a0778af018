// PageRank kept current by residual pushes (algorithms/dynamic_pagerank.hpp): the orchestration
// of the kernels in algorithms/detail/dynamic_pagerank_kernels.hpp.
#include "algorithms/dynamic_pagerank.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <type_traits>
#include <utility>

#include "algorithms/detail/dynamic_pagerank_kernels.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "storage/dcsr.hpp"

namespace fg {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

/// A batch that changes more than this share of the edges is recomputed (swept, without an in-edge
/// store): pushes from residuals spread over much of the graph do the work of power iterations
/// with atomics instead of pulls.
constexpr double cold_share = 0.25;
/// Thresholds by level (docs/dynamic-pagerank.md): a level pushes every vertex with |r[v]| >
/// eps (1 + deg v) until none is left, which leaves sum |r| <= eps (n + m). The first level's eps
/// leaves at most `first_level` times the residual the target allows; each next one divides eps by
/// `level_step`, and the pushes stop at the first level after which the bound holds: the largest
/// residuals go first (Gauss-Southwell's order), and no push is made once the scores are within
/// the target. A level costs the GPU a launch and a wait: a first level at 4x (not 16x) took
/// cnr-2000's stream (1e5-edge batches) from 0.106 to 0.095 s on the H100; the CPU build's is the same.
constexpr double first_level = 4, level_step = 4;
constexpr int max_levels = 16;
/// Power iterations from the last scores, or a run from scratch, replace the pushes when they are
/// predicted to take at most this share of the pushes' time. All are measured in this run (seconds,
/// the device waited for): an entry a push reads costs from about one pull's entry (long rows, many
/// vertices over the threshold: rmat-22 on the H100) to tens of them (a few vertices a hop, each hop
/// a chain of dependent atomics: cnr-2000's), so counts do not predict it. The path may then differ
/// between runs; the bound holds on each. The pushes' and the sweeps' predictions scale with how far
/// the bound is over the target (docs/dynamic-pagerank.md, "Push, pull or start over").
constexpr double pull_share = 0.8;
/// After this many updates in a row that did not push, the next one pushes again to renew its
/// measure; doubled (up to max_retry) each time that push still leaves the others ahead.
constexpr int pulls_before_retry = 8, max_retry = 64;
/// Only the CUDA queue walks hub rows in chunks (algorithms/cuda/push_queue.cuh), with a share and
/// a count a vertex; the FIFO of the reference and the OpenMP build needs neither (12 bytes a vertex).
template <class S>
#if defined(FG_WITH_CUDA)
constexpr bool queue_hubs = std::is_same_v<S, device_space>;
#else
constexpr bool queue_hubs = false;
#endif
/// How an update brings the bound back under the target.
enum class way { push, pull, cold };
}  // namespace

template <class S>
struct dynamic_pagerank<S>::state {
  using K = detail::dynamic_pagerank_kernels<S>;
  pagerank_options opt;
  bool known = false;  ///< y and r are a residual pair of the graph after the last batch seen
  vertex_t n = 0;      ///< vertices y and r cover
  std::size_t cap = 0;
  array<double, S> y, r, hub_share;  // hub_share, hub_left: the CUDA queue's hub rows (K::push)
  array<std::int32_t, S> net, mark, hub_left;
  array<vertex_t, S> list;
  std::int32_t stamp = 0;
  std::int64_t changed = 0;      ///< pairs the batches since the last update added or removed
  array<std::uint64_t, S> keys;  ///< before(): the batch's distinct pairs
  array<std::uint8_t, S> was;
  bool armed = false;
  double mass = 0;       ///< sum y after the last update
  double top_floor = 0;  ///< top(): half the y of the last k-th best
  dynamic_pagerank_stats st;
  std::string cold_kernel;
  // The cost model (choose): the last push's seconds per unit of log(bound / target) it removed, a
  // sweep's seconds per in-edge and the bound's contraction per sweep, a from-scratch run's seconds
  // per in-edge (0: not measured yet); the updates in a row that did not push, and after how many
  // the next one pushes again.
  double push_seconds_per_log = 0, sweep_seconds_per_edge = 0, pull_rate = 0, cold_seconds_per_edge = 0;
  int others_in_row = 0, retry_after = pulls_before_retry;
  bool retried = false;  ///< the last update pushed only to renew the measure
  update_path path = update_path::measured;

  explicit state(const pagerank_options& o) : opt(o) {
    validate(opt);
    opt.progress = nullptr;
  }
  double damping() const { return opt.damping; }
  // The scores' bound (docs/dynamic-pagerank.md): pi = y / s is within ||G pi - pi||_1 / (1 - d) of
  // the exact PageRank (G the Google matrix, which contracts differences of probability vectors by
  // d), and G pi - pi = (r - gamma 1) / s with gamma = 1 - (d D + (1 - d) s) / n, D the dangling
  // part of s. One pass over r.
  double bound(const detail::residual_sums& sums) const {
    const double d = damping(), s = sums.mass;
    const double gamma = 1 - (d * sums.dangling + (1 - d) * s) / double(n);
    return K::shifted_l1(r.data(), gamma, n) / ((1 - d) * s);
  }
  // The bound a from-scratch run's stopping rule gives: d/(1-d) tol n.
  double target() const { return damping() / (1 - damping()) * opt.tol * double(n); }
  // The residual sum at which the bound meets the target when r has no uniform part, for mass s.
  double allowed(double s) const { return target() * (1 - damping()) * s; }

  void next_stamp() {
    if (stamp >= std::numeric_limits<std::int32_t>::max() - 1) {
      zero(mark);
      stamp = 0;
    }
    ++stamp;
  }
  // Room for v vertices; new ones start at y = 1, r = 0: exact for a vertex with no in-edges, and
  // the edges that reach it arrive as a batch's pairs.
  void ensure(vertex_t v) {
    if (std::size_t(v) > cap) {
      const std::size_t c = std::max<std::size_t>(std::size_t(v), std::size_t(1.5 * double(cap)));
      y = grown(y, c), r = grown(r, c);
      net = grown(net, c), mark = grown(mark, c);
      zero(net, cap), zero(mark, cap);
      list = array<vertex_t, S>(c);
      if (queue_hubs<S>) hub_left = array<std::int32_t, S>(c), hub_share = array<double, S>(c);
      cap = c;
    }
    if (v > n) K::extend(y.data(), r.data(), n, v);
    n = std::max(n, v);
  }
  void exact_residual(const dcsr_matrix<pattern, S>& out, const dcsr_matrix<pattern, S>* in, array<double, S>& into) const;
  void cold(const dcsr_matrix<pattern, S>& out, const dcsr_matrix<pattern, S>* in);
  // r's sums and the bound they give: two passes over r, made once for each state of y and r.
  struct reading {
    detail::residual_sums sums;
    double bound = 0;
  };
  reading read(const vertex_t* deg) const {
    const detail::residual_sums sums = K::sums(y.data(), r.data(), deg, n);
    return {sums, bound(sums)};
  }
  reading sweep(const dcsr_matrix<pattern, S>& out, const dcsr_matrix<pattern, S>* in, reading now);
  std::vector<double> normalised(double sum) const;
  double sweeps_for(double b) const {  // sweeps predicted to bring bound b under the target
    return std::max(1.0, std::ceil(std::log(target() / b) / std::log(pull_rate > 0 ? pull_rate : damping())));
  }
  way choose(offset_t m, double b, std::ostringstream& why) const;
  // The cost model after an update whose pushes took `seconds`; `chosen`: it pulled or started over
  // by choose(). One that found the bound holding, or had to start over, measured nothing for it.
  void tally(double seconds, bool chosen) {
    const bool pushed = !st.cold && !st.pulled && st.levels > 0;
    if (!pushed && !chosen) return;
    const bool forced = pushed && others_in_row >= retry_after;  // pushed to renew the measure
    // what choose() predicts the next push by
    if (pushed) push_seconds_per_log = seconds / std::log(std::max(st.seeded_bound, 2 * st.target) / st.target);
    if (chosen && retried) retry_after = std::min(2 * retry_after, max_retry);  // the renewed measure kept the others
    else if (pushed && !forced) retry_after = pulls_before_retry;              // pushed on its merit
    retried = forced;
    others_in_row = pushed ? 0 : others_in_row + 1;
  }
  void start_from(const dcsr_matrix<pattern, S>& out, const dcsr_matrix<pattern, S>* in, const std::vector<double>& scores);
  detail::residual_sums push(const dcsr_matrix<pattern, S>& out, vertex_t nf, double e, detail::residual_sums sums,
                             double goal);
  double converge(const dcsr_matrix<pattern, S>& out, reading now);
};

// into = 1 - y + d P y, P y pulled over the in-edge store, or read along the out-edges without one.
template <class S>
void dynamic_pagerank<S>::state::exact_residual(const dcsr_matrix<pattern, S>& out, const dcsr_matrix<pattern, S>* in,
                                                array<double, S>& into) const {
  FG_EXPECTS(out.rows() == n && (!in || in->rows() == n), "dynamic_pagerank: the in- and out-edge stores differ in size");
  array<double, S> x{std::size_t(n)}, z{std::size_t(n)};
  K::spread(y.data(), out.view().sizes, x.data(), n);
  if (in) spmv<plus_times<double>>(*in, x, z);
  else K::scatter(out.view(), out.nnz(), x.data(), z.data());
  K::residual(y.data(), z.data(), into.data(), n, damping());
}

// From scratch: PageRank's power iteration over the in-edges, scaled to the y of (I - dP) y = 1
// (pi = c/n y with c = d * dangling + 1 - d), and its residual computed exactly. Without an in-edge
// store: Jacobi sweeps along the out-edges from y = 1 (the uniform scores; the power iteration's
// own sequence up to the scale), until the bound holds.
template <class S>
void dynamic_pagerank<S>::state::cold(const dcsr_matrix<pattern, S>& out, const dcsr_matrix<pattern, S>* in) {
  const auto t0 = clock_type::now();
  if (!in) {
    zero(net);  // a seed that threw may have left counts in it
    K::extend(y.data(), r.data(), 0, n);
    exact_residual(out, nullptr, r);
    sweep(out, nullptr, read(out.view().sizes));
    st.pulled = false;
    st.cold = true;
    cold_seconds_per_edge = since(t0) / double(std::max<offset_t>(out.nnz(), 1));
    return;
  }
  pagerank_start from;
  from.out_degree = out.view().sizes;  // the out-edge store's row sizes: no pass over the in-edges for them
  const pagerank_result pr = pagerank(*in, opt, from);
  st.cold = true;
  st.cold_iterations = pr.iterations;
  cold_kernel = pr.kernel;
  // The sweeps' contraction until one is measured: this run's, from a change of at most 2 (a
  // sweep's is at most d; on expanders it is well under, and d would never let a pull be tried).
  if (pr.iterations > 1 && pr.last_change > 0 && pull_rate == 0)
    pull_rate = std::min(damping(), std::pow(pr.last_change / 2, 1.0 / pr.iterations));
  // a first guess at a sweep's cost until one is timed: the run's time per iteration
  sweep_seconds_per_edge = pr.seconds / std::max(1, pr.iterations) / double(std::max<offset_t>(out.nnz(), 1));
  start_from(out, in, pr.score);
  cold_seconds_per_edge = since(t0) / double(std::max<offset_t>(out.nnz(), 1));
}

// Power iterations from the y the batches left, where the scores are (no copy to the host and back:
// rmat-22's took 35 ms a batch through the host-side PageRank, for ~3 iterations): Jacobi sweeps
// y <- 1 + d P y pulled over the in-edges (or read along the out-edges without them), whose
// r = 1 - y + d P y is what each sweep adds, from the kept r (the batches left it exact: one SpMV
// a sweep) until the bound holds or max_iter. Each
// sweep's residual is computed afresh, which also clears what rounding left in the kept one. The
// store as it is: no view for a few sweeps. Returns the reading at the end.
template <class S>
typename dynamic_pagerank<S>::state::reading dynamic_pagerank<S>::state::sweep(const dcsr_matrix<pattern, S>& out,
                                                                              const dcsr_matrix<pattern, S>* in,
                                                                              reading now) {
  st.pulled = true;
  cold_kernel = in ? "dcsr" : "scatter";
  const auto t0 = clock_type::now();
  const double from = now.bound;
  int k = 0;
  for (; k < opt.max_iter && now.bound > target(); ++k) {
    K::absorb(y.data(), r.data(), n);
    exact_residual(out, in, r);
    now = read(out.view().sizes);
  }
  st.cold_iterations = k;
  if (k == 0) return now;
  sweep_seconds_per_edge = since(t0) / k / double(std::max<offset_t>(out.nnz(), 1));  // the bound read waited
  if (now.bound > 0 && now.bound < from) pull_rate = std::pow(now.bound / from, 1.0 / k);
  return now;
}

// The scores y / sum, on the host.
template <class S>
std::vector<double> dynamic_pagerank<S>::state::normalised(double sum) const {
  array<double, S> score{std::size_t(n)};
  K::normalise(y.data(), sum, score.data(), n);
  return to_vector(score);
}

// y and r from scores pi of the graph now (a probability vector).
template <class S>
void dynamic_pagerank<S>::state::start_from(const dcsr_matrix<pattern, S>& out, const dcsr_matrix<pattern, S>* in,
                                           const std::vector<double>& scores) {
  FG_EXPECTS(scores.size() == std::size_t(n), "dynamic_pagerank: scores for another number of vertices");
  zero(net);  // a seed that threw may have left counts in it
  const array<double, S> pi = to_space<S>(scores);
  copy_prefix(y, pi, std::size_t(n));
  const double c = damping() * K::sums(y.data(), r.data(), out.view().sizes, n).dangling + (1 - damping());
  K::scale(y.data(), double(n) / c, n);
  exact_residual(out, in, r);
}

// The pushes of one level from list[0, nf) at threshold eps (1 + deg), with `sums` an upper bound on
// the residual sum and a lower bound on the mass as the pushes move them: a push of t takes |t| from
// the residual sum and puts at most d |t| back, and moves the mass by at most |t|. The pushes stop
// when no vertex is over the threshold or when they took what the target still needs (`goal`: then
// the bound may already hold). Returns the bounds at the end.
template <class S>
detail::residual_sums dynamic_pagerank<S>::state::push(const dcsr_matrix<pattern, S>& out, vertex_t nf, double e,
                                                       detail::residual_sums sums, double goal) {
  next_stamp();
  st.pushes += nf;
  detail::residual_sums taken;
  // What the target still needs taken: the residual sum falls by at least (1 - d) per unit taken.
  const double budget = std::max(0.0, (sums.residual - goal) / (1 - damping()));
  K::push(out.view(), out.nnz(), list.data(), nf, y.data(), r.data(), damping(), e, budget, mark.data(), stamp,
          hub_share.data(), hub_left.data(), &st.edges, &taken);
  sums.residual -= (1 - damping()) * taken.residual;
  sums.mass -= taken.residual;
  return sums;
}

// Levels of pushes from the reading `now` until the bound holds (or max_levels); the bound at the end.
template <class S>
double dynamic_pagerank<S>::state::converge(const dcsr_matrix<pattern, S>& out, reading now) {
  const vertex_t* deg = out.view().sizes;
  detail::residual_sums sums = now.sums;
  double b = now.bound;
  st.seeded_bound = b;
  double e = first_level * allowed(sums.mass) / (double(n) + double(out.nnz()));
  for (int level = 0; level < max_levels && b > target(); ++level, e /= level_step) {
    const vertex_t nf = K::over(r.data(), deg, n, e, list.data());
    if (nf == 0) continue;
    ++st.levels;
    // The residual sum to reach: where the bound would meet the target if |r|'s spread about its
    // mean kept its ratio to sum |r| (10% under it).
    push(out, nf, e, sums, 0.9 * sums.residual * target() / b);
    sums = K::sums(y.data(), r.data(), deg, n);
    b = bound(sums);
  }
  mass = sums.mass;
  st.residual = sums.residual;
  return b;
}

// The cheapest way to bring bound b (over the target) under it, predicted in seconds: the pushes by
// the last push's time per log(bound / target) removed; the sweeps by their count at the measured
// contraction and the last sweep's time per edge; a from-scratch run by the last one's time per edge
// (where a batch moves the scores by ~1000 targets, as 2% of soc-Slashdot0902's edges do, sweeps
// from the last scores need about as many iterations as a run from scratch, which reads a view
// with float x). Pushes until one was measured, and again after retry_after updates that did not.
template <class S>
way dynamic_pagerank<S>::state::choose(offset_t m, double b, std::ostringstream& why) const {
  if (path == update_path::pull) {
    why << "pulled: asked for";
    return way::pull;
  }
  if (path == update_path::push || push_seconds_per_log <= 0 || others_in_row >= retry_after) return way::push;
  constexpr double unknown = std::numeric_limits<double>::infinity();
  const double push = push_seconds_per_log * std::log(std::max(b, 2 * target()) / target());
  const double pull = sweep_seconds_per_edge > 0 ? sweeps_for(b) * sweep_seconds_per_edge * double(m) : unknown;
  const double cold = cold_seconds_per_edge > 0 ? cold_seconds_per_edge * double(m) : unknown;
  if (std::min(pull, cold) > pull_share * push) return way::push;
  why << (pull <= cold ? "pulled: power iterations from the last scores" : "from scratch: a run")
      << " predicted to take " << std::min(pull, cold) * 1e3 << " ms, pushes " << push * 1e3 << " ms (bound at "
      << b / target() << "x the target)";
  return pull <= cold ? way::pull : way::cold;
}

template <class S>
dynamic_pagerank<S>::dynamic_pagerank(const pagerank_options& opt) : s_(std::make_unique<state>(opt)) {}
template <class S>
dynamic_pagerank<S>::~dynamic_pagerank() = default;
template <class S>
dynamic_pagerank<S>::dynamic_pagerank(dynamic_pagerank&&) noexcept = default;
template <class S>
dynamic_pagerank<S>& dynamic_pagerank<S>::operator=(dynamic_pagerank&&) noexcept = default;

template <class S>
void dynamic_pagerank<S>::adopt(const dcsr_matrix<pattern, S>& out, const dcsr_matrix<pattern, S>* in,
                                const std::vector<double>& scores) {
  state& s = *s_;
  s.ensure(out.rows());
  s.start_from(out, in, scores);
  s.known = true;
  s.changed = 0;
  s.armed = false;
}

template <class S>
void dynamic_pagerank<S>::before(const dcsr_matrix<pattern, S>& out, const coo_matrix<pattern, S>* ins,
                                 const coo_matrix<pattern, S>* del) {
  state& s = *s_;
  s.armed = !s.known;  // nothing to seed when the next update starts over
  if (!s.known) return;
  const auto rows = [](const coo_matrix<pattern, S>* b) { return b && b->nnz > 0 ? b->row.data() : nullptr; };
  const auto cols = [](const coo_matrix<pattern, S>* b) { return b && b->nnz > 0 ? b->col.data() : nullptr; };
  const auto size = [](const coo_matrix<pattern, S>* b) { return b ? std::size_t(b->nnz) : std::size_t(0); };
  s.keys = state::K::keys(rows(ins), cols(ins), size(ins), rows(del), cols(del), size(del));
  s.was = array<std::uint8_t, S>(s.keys.size());
  state::K::holds(out.view(), out.pair_index(), s.keys.data(), s.keys.size(), s.was.data());
  s.armed = true;  // only once the probe is done: a throw leaves it unarmed
}

template <class S>
void dynamic_pagerank<S>::after(const dcsr_matrix<pattern, S>& out) {
  state& s = *s_;
  if (!s.armed) {  // a batch this object did not see before it landed
    s.known = false;
    return;
  }
  s.armed = false;
  s.ensure(out.rows());
  if (!s.known) return;  // the next update starts over anyway
  s.known = false;       // until the residual holds the batch: a throw leaves it to start over
  array<std::uint8_t, S> is(s.keys.size());
  state::K::holds(out.view(), out.pair_index(), s.keys.data(), s.keys.size(), is.data());
  s.changed += state::K::seed(s.keys.data(), s.was.data(), is.data(), s.keys.size(), out.view().sizes, s.n,
                              s.net.data(), s.y.data(), s.r.data(), s.damping());
  s.known = true;
}

template <class S>
const dynamic_pagerank_stats& dynamic_pagerank<S>::update(const dcsr_matrix<pattern, S>& out,
                                                          const dcsr_matrix<pattern, S>* in) {
  state& s = *s_;
  const auto t0 = clock_type::now();
  s.ensure(out.rows());
  s.st = {};
  s.st.changed = s.changed;
  s.st.target = s.target();
  const offset_t m = out.nnz();
  std::ostringstream why;
  why.precision(3);
  const bool known = s.known;
  bool chosen = false;  // pulled or started over by the cost model
  std::optional<typename state::reading> now;  // of y and r as they are, where already read
  s.known = false;  // until the update is whole: a throw (a push round half done) leaves it to start over
  if (s.n == 0) {
    why << "no vertices";
  } else if (!known) {
    why << "from scratch: no scores to start from";
    s.cold(out, in);
  } else if (double(s.changed) > cold_share * double(std::max<offset_t>(m, 1))) {
    why << "the batches changed " << s.changed << " of " << m << " edges (over " << cold_share << "): ";
    // Without an in-edge store a run from scratch is sweeps from y = 1: sweeps from the kept
    // scores (whose residual the batches kept exact) do the same from a better start.
    if (in) why << "from scratch", s.cold(out, in);
    else why << "swept from the kept scores", now = s.sweep(out, nullptr, s.read(out.view().sizes));
  } else {
    now = s.read(out.view().sizes);
    const way w = now->bound <= s.target() ? way::push : s.choose(m, now->bound, why);
    chosen = w != way::push;
    if (now->bound <= s.target()) why << "within the bound already: " << now->bound << " <= " << s.target();
    else if (w == way::pull) now = s.sweep(out, in, *now);
    else if (w == way::cold) s.cold(out, in), now.reset();
    else why << "pushed from the " << s.changed << " edges the batches changed";
  }
  if (s.st.cold || s.st.pulled) why << " (" << s.cold_kernel << ", " << s.st.cold_iterations << " iterations), then pushed";
  const auto t_push = clock_type::now();
  s.st.bound = s.n > 0 ? s.converge(out, now ? *now : s.read(out.view().sizes)) : 0.0;
  s.tally(since(t_push), chosen);
  s.known = true;
  s.st.reason = why.str();
  s.changed = 0;
  memory::synchronize();
  s.st.seconds = since(t0);
  return s.st;
}

template <class S>
pagerank_result dynamic_pagerank<S>::result() const {
  const state& s = *s_;
  pagerank_result p;
  p.iterations = s.st.cold_iterations + s.st.levels;
  p.converged = s.st.bound <= s.st.target;
  p.last_change = s.st.bound;
  p.seconds = s.st.seconds;
  p.kernel = s.st.cold || s.st.pulled ? s.cold_kernel + "+push" : "push";
  p.kernel_reason = s.st.reason;
  if (s.n == 0 || !s.known) return p;
  p.score = s.normalised(s.mass);
  return p;
}

template <class S>
std::vector<std::pair<vertex_t, double>> dynamic_pagerank<S>::top(std::size_t k) const {
  state& s = *s_;
  std::vector<std::pair<vertex_t, double>> best;
  if (k == 0 || s.n == 0 || !s.known) return best;
  // Candidates over a floor: half the last k-th best (the scores move little between batches),
  // else the mean; lowered until k are in.
  double floor = k >= std::size_t(s.n) ? 0.0 : s.top_floor > 0 ? s.top_floor : s.mass / double(s.n);
  array<double, S> value(std::size_t(s.n));
  vertex_t c = 0;
  for (;;) {
    c = state::K::at_least(s.y.data(), s.n, floor, s.list.data(), value.data());
    if (std::size_t(c) >= k || floor == 0) break;
    floor = floor > 1e-300 ? floor / 4 : 0;
  }
  const std::vector<vertex_t> id = read_many<S>(s.list.data(), std::size_t(c));
  const std::vector<double> y = read_many<S>(value.data(), std::size_t(c));
  best.resize(std::size_t(c));
  for (std::size_t i = 0; i < best.size(); ++i) best[i] = {id[i], y[i] / s.mass};
  best_first(best, k);
  if (!best.empty()) s.top_floor = best.back().second * s.mass / 2;
  return best;
}

template <class S>
std::size_t dynamic_pagerank<S>::bytes() const noexcept {
  const state& s = *s_;
  return s.y.bytes() + s.r.bytes() + s.hub_share.bytes() + s.net.bytes() + s.mark.bytes() + s.hub_left.bytes() +
         s.list.bytes() + s.keys.bytes() + s.was.bytes();
}

template <class S>
const dynamic_pagerank_stats& dynamic_pagerank<S>::stats() const noexcept { return s_->st; }

template <class S>
void dynamic_pagerank<S>::prefer(update_path p) noexcept { s_->path = p; }

template <class S>
void dynamic_pagerank<S>::invalidate() noexcept {
  s_->known = false;
  s_->armed = false;
  s_->changed = 0;
}

template <class S>
double dynamic_pagerank<S>::residual_drift(const dcsr_matrix<pattern, S>& out, const dcsr_matrix<pattern, S>* in) const {
  const state& s = *s_;
  array<double, S> exact(std::size_t(s.n));
  s.exact_residual(out, in, exact);
  const std::vector<double> a = to_vector(exact), b = to_vector(s.r);
  double worst = 0;
  for (std::size_t v = 0; v < a.size(); ++v) worst = std::max(worst, std::fabs(a[v] - b[v]));
  return worst;
}

template class dynamic_pagerank<host_space>;
template class dynamic_pagerank<device_space>;

}  // namespace fg
