// fluxgraph bench spmv: every kernel's median SpMV time (device timer, warm-up, >= 20 runs, x
// vectors rotated so L2 does not hold them), beta+ bytes from CMRS Eq. (6.1), GB/s, eta+ = GB/s /
// copy bandwidth measured at the start, speedup vs cuSPARSE measured in the same process,
// conversion time in SpMV units, bytes per nonzero, and the max error vs the reference.
#include <fmt/core.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>

#include "bench/baselines.hpp"
#include "bench/bench.hpp"
#include "bench/matrices.hpp"
#include "bench/spmv_kernels.hpp"
#include "bench/timer.hpp"
#include "core/error.hpp"
#include "read/cost_model.hpp"
#include "read/views.hpp"
#include "storage/cmrs.hpp"
#include "storage/dcsr.hpp"

namespace fg::bench {

namespace {
struct result {
  std::string matrix, kind, type, kernel, note;
  vertex_t rows;
  offset_t nnz;
  double mu, sigma, max_row, convert_ms, spmv_ms, gbs, eta, speedup, convert_spmvs, bytes_per_nnz, error;
  double queued_ms = 0, queued_speedup = 0;  // a read when reads are queued back to back (queued_ms)
};

struct options {
  std::string json, points;
  int runs = 25;
  bool calibrating = false;  // only the selector's kernels, no cuSPARSE baseline (fluxgraph calibrate)
  std::vector<std::string> types = {"float", "double", "pattern"}, only, specs;
};

// The selector's name of a benchmarked kernel, or "" when the selector does not offer it
// (cuSPARSE; CMRS at other strip heights): the kernel table's rows are its names.
std::string selector_name(const std::string& bench_kernel) { return find_kernel(bench_kernel) ? bench_kernel : ""; }

template <class V>
csr_matrix<V, device_space> valued_csr(const edge_list& e) {
  std::vector<V> w(e.src.size());
  std::mt19937_64 g(3);
  for (auto& v : w) v = V(std::uniform_real_distribution<double>(0.5, 1.5)(g));  // no cancellation
  dcsr_config cfg;
  cfg.dups = duplicates::collapse;  // a graph: each edge once
  auto A = dcsr_matrix<V, device_space>::from_coo(make_coo<V, device_space>(e.src, e.dst, w), e.n, e.n, cfg);
  return A.to_csr();
}

// Row-length statistics of a CSR row pointer (host copy): mu, sigma, longest row.
struct row_stats {
  double mu = 0, sigma = 0, max_row = 0;
};
row_stats stats_of(const std::vector<offset_t>& rp) {
  const std::size_t n = rp.size() - 1;
  row_stats s;
  s.mu = double(rp.back()) / double(std::max<std::size_t>(1, n));
  double s2 = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const double len = double(rp[r + 1] - rp[r]);
    s2 += (len - s.mu) * (len - s.mu);
    s.max_row = std::max(s.max_row, len);
  }
  s.sigma = std::sqrt(s2 / double(std::max<std::size_t>(1, n)));
  return s;
}

// Random x vectors, enough copies to rotate through more than L2 (50 MB on the H100) so timings are
// not cache-resident; the first is returned on the host too, for the reference product.
template <class V>
std::vector<array<V, device_space>> x_vectors(std::size_t n, double lo, std::vector<V>& x0) {
  const std::size_t copies = std::clamp<std::size_t>((100u << 20) / (n * sizeof(V) + 1) + 1, 2, 16);
  std::vector<array<V, device_space>> xs;
  std::mt19937 g(1);
  for (std::size_t c = 0; c < copies; ++c) {
    std::vector<V> h(n);
    for (auto& v : h) v = V(std::uniform_real_distribution<double>(lo, 1)(g));
    if (c == 0) x0 = h;
    xs.push_back(to_space<device_space>(h));
  }
  return xs;
}

// Builds each kernel of `names` and times the built ones round-robin (interleaved_medians), in
// groups holding at most 8 GB of built formats (rmat-24 with 8-byte values does not fit all twelve).
// A conversion is the fastest of up to three builds while they are cheap (under 2 ms together): one
// slow spell of the host inflated all of debian-deps' double conversions 2-5x in one H100 run, while a
// build of a few ms or more is long enough to average its own noise. build(name) throws fg::error
// when a format cannot hold the matrix: that kernel is skipped, saying why. done(name, built,
// convert ms, SpMV ms) checks and reports, in the order of names.
template <class Built, class Vec>
void build_and_time(device_timer& t, int runs, const std::vector<std::string>& names,
                    const std::function<Built(const std::string&)>& build, const std::vector<Vec>& xs, Vec& y,
                    const std::function<void(const std::string&, const Built&, double, double)>& done) {
  constexpr std::size_t budget = std::size_t(8) << 30;
  struct built {
    std::string name;
    Built b;
    double conv;
  };
  std::vector<built> group;
  std::size_t held = 0;
  auto flush = [&] {
    std::vector<std::function<void(int)>> calls;
    for (auto& g : group) calls.push_back([&g, &xs, &y](int i) { g.b.run(xs[std::size_t(i) % xs.size()], y); });
    const auto ms = interleaved_medians(t, 3, runs, calls, 20.0);
    for (std::size_t k = 0; k < group.size(); ++k) done(group[k].name, group[k].b, group[k].conv, ms[k]);
    group.clear();
    held = 0;
  };
  for (const auto& name : names) {
    Built b;
    double conv = 0, spent = 0;
    try {
      for (int i = 0; i < 3 && (i == 0 || spent < 2.0); ++i) {
        const double ms = t.time_ms([&] { b = build(name); });
        conv = i == 0 ? ms : std::min(conv, ms);
        spent += ms;
      }
    } catch (const error& ex) {  // a format that cannot hold this matrix says why and is skipped
      fmt::print("  {:<14} skipped: {}\n", name, ex.what());
      continue;
    }
    if (!group.empty() && held + b.bytes > budget) flush();
    held += b.bytes;
    group.push_back({name, std::move(b), conv});
  }
  if (!group.empty()) flush();
}

template <class V>
void bench_type(const edge_list& e, const options& o, double copy_gbs, device_timer& t, std::vector<result>& out) {
  const auto A = valued_csr<V>(e);
  const auto rp = to_vector(A.row_ptr);
  const auto col = to_vector(A.col);
  const auto val = to_vector(A.val);
  const std::size_t n = std::size_t(A.rows);
  const auto [mu, sigma, mx] = stats_of(rp);
  std::vector<V> x0;
  const auto xs = x_vectors<V>(n, -1, x0);
  std::vector<double> yref(n, 0.0), bound(n, 0.0);  // double-precision reference and |A||x| bound
  for (std::size_t r = 0; r < n; ++r)
    for (offset_t j = rp[r]; j < rp[r + 1]; ++j) {
      yref[r] += double(val[std::size_t(j)]) * double(x0[std::size_t(col[std::size_t(j)])]);
      bound[r] += std::fabs(double(val[std::size_t(j)]) * double(x0[std::size_t(col[std::size_t(j)])]));
    }
  // CMRS Eq. (6.1) with strips = rows: the bytes any kernel must move if x is cached.
  const double beta = double(sizeof(V) + 4) * double(A.nnz()) + 4.0 * double(n) + 2.0 * sizeof(V) * double(n);
  array<V, device_space> y(n);
  double base_ms = 0, base_queued_ms = 0;
  const auto kernels = spmv_kernels<V>();
  std::vector<std::string> names;
  for (const auto& k : kernels) {
    if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), k.name) == o.only.end() && k.name != "cusparse") continue;
    if (o.calibrating && selector_name(k.name).empty()) continue;
    names.push_back(k.name);
  }
  auto build = [&](const std::string& name) {
    return std::find_if(kernels.begin(), kernels.end(), [&](const auto& k) { return k.name == name; })->build(A);
  };
  auto done = [&](const std::string& name, const prepared<V>& p, double conv, double ms) {
    memory::zero_on_device(y.data(), y.bytes());
    p.run(xs[0], y);
    const auto got = to_vector(y);
    double err = 0;
    for (std::size_t r = 0; r < n; ++r) err = std::max(err, std::fabs(double(got[r]) - yref[r]) / (bound[r] + 1e-30));
    const double queued = queued_ms(t, ms, [&](int i) { p.run(xs[std::size_t(i) % xs.size()], y); });
    if (name == "cusparse") base_ms = ms, base_queued_ms = queued;
    const double gbs = beta / (ms * 1e-3) / 1e9;
    out.push_back({e.name, e.kind, sizeof(V) == 4 ? "float" : "double", name, p.note, A.rows, A.nnz(), mu, sigma, mx,
                   conv, ms, gbs, gbs / copy_gbs, base_ms > 0 ? base_ms / ms : 0.0, conv / ms,
                   double(p.bytes) / double(std::max<offset_t>(1, A.nnz())), err, queued,
                   base_queued_ms > 0 ? base_queued_ms / queued : 0.0});
    const auto& r = out.back();
    fmt::print("  {:<6} {:<14} {:>9.4f} ms {:>8.1f} GB/s  eta+ {:.3f}  x{:<6.2f} conv {:>8.2f} ms ({:>7.1f} SpMVs) {:>6.2f} B/nnz err {:.1e}"
               "  queued {:>9.4f} ms x{:<6.2f} {}\n",
               r.type, r.kernel, r.spmv_ms, r.gbs, r.eta, r.speedup, r.convert_ms, r.convert_spmvs, r.bytes_per_nnz, r.error,
               r.queued_ms, r.queued_speedup, r.note);
  };
  build_and_time<prepared<V>>(t, o.runs, names, build, xs, y, done);
}

void write_json(const std::string& path, double copy_gbs, const std::vector<result>& rs) {
  std::ofstream f(path);
  fmt::print(f, "{{\"copy_bandwidth_gbs\": {}, \"results\": [\n", copy_gbs);
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const auto& r = rs[i];
    fmt::print(f,
               "  {{\"matrix\": \"{}\", \"kind\": \"{}\", \"type\": \"{}\", \"kernel\": \"{}\", \"rows\": {}, \"nnz\": {}, "
               "\"mu\": {:.4f}, \"sigma\": {:.4f}, \"max_row\": {}, \"convert_ms\": {:.6f}, \"spmv_ms\": {:.6f}, \"gbs\": {:.3f}, "
               "\"eta_plus\": {:.4f}, \"speedup_vs_cusparse\": {:.4f}, \"convert_in_spmvs\": {:.3f}, \"bytes_per_nnz\": {:.3f}, "
               "\"max_rel_error\": {:.3e}, \"queued_ms\": {:.6f}, \"queued_speedup_vs_cusparse\": {:.4f}, \"note\": \"{}\"}}{}\n",
               r.matrix, r.kind, r.type, r.kernel, r.rows, r.nnz, r.mu, r.sigma, r.max_row, r.convert_ms, r.spmv_ms, r.gbs,
               r.eta, r.speedup, r.convert_spmvs, r.bytes_per_nnz, r.error, r.queued_ms, r.queued_speedup, r.note,
               i + 1 < rs.size() ? "," : "");
  }
  fmt::print(f, "]}}\n");
}

// PageRank's reads: a pattern store (no values) with double vectors, read through the engine's own
// views (make_view, as `pagerank --kernel NAME` builds them), so a conversion is what a phase pays:
// the CSR snapshot of the packed store plus the format's build. Only the selector's kernels.
void bench_pattern(const edge_list& e, const options& o, double copy_gbs, device_timer& t, std::vector<result>& out) {
  dcsr_config cfg;
  cfg.dups = duplicates::collapse;
  auto A = dcsr_matrix<pattern, device_space>::from_coo(make_coo<pattern, device_space>(e.src, e.dst, {}), e.n, e.n, cfg);
  A.defragment();
  const auto c = A.to_csr();
  const auto rp = to_vector(c.row_ptr);
  const auto col = to_vector(c.col);
  const std::size_t n = std::size_t(A.rows());
  const auto [mu, sigma, mx] = stats_of(rp);
  std::vector<double> x0;
  const auto xs = x_vectors<double>(n, 0, x0);  // positive: a relative error needs no |A||x| bound
  std::vector<double> yref(n, 0.0);
  for (std::size_t r = 0; r < n; ++r)
    for (offset_t j = rp[r]; j < rp[r + 1]; ++j) yref[r] += x0[std::size_t(col[std::size_t(j)])];
  const double beta = 4.0 * double(A.nnz()) + 4.0 * double(n) + 16.0 * double(n);  // Eq. (6.1), no values
  array<double, device_space> y(n);
  std::vector<std::string> names;
  for (const auto& k : selectable_kernels())
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), k) != o.only.end()) names.push_back(k);
  // A renumbered view (dbg_*) is timed as PageRank reads it: vectors in its own order, which they
  // move to once per phase, not once per read.
  auto build = [&](const std::string& k) {
    spmv_view<pattern, device_space> v = make_view(A, k);
    if (v.order) v.run = v.run_ordered;
    return v;
  };
  double snapshot_ms = 0;  // csr_vector's view is the snapshot itself: the others' builds start from it
  auto done = [&](const std::string& k, const spmv_view<pattern, device_space>& v, double conv, double ms) {
    if (k == "csr_vector") snapshot_ms = conv;
    // the conversion as the points state it: from a packed CSR (the snapshot is added by the model)
    const double own = kernel_named(k).in_place ? 0.0 : kernel_named(k).is_snapshot ? conv : std::max(0.0, conv - snapshot_ms);
    memory::zero_on_device(y.data(), y.bytes());
    if (v.order) {
      array<double, device_space> xp, yp(n);
      to_order(*v.order, xs[0], xp);
      v.run(xp, yp);
      from_order(*v.order, yp, y);
    } else {
      v.run(xs[0], y);
    }
    const auto got = to_vector(y);
    double err = 0;
    for (std::size_t r = 0; r < n; ++r) err = std::max(err, std::fabs(got[r] - yref[r]) / (yref[r] + 1e-30));
    const double gbs = beta / (ms * 1e-3) / 1e9;
    const double queued = queued_ms(t, ms, [&](int i) { v.run(xs[std::size_t(i) % xs.size()], y); });
    out.push_back({e.name, e.kind, "pattern", k, "make_view", A.rows(), A.nnz(), mu, sigma, mx, own, ms, gbs,
                   gbs / copy_gbs, 0.0, own / ms, double(v.bytes) / double(std::max<offset_t>(1, A.nnz())), err, queued,
                   0.0});
    fmt::print("  pattern {:<14} {:>9.4f} ms {:>8.1f} GB/s  eta+ {:.3f}  conv {:>8.2f} ms  err {:.1e}  queued {:>9.4f} ms\n",
               k, ms, gbs, gbs / copy_gbs, own, err, queued);
  };
  build_and_time<spmv_view<pattern, device_space>>(t, o.runs, names, build, xs, y, done);
}

// The measured results as calibration points of the kernel selector (read/cost_model.hpp);
// results with a wrong answer are left out.
calibration to_points(double copy_gbs, const std::vector<result>& rs) {
  calibration c;
  c.copy_gbs = copy_gbs;
  for (const auto& r : rs) {
    const int vb = r.type == "float" ? 4 : 8;
    const bool pat = r.type == "pattern";
    const std::string name = selector_name(r.kernel);
    if (name.empty() || !(r.error <= (vb == 4 ? 1e-4 : 1e-10))) continue;
    if (c.points.empty() || c.points.back().matrix != r.matrix || c.points.back().value_bytes != vb ||
        c.points.back().pattern != pat) {
      calibration_point p;
      p.matrix = r.matrix;
      p.value_bytes = vb;
      p.rows = double(r.rows);
      p.nnz = double(r.nnz);
      p.mu = r.mu;
      p.sigma = r.sigma;
      p.max_row = r.max_row;
      p.pattern = pat;
      c.points.push_back(p);
    }
    c.points.back().kernels[name] = {r.spmv_ms * 1e3, r.convert_ms * 1e3};
  }
  return c;
}

std::vector<result> measure(const options& o, double copy) {
  device_timer t;
  std::vector<result> rs;
  for (const auto& spec : o.specs) {
    const edge_list e = make_matrix(spec);
    fmt::print("\n{} ({}): {} rows, {} edges in the input\n", e.name, e.kind, e.n, e.src.size());
    for (const auto& ty : o.types) {
      if (ty == "float") bench_type<float>(e, o, copy, t, rs);
      else if (ty == "double") bench_type<double>(e, o, copy, t, rs);
      else if (ty == "pattern") bench_pattern(e, o, copy, t, rs);
      else throw invalid_argument("--types takes float, double and/or pattern");
    }
    // after every matrix: a cut-off run keeps its results
    if (!o.json.empty()) write_json(o.json, copy, rs);
    if (!o.points.empty()) write_calibration(to_points(copy, rs), o.points);
  }
  return rs;
}

int run_spmv(const options& o) {
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  const double copy = copy_bandwidth_gbs(std::size_t(1) << 30);
  fmt::print("device-to-device copy bandwidth (read + write): {:.1f} GB/s\n", copy);
  measure(o, copy);
  return 0;
}


// A few seconds on the device: the selector's kernels on synthetic matrices spanning short and long
// rows, regular and power-law, in two sizes (about 1-4 MB and 30-130 MB: L2-resident and not, the
// two regimes whose kernel rankings differ most), plus any matrices the user names. uniform:17:128:
// long regular rows out of L2 with enough rows to fill the GPU: 2^16 rows of 128 leave SELL / HYB
// short of warps (slowest there) while 2^18 rows make them 1.5x the fastest (H100); the points go
// to the cache file of this device, which the selector then uses instead of the built-in points.
struct calibrate_options {
  std::vector<std::string> specs;
  std::string out;
};

int run_calibrate(const calibrate_options& given) {
  options o;
  o.calibrating = true;
  o.runs = 10;
  o.specs = {"rmat:14:4", "rmat:16:16", "rmat:18:16", "rmat:16:64", "uniform:16:2", "uniform:16:8",
             "uniform:14:32", "uniform:12:128", "poisson2d:256", "poisson3d:48",
             "rmat:20:4", "rmat:20:16", "uniform:21:2", "uniform:20:8", "uniform:18:32", "uniform:16:128",
             "uniform:17:128", "poisson2d:1024", "poisson3d:100"};
  o.specs.insert(o.specs.end(), given.specs.begin(), given.specs.end());
  std::string out = given.out;
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  fmt::print("calibrate: {} matrices, every kernel, float, double and pattern ({})\n", o.specs.size(),
             std::string(device_backend_name()) == "openmp" ? "tens of minutes on a few CPU cores" : "about a minute on a GPU");
  const double copy = copy_bandwidth_gbs(std::size_t(1) << 28);
  calibration c = to_points(copy, measure(o, copy));
  if (out.empty()) out = save_calibration(c, device_description());
  else write_calibration(c, out);
  fmt::print("\ncalibration: {} points written to {}\n", c.points.size(), out);
  return 0;
}

}  // namespace

void add_spmv(CLI::App& bench, CLI::App& top, int& status) {
  auto [app, o] = subcommand<options>(bench, "spmv", "SpMV of every kernel on every matrix, float, double and pattern, against cuSPARSE (GB/s, fraction of the copy bandwidth)", status, run_spmv);
  app->add_option("--json", o->json, "write the results as JSON");
  app->add_option("--points", o->points, "write the measured points for the selector (bench select)");
  app->add_option("--runs", o->runs, "timed runs per kernel (median), at least 20")->check(CLI::Range(20, 1000000))->capture_default_str();
  app->add_option("--types", o->types, "value types, comma-separated")->delimiter(',')->allow_extra_args(false)->check(CLI::IsMember({"float", "double", "pattern"}));
  app->add_option("--kernels", o->only, "only these kernels, comma-separated")->delimiter(',')->allow_extra_args(false);
  app->add_option("MATRIX", o->specs, matrix_help)->required();
  auto [cal, c] = subcommand<calibrate_options>(top, "calibrate", "measure this device's SpMV kernels for the selector (19 matrices, every kernel, 3 value types: about a minute on a GPU, tens of minutes on a few CPU cores): points to this device's cache file or --out", status, run_calibrate);
  cal->add_option("--out", c->out, "write the points here instead of the device's cache file");
  cal->add_option("MATRIX", c->specs, std::string("more matrices to measure; ") + matrix_help);
}

}  // namespace fg::bench
