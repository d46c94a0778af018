// The cost model behind select_kernel (read/cost_model.hpp): nearest calibration matrices, scaled
// by bytes. Bytes follow CMRS Eq. (6.1) (matrix once, x and y once: beta+).
#include "read/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/error.hpp"
#include "read/kernel_table.hpp"

namespace fg {

namespace {
// The nearest neighbour alone, skew weighted 2, size 1/2, tail 2: with the tail feature one close
// neighbour beats an average of two (leave-one-out on five H100 point sets, docs/perf-journal.md,
// 2026-11-22: K in 1-3 x skew {1, 2} x tail {1, 2, 3}; K = 1, 2, 2 was best with and without the
// calibration set).
constexpr int neighbours = 1;
constexpr double fixed_floor_us = 5;  // below this a time is launch + latency, which does not scale with bytes
// A conversion's fixed part (allocations, a few launches, host reads): does not scale with bytes either
// (a 64K-row calibration matrix converts in 100-400 us whatever its size).
constexpr double convert_floor_us = 100;

double beta_bytes(double stored_value_bytes, int value_bytes, double rows, double nnz) {
  return (stored_value_bytes + 4) * nnz + 8 * rows + 2.0 * value_bytes * rows;
}

struct features {
  double f[4];
  double beta;
  bool pattern = false;  // the query's matrix stores no values
  double mu = 0, max_row = 0;  // for the longest row's walk (walk_bound_us)
};

// A row's lanes in the kernels that give each row a fixed share of a warp: DCSR and CSR-vector a
// sub-warp of W (the power of two >= mu in [2, 32]), CSR-scalar one thread; 0 for
// the kernels that split long rows (merge, adaptive, SELL/HYB/CMRS slices, SURAA, ADCSR bins).
double row_lanes(const std::string& kernel, double mu) {
  const read_kernel* k = find_kernel(kernel);
  if (k == nullptr || k->share == row_share::split) return 0;
  if (k->share == row_share::thread) return 1;
  double w = 2;
  while (w < mu && w < 32) w *= 2;
  return w;
}

// The longest row in sub-warp steps of the CSR-vector kernels (W = the power of two >= mu in [2, 32]),
// log2: the serial work of the last warp. A hub row of 6,809 on git_web_ml (mu 7.7) keeps one warp
// busy for 37 us while csr_merge reads the whole matrix in 14: mu and sigma/mu do not show it (H100).
// NaN when the longest row is not known (points written before it was recorded): not compared then.
double tail_steps(double mu, double max_row) {
  if (!(max_row > 0)) return std::numeric_limits<double>::quiet_NaN();
  return std::log2(std::max(1.0, max_row / row_lanes("csr_vector", mu)));
}

// Row length (log2 mu), skew (log2(1 + sigma/mu), weighted 2: it separates the formats most), size
// (log2 bytes, weighted 1/2: bytes are also scaled for explicitly) and tail (tail_steps, weighted 2).
features features_of(double mu, double sigma, double beta, double max_row) {
  const double cv = mu > 0 ? sigma / mu : 0;
  return {{std::log2(std::max(mu, 1.0)), 2 * std::log2(1 + cv), 0.5 * std::log2(std::max(beta, 1.0)), 2 * tail_steps(mu, max_row)},
          beta};
}

double point_beta(const calibration_point& p) {
  return beta_bytes(p.pattern ? 0 : p.value_bytes, p.value_bytes, p.rows, p.nnz);
}

double distance(const features& a, const features& b) {
  double d = 0;
  for (int i = 0; i < 4; ++i)
    if (!std::isnan(a.f[i]) && !std::isnan(b.f[i])) d += (a.f[i] - b.f[i]) * (a.f[i] - b.f[i]);
  return std::sqrt(d);
}

struct prediction {
  bool ok = false;
  double spmv_us = 0, convert_us = 0;
  std::vector<std::string> from;
};

struct neighbour {
  double shape, size;  // distance to the query: in the features, and in log2 bytes alone
  const calibration_point* p;
};

// Every calibration point's distances to the query, in two orders: nearest in shape first and
// nearest in size first. Computed once per query and walked by every kernel's prediction, which
// stops at its first k points that measured the kernel: a selection looks at a few points per
// kernel, not at every point's kernel map (that lookup was most of a selection's time).
struct neighbourhood {
  std::vector<neighbour> all;
  std::vector<const neighbour*> by_shape, by_size;  // into `all`: not copyable
  neighbourhood(const neighbourhood&) = delete;
  neighbourhood& operator=(const neighbourhood&) = delete;
  neighbourhood(const calibration& c, const features& q) {
    all.reserve(c.points.size());
    for (const auto& p : c.points) {
      const double beta = point_beta(p);
      all.push_back({distance(q, features_of(p.mu, p.sigma, beta, p.max_row)), std::fabs(std::log2(q.beta) - std::log2(beta)), &p});
    }
    for (const auto& n : all) by_shape.push_back(&n);
    by_size = by_shape;
    std::stable_sort(by_shape.begin(), by_shape.end(), [](const neighbour* a, const neighbour* b) { return a->shape < b->shape; });
    std::stable_sort(by_size.begin(), by_size.end(), [](const neighbour* a, const neighbour* b) { return a->size < b->size; });
  }
};

// The first k points in `order` that measured `kernel` on a matrix of the query's kind (pattern or
// valued) with vectors of value_bytes; if none did, of either kind with those vectors; then any.
std::vector<const calibration_point*> nearest(const std::vector<const neighbour*>& order, const std::string& kernel,
                                              int value_bytes, bool pattern, std::size_t k) {
  std::vector<const calibration_point*> near;
  for (int pass = 0; pass < 3 && near.empty(); ++pass)
    for (const neighbour* n : order) {
      const bool fits = pass == 2 || (n->p->value_bytes == value_bytes && (pass == 1 || n->p->pattern == pattern));
      if (!fits || !n->p->kernels.count(kernel)) continue;
      near.push_back(n->p);
      if (near.size() == k) break;
    }
  return near;
}

// Geometric mean over `near` of one measured time of `kernel`, each with its part above `floor`
// scaled by the query's bytes over the point's.
double scaled_mean(const std::vector<const calibration_point*>& near, const std::string& kernel, double beta,
                   double measured_kernel::*time, double floor) {
  double log_sum = 0;
  for (const calibration_point* p : near) {
    const double t = p->kernels.at(kernel).*time;
    const double scale = beta / point_beta(*p);
    const double f = std::min(t, floor);
    log_sum += std::log(std::max(1e-3, f + (t - f) * scale));
  }
  return std::exp(log_sum / double(near.size()));
}

// The serial walk of the longest row bounds such a kernel's read from below, whatever the bytes:
// max_row / lanes dependent steps. A step costs the least that any calibration point of the query's
// kind paid (its time over its own longest walk), a bound no point contradicts. Why: git_web_ml (one
// row of 6,809, mu 7.7) reads by DCSR in 60 us; its nearest point, rmat-18-ef16, scaled down by
// bytes said 11, and auto stayed on DCSR; 851 steps x 63 ns (rmat-14-ef4) = 54 us. Leave-one-out on
// three H100 point sets (bench + calibration): within 10% on 287 of 306 at 100 reads instead of 284.
// `nearest` (the point the read was scaled from) caps the bound first: when even its step cost does
// not reach `scaled`, no smaller one will, and the walk over every point (6 us) is skipped.
double walk_bound_us(const neighbourhood& hood, const std::string& kernel, int value_bytes, const features& q,
                     const calibration_point& nearest, double scaled) {
  const double lanes = row_lanes(kernel, q.mu);
  if (lanes == 0 || !(q.max_row > 0) || !(nearest.max_row > 0)) return 0;
  const double cap = nearest.kernels.at(kernel).spmv_us * row_lanes(kernel, nearest.mu) / nearest.max_row;
  if (cap * q.max_row / lanes <= scaled) return 0;
  double step = cap;
  for (const neighbour& n : hood.all) {
    const calibration_point& p = *n.p;
    if (p.value_bytes != value_bytes || p.pattern != q.pattern || !(p.max_row > 0)) continue;
    const auto it = p.kernels.find(kernel);
    if (it != p.kernels.end()) step = std::min(step, it->second.spmv_us * row_lanes(kernel, p.mu) / p.max_row);
  }
  return step * q.max_row / lanes;
}

// A kernel's SpMV and conversion time on the query, from the nearest points that measured it: the
// part of a time above the fixed floor scales with bytes; neighbours are averaged geometrically.
prediction predict(const neighbourhood& hood, const std::string& kernel, int value_bytes, const features& q) {
  const double beta = q.beta;
  prediction r;
  const auto by_shape = nearest(hood.by_shape, kernel, value_bytes, q.pattern, neighbours);
  if (by_shape.empty()) return r;
  for (const calibration_point* p : by_shape) r.from.push_back(p->matrix);
  r.spmv_us = scaled_mean(by_shape, kernel, beta, &measured_kernel::spmv_us, fixed_floor_us);
  r.spmv_us = std::max(r.spmv_us, walk_bound_us(hood, kernel, value_bytes, q, *by_shape.front(), r.spmv_us));
  // A conversion is copies, scans and sorts: its time follows the size, not the row shape. So it is
  // read off the points nearest in bytes alone (the shape's neighbours can be 10-100x larger, and
  // scaling down by bytes overstated small conversions 2-10x: bench select --detail on H100 points).
  // Leave-one-out on five H100 point sets: within 10% at 10 reads on 64-67 of 68 instead of 62-64.
  r.convert_us = scaled_mean(nearest(hood.by_size, kernel, value_bytes, q.pattern, neighbours), kernel, beta,
                             &measured_kernel::convert_us, convert_floor_us);
  r.ok = true;
  return r;
}

features query(const matrix_profile& p, int value_bytes) {
  const double sv = p.value_type == "pattern" ? 0.0 : (p.value_type == "float" ? 4.0 : 8.0);
  features q = features_of(p.mu, p.sigma, beta_bytes(sv, value_bytes, double(p.rows), double(p.nnz)), double(p.max_row));
  q.pattern = p.value_type == "pattern";
  q.mu = p.mu;
  q.max_row = double(p.max_row);
  return q;
}
}  // namespace

double dcsr_read_factor(const matrix_profile& p) {
  // A step, then a slope. A packed store (no row with a second segment) is read by the CSR-like
  // fast path; any second segment anywhere sends every row through the segment walk, whose cost is
  // mostly the extra dependent loads, not the segment count: one run read a defragmented store
  // without the fast path as slowly as a fragmented one (1.76-1.9x CSR), and another measured
  // fragmented stores at 1.47-1.94x (H100, docs/perf-journal.md, 2026-11-22). So 1.6x from the
  // first extra segment, and 0.5x per further segment per row on average.
  if (p.segments_per_row <= 1.0) return 1.0;
  return std::max(1.6, 1.0 + 0.5 * (p.segments_per_row - 1.0));
}

double predict_spmv_ms(const matrix_profile& p, int value_bytes, const std::string& kernel, const calibration& c,
                       std::vector<std::string>* nearest) {
  FG_EXPECTS(value_bytes == 4 || value_bytes == 8, "predict_spmv_ms: value_bytes must be 4 or 8");
  const features q = query(p, value_bytes);
  const prediction pr = predict(neighbourhood(c, q), kernel, value_bytes, q);
  if (!pr.ok) return 0;
  if (nearest) *nearest = pr.from;
  return pr.spmv_us * 1e-3 * (kernel_named(kernel).in_place ? dcsr_read_factor(p) : 1.0);
}

const std::vector<std::string>& selectable_kernels() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const read_kernel& k : read_kernels()) n.push_back(k.name);
    return n;
  }();
  return names;
}

std::vector<kernel_estimate> estimate_kernels(const matrix_profile& p, int value_bytes, const calibration& c) {
  FG_EXPECTS(value_bytes == 4 || value_bytes == 8, "select_kernel: value_bytes must be 4 or 8");
  const features q = query(p, value_bytes);
  const bool packed = p.segments_per_row <= 1.0 && p.gap_fraction <= 0.0;
  // Any format but DCSR itself is built from a CSR snapshot of the store (make_view): a CSR copy when
  // packed (csr_vector's measured conversion is exactly that), a compaction (~2 copies) when fragmented.
  const neighbourhood all(c, q);
  const prediction copy = predict(all, "csr_vector", value_bytes, q);
  const double snapshot_ms = !copy.ok ? 0.0 : (packed ? 1.0 : 2.0) * copy.convert_us * 1e-3;
  std::vector<kernel_estimate> out;
  for (const read_kernel& k : read_kernels()) {
    kernel_estimate e;
    e.kernel = k.name;
    e.bytes = q.beta;
    const prediction pr = predict(all, k.name, value_bytes, q);
    e.why_not = pr.ok ? why_not(k, p.rows, p.cols) : "not in the calibration";
    e.feasible = e.why_not.empty();
    if (e.feasible) {
      e.nearest = pr.from;
      e.spmv_ms = pr.spmv_us * 1e-3;
      if (k.in_place) e.spmv_ms *= dcsr_read_factor(p);
      // DCSR reads the store; so does ADCSR when the store is laid out by size (spmv_binned).
      const bool in_place = k.in_place || (k.in_place_sized && p.size_ordered);
      e.convert_ms = in_place ? 0.0 : snapshot_ms + (k.is_snapshot ? 0.0 : pr.convert_us * 1e-3);
    }
    out.push_back(e);
  }
  return out;
}

selection select_kernel(std::vector<kernel_estimate> estimates, const matrix_profile& p, double reads,
                        const std::string& forced) {
  FG_EXPECTS(reads >= 1, "select_kernel: expected reads must be >= 1");
  if (forced != "auto") kernel_named(forced);  // throws for an unknown name
  selection s;
  s.estimates = std::move(estimates);
  for (auto& e : s.estimates) e.total_ms = e.feasible ? e.convert_ms + reads * e.spmv_ms : 0.0;
  std::stable_sort(s.estimates.begin(), s.estimates.end(), [](const kernel_estimate& a, const kernel_estimate& b) {
    if (a.feasible != b.feasible) return a.feasible;
    return a.total_ms < b.total_ms;
  });
  FG_EXPECTS(!s.estimates.empty() && s.estimates.front().feasible, "select_kernel: the calibration has no points for any kernel");
  const kernel_estimate& best = s.estimates.front();
  const bool packed = p.segments_per_row <= 1.0 && p.gap_fraction <= 0.0;
  std::ostringstream why;
  why.precision(3);
  if (forced != "auto") {
    s.kernel = forced;
    why << "forced by --kernel " << forced << " (the model would pick " << best.kernel << ")";
  } else {
    s.kernel = best.kernel;
    const kernel_estimate& next = s.estimates.size() > 1 ? s.estimates[1] : best;
    const double cv = p.mu > 0 ? p.sigma / p.mu : 0;
    why << "lowest predicted total for " << std::llround(reads) << " read" << (reads == 1 ? "" : "s") << ": " << best.total_ms
        << " ms (convert " << best.convert_ms << " + " << std::llround(reads) << " x " << best.spmv_ms << ") vs " << next.kernel << " "
        << next.total_ms << " ms; rows " << (cv < 1 ? "regular" : "skewed") << " (sigma/mu " << cv << "), like";
    for (std::size_t i = 0; i < best.nearest.size(); ++i) why << (i ? ", " : " ") << best.nearest[i];
    if (!packed) why << "; store fragmented";
    if (kernel_named(best.kernel).in_place_sized && p.size_ordered) why << "; the store is laid out by size: ADCSR reads it, no copy";
  }
  s.reason = why.str();
  return s;
}

selection select_kernel(const matrix_profile& p, int value_bytes, double reads, const calibration& c,
                        const std::string& forced) {
  return select_kernel(estimate_kernels(p, value_bytes, c), p, reads, forced);
}

std::vector<std::string> race_contenders(const selection& s, double reads, const race_rule& rule) {
  std::vector<std::string> c = {s.kernel};
  if (s.estimates.empty() || s.estimates.front().kernel != s.kernel) return c;  // forced: not raced
  const kernel_estimate& best = s.estimates.front();
  double extra_ms = 0;
  for (std::size_t i = 1; i < s.estimates.size() && int(c.size()) < rule.max_contenders; ++i) {
    const kernel_estimate& e = s.estimates[i];
    if (!e.feasible || e.total_ms > rule.spread * best.total_ms) break;  // sorted: the rest are further off
    if (extra_ms + e.convert_ms > rule.budget * best.total_ms) continue;  // too dear to build; a cheaper one may fit
    if (double(rule.probes) * double(c.size() + 1) > rule.probe_share * reads) break;  // probing would be the phase
    extra_ms += e.convert_ms;
    c.push_back(e.kernel);
  }
  return c;
}

double estimate_reads_left(const std::vector<double>& changes, double tol, double fallback, double max_left,
                           double slowest) {
  double left = fallback;
  if (changes.size() >= 2) {
    const double last = changes.back();
    double ratio = last / changes[changes.size() - 2];
    // Early iterations damp the fast modes first, so the rate so far is faster than the rate to come,
    // which `slowest` bounds: the mean of the two logs. At PageRank's third iteration on 11 graphs
    // the reads left came out 0.4-1.9x the real count (mean |log error| 0.39) against 0.24-1.03x
    // from the rate so far alone (0.53): cnr-2000 21 of 38, not 13 (H100, docs/perf-journal.md).
    if (slowest > ratio && slowest < 1 && ratio > 0) ratio = std::sqrt(ratio * slowest);
    if (last <= tol) left = 1;
    else if (ratio > 0 && ratio < 1) left = std::ceil(std::log(tol / last) / std::log(ratio));
  }
  return std::clamp(left, 1.0, std::max(1.0, max_left));
}

}  // namespace fg
