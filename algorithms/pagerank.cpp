// PageRank by power iteration (networkx.pagerank semantics): damping d, uniform teleport, dangling
// mass spread uniformly, stop when the L1 change < tol * n. Each iteration is one plus-times SpMV
// over the in-edge store (pull: no atomics) and one fused vector pass.
#include "algorithms/pagerank.hpp"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "algorithms/detail/pagerank_kernels.hpp"
#include "core/error.hpp"
#include "core/semiring.hpp"
#include "core/stopwatch.hpp"
#include "read/cost_model.hpp"
#include "read/profile.hpp"
#include "read/race.hpp"
#include "read/views.hpp"
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

namespace {
/// A read with float x against the calibration's double-x read of the same kernel (see pagerank()).
constexpr double mixed_read_factor = 0.92;
}  // namespace

double pagerank_expected_reads(const pagerank_options& opt, vertex_t n) {
  const double prior = opt.damping > 0 ? std::ceil(std::log(opt.tol * n / 2) / std::log(opt.damping)) : 1.0;
  return std::clamp(prior, 1.0, double(opt.max_iter));
}

template <class V, class S>
pagerank_result pagerank(const dcsr_matrix<V, S>& At, const pagerank_options& opt, const pagerank_start& start) {
  validate(opt);
  using P = detail::pagerank_kernels<S>;
  const vertex_t n = At.rows();
  pagerank_result res;
  if (n == 0) {
    res.converged = true;
    return res;
  }
  // The read-heavy phase. With --kernel auto the first iterations read the store as it is (no
  // conversion) while the convergence rate is measured; then the selector chooses for the reads that
  // rate predicts (read/cost_model.hpp, estimate_reads_left). A priori the L1 change (at most 2)
  // contracts by at least d per iteration: about ln(tol n / 2) / ln(d) reads, the estimate's fallback.
  const auto tv = std::chrono::steady_clock::now();
  const double tol_n = opt.tol * n;
  const double reads = pagerank_expected_reads(opt, n);
  const bool deferred = opt.kernel == "auto";
  const matrix_profile prof = profile(At);
  // Every kernel's predicted read and conversion, once: a choice made later only ranks them for the
  // reads left (the neighbour search is most of a selection's ~20 us, and it was made up to 4 times).
  auto tsel = std::chrono::steady_clock::now();
  std::vector<kernel_estimate> model = estimate_kernels(prof, 8, *load_calibration(device_description()));
  // x as float for the reads that can take it (pagerank_options::mixed_precision). The calibration
  // times pattern reads with double x only; a read with float x gathers half the bytes of x and
  // measured 0.92x the double read on the H100 where the gathers miss (csr_merge, rmat-24;
  // docs/architecture.md, "Float reads"). Without it, auto read rmat-22's store for its 3 probe
  // iterations and ran at 1.29x forced csr_merge end to end.
  const bool mixed_ok = opt.mixed_precision && opt.tol * n >= std::ldexp(1.0, -16);
  if (mixed_ok)
    for (auto& e : model)
      if (kernel_named(e.kernel).mixed) e.spmv_ms *= mixed_read_factor;
  res.decide_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - tsel).count();
  res.kernel = "dcsr";
  res.kernel_reason = "the store itself while the convergence rate is measured";
  constexpr int probe = 3;  // iterations on the store before choosing: two contraction ratios
  if (deferred) {
    // A view that pays for itself within the probe's own reads beats the store for any longer run
    // too (a lower read cost), so it is built at once; the probe then runs on it. rmat-24 (session
    // 32): csr_merge's build and 3 reads, 3.6 + 3 x 2.4 ms, against DCSR's 3 x 4.0.
    const selection early = select_kernel(model, prof, probe);
    if (early.kernel != "dcsr") {
      res.kernel = early.kernel;
      res.kernel_reason = "pays for itself within the first " + std::to_string(probe) + " reads: " + early.reason;
    }
  } else {  // a forced kernel still gets the model's view of it in the reason
    const selection sel = select_kernel(model, prof, reads, opt.kernel);
    res.kernel = sel.kernel;
    res.kernel_reason = sel.reason;
  }
  spmv_view<V, S> view = make_view(At, res.kernel);
  auto note_in_place = [&] {  // ADCSR over a size-ordered store reads it with no copy: say so
    if (view.reads_store && res.kernel != "dcsr") res.kernel_reason += "; reads the size-ordered store itself, no copy";
  };
  note_in_place();
  res.view_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - tv).count();
  const auto t0 = std::chrono::steady_clock::now();  // the out-weights pass is PageRank's, not the view's
  array<double, S> out_w(n), rank(n), scaled(n), y(n);
  // x as float: allocated at the first such read; `in32` says which of scaled / scaled32 holds x now.
  array<float, S> scaled32;
  bool in32 = false;
  if (is_pattern_v<V> && start.out_degree) P::from_degrees(start.out_degree, out_w.data(), n);
  else P::template out_weights<V>(At.view(), out_w.data(), n);
  if constexpr (!is_pattern_v<V>) {
    // A negative out-weight would make the "probabilities" negative: not a Markov chain.
    for (double w : to_vector(out_w))
      FG_EXPECTS(w >= 0, "pagerank: weighted PageRank needs non-negative edge weights");
  }
  double dangling = 0;
  if (start.initial.empty()) {
    dangling = P::init(rank.data(), scaled.data(), out_w.data(), n);
  } else {
    rank = to_space<S>(warm_start(start.initial, n));
    dangling = P::resume(rank.data(), scaled.data(), out_w.data(), n);
  }
  const double d = opt.damping;
  std::vector<double> changes;
  double rebuilt = 0;  // seconds of views built mid-run: counted in view_seconds, not in seconds
  int it = 0;
  double store_read = std::numeric_limits<double>::infinity();  // fastest warm iteration on the store
  double store_spmv = store_read;                                // its SpMV alone, once
  // The vectors' order: the store's (null), or the renumbered order of the view last read (dbg_*
  // views): they move once when a view of another order is read, not at every read.
  std::shared_ptr<const vertex_order<S>> order;
  auto follow = [&](const std::shared_ptr<const vertex_order<S>>& to) {
    if (to == order) return;
    array<double, S> moved;
    for (array<double, S>* a : {&rank, &scaled, &out_w}) {
      if (order) from_order(*order, *a, moved), std::swap(*a, moved);
      if (to) to_order(*to, *a, moved), std::swap(*a, moved);
    }
    order = to;
  };
  // One iteration with view v; false when the run is over (converged or out of iterations).
  device_stopwatch spmv_watch;
  auto iterate = [&](const spmv_view<V, S>& v) {
    const bool mixed = mixed_ok && v.run_mixed && !v.order;
    if (in32 && !mixed) P::to_double(scaled32.data(), scaled.data(), n), in32 = false;
    follow(v.order);
    if (mixed && !in32) {
      if (scaled32.empty()) scaled32 = array<float, S>(std::size_t(n));
      P::to_float(scaled.data(), scaled32.data(), n);
      in32 = true;
    }
    const auto t = std::chrono::steady_clock::now();
    // Every read's device time (events), read after the update has waited anyway: no wait of its
    // own, no host time in it. The store's own read on the warm probe iterations (the faster of two)
    // also replaces the model's, which comes from the nearest calibration matrix.
    const bool timed = deferred && it > 0 && it < probe && v.kernel == "dcsr";
    spmv_watch.start();
    if (mixed) v.run_mixed(scaled32, y), ++res.mixed_reads;
    else (v.order ? v.run_ordered : v.run)(scaled, y);
    spmv_watch.stop();
    const double base = (d * dangling + (1.0 - d)) / n;
    // The next x in the precision this read took: the view rarely changes between reads.
    const detail::pagerank_sums s =
        P::update(y.data(), rank.data(), scaled.data(), in32 ? scaled32.data() : nullptr, out_w.data(), n, d, base);
    const double read = spmv_watch.seconds();
    res.read_seconds += read;
    if (timed) store_spmv = std::min(store_spmv, read);
    if (it > 0 && v.kernel == "dcsr")  // the first read runs cold; the update's sums end on the host (synchronous)
      store_read = std::min(store_read, std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
    dangling = s.dangling;
    res.iterations = ++it;
    res.last_change = s.change;
    if (opt.progress) opt.progress(it, s.change);
    if (s.change < tol_n) {
      res.converged = true;
      return false;
    }
    changes.push_back(s.change);
    return it < opt.max_iter;
  };
  // After the probe: the selector's choice for the reads left; where its leaders are too close for
  // the model to tell, a race on the next iterations settles it (read/race.hpp). The reads left
  // come from the contraction so far, which early iterations overstate (Slashdot: 0.39 per iteration
  // at the third, 0.6-0.85 later), so the choice is made again whenever the run outlives its
  // estimate; a kernel already raced is not raced again. Returns false when the run ended in a race.
  std::vector<std::string> raced;
  int next_choice = probe;
  std::ostringstream log;  // every decision, in order: the reason a user reads
  log.precision(3);
  if (deferred && res.kernel != "dcsr") log << "at the start, " << res.kernel << " " << res.kernel_reason;
  std::string measured;  // DCSR's measured read, once it replaced the model's
  // The model's cheapest kernel for `left` reads: a comparison of 12 totals, no strings. A later
  // check that finds the view in use still cheapest ends there: on the GPU host each full decision
  // (ranking, reason, race rule) took 20-50 us, and a run made up to 4 (H100: 0.07-0.15 ms of
  // decisions where auto and forced dcsr differed by 0.05-0.13 ms).
  auto cheapest = [&](double left) {
    const kernel_estimate* best = nullptr;
    for (const auto& e : model)
      if (e.feasible && (!best || e.convert_ms + left * e.spmv_ms < best->convert_ms + left * best->spmv_ms)) best = &e;
    return best ? best->kernel : view.kernel;
  };
  auto choose = [&]() {
    tsel = std::chrono::steady_clock::now();
    const double left = estimate_reads_left(changes, tol_n, reads - probe, opt.max_iter - it, d);
    next_choice = it + int(std::ceil(left)) + 1;
    if (it == probe) {
      // DCSR's read as measured replaces the model's when the two differ by more than a quarter:
      // the nearest point can be another graph (cnr-2000's in-edge store read like rmat-20's in run
      // 33: 0.05 ms predicted, 0.08 measured, and auto stayed on DCSR at 1.7x csr_adaptive).
      const double read_ms = 1e3 * store_spmv;
      for (auto& e : model)
        if (e.kernel == "dcsr" && e.feasible && std::isfinite(read_ms) &&
            (read_ms > 1.25 * e.spmv_ms || read_ms < e.spmv_ms / 1.25)) {
          std::ostringstream m;
          m.precision(3);
          m << "dcsr measured " << read_ms << " ms per read (model " << e.spmv_ms << "); ";
          measured = m.str();
          e.spmv_ms = read_ms;
        }
    } else if (cheapest(left) == view.kernel) {
      res.decide_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - tsel).count();
      return true;  // still the model's choice: nothing new to say
    }
    const selection again = select_kernel(model, prof, left);
    std::vector<std::string> field = race_contenders(again, left);
    if (!raced.empty()) field = {std::find(raced.begin(), raced.end(), again.kernel) != raced.end() ? view.kernel : again.kernel};
    if (field.size() == 1 && field.front() != view.kernel) {
      // Switch only for a clear predicted gain: staying costs no build, and a late switch for a few
      // reads is within the model's error (cnr-2000 on the H100: a switch at iteration 39 of 41).
      double stay = 0, go = 0;
      for (const auto& e : again.estimates) {
        if (e.kernel == view.kernel) stay = left * e.spmv_ms;
        if (e.kernel == field.front()) go = e.total_ms;
      }
      if (stay > 0 && go > 0.9 * stay) field = {view.kernel};
    }
    res.decide_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - tsel).count();
    if (field.size() == 1 && field.front() == view.kernel && it > probe) return true;  // nothing new to say
    log << (log.tellp() > 0 ? "; " : "") << "at iteration " << it << ", about " << left << " reads left (a priori "
        << reads << "): " << (it == probe ? measured : "") << again.reason;
    bool going = true;
    if (field.size() > 1) {
      race_lap known;
      known.kernel = view.kernel;
      known.read_seconds = std::isfinite(store_read) ? store_read : 0.0;
      race_outcome<V, S> r = race<V, S>(At, field, race_rule{}.probes, std::move(view), known, iterate);
      view = std::move(r.view);
      rebuilt += r.build_seconds;
      raced = field;
      going = r.finished;
      log << "; raced " << r.summary() << (r.finished ? " -> " + view.kernel : ": converged during the race");
    } else if (field.front() != view.kernel) {
      const auto t = std::chrono::steady_clock::now();
      view = make_view(At, field.front());
      rebuilt += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
      log << " -> " << view.kernel;
    } else {
      log << " -> stays " << view.kernel;
    }
    res.kernel = view.kernel;
    res.kernel_reason = log.str();
    note_in_place();
    return going;
  };
  for (bool going = true; going;) {
    going = iterate(view);
    if (going && it == next_choice && deferred) going = choose();
  }
  res.view_seconds += rebuilt;
  follow(nullptr);
  memory::synchronize();
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - rebuilt;
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
