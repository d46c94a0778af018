// Example (issue 21): conjugate gradient on a 3D finite-element problem whose exact solution is
// known (algorithms/fem_poisson.hpp: Q1 elements, rows of 8 to 27 entries), with the engine's CSR,
// SELL-C-sigma and the kernel its cost model selects, in float and double. For three grids (N,
// 2N, 4N cubes a side) it prints iterations, the L2 error and its measured order (Q1: 2), the
// time per iteration, the SpMV's bandwidth and its fraction of the measured copy bandwidth, the
// million unknown-updates a second, and the host -> device transfer; then one JSON line.
// Usage: cg_fem [--size N] [--grids K] [--precision float|double|both] [--tolerance T] [--sigma S]
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "algorithms/cg.hpp"
#include "algorithms/fem_poisson.hpp"
#include "bench/baselines.hpp"
#include "bench/timer.hpp"
#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "read/cost_model.hpp"
#include "read/profile.hpp"
#include "read/views.hpp"
#include "storage/dcsr.hpp"
#include "storage/sell.hpp"

namespace {
using namespace fg;
using space = device_space;

struct run {
  std::string precision, format, kernel;
  vertex_t intervals = 0, unknowns = 0;
  offset_t nnz = 0;
  cg_result cg;
  double error = 0, order = 0, h2d_ms = 0, bytes = 0, spmv_ms = 0;  // bytes: one SpMV's minimal traffic
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  memory::synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Solves one problem with one format; y = A x given as an operator on T vectors.
template <class T>
run solve(const fem_poisson<T>& p, const std::string& format, const std::string& kernel, const linear_operator<T, space>& A,
          double bytes, double h2d_ms, const cg_options& opt) {
  run r;
  r.precision = sizeof(T) == 4 ? "float" : "double";
  r.format = format, r.kernel = kernel;
  r.intervals = p.intervals, r.unknowns = p.A.rows, r.nnz = p.A.nnz(), r.bytes = bytes, r.h2d_ms = h2d_ms;
  const array<T, space> b = to_space<space>(p.b);
  array<T, space> x(p.b.size());
  zero(x);
  r.cg = cg(A, b, x, opt);
  r.error = fem_l2_error(p, to_vector(x));
  bench::device_timer timer;  // the SpMV alone (median of 10 after 2), for its bandwidth
  array<T, space> y(p.b.size());
  r.spmv_ms = bench::median_ms(timer, 2, 10, [&](int) { A(x, y); });
  return r;
}

template <class T>
void grids(std::vector<run>& out, vertex_t size, int count, const cg_options& opt, vertex_t sigma) {
  const std::size_t first = out.size();
  for (int g = 0; g < count; ++g) {
    const fem_poisson<T> p = fem_poisson_3d<T>(size << g);
    const auto t0 = std::chrono::steady_clock::now();
    const csr_matrix<T, space> A = clone_csr<space>(p.A);
    const double h2d_ms = 1e3 * seconds_since(t0);
    const double vec = 2.0 * sizeof(T) * double(A.rows);  // x read once, y written once
    const double csr_bytes = double(A.bytes()) + vec;
    out.push_back(solve<T>(p, "csr", "csr", [&](const array<T, space>& v, array<T, space>& y) { spmv<plus_times<T>>(A, v, y); },
                           csr_bytes, h2d_ms, opt));
    sell_options so;
    so.sigma = sigma;
    const sell_matrix<T, space> S = to_sell(A, so);
    out.push_back(solve<T>(p, "sell", "sell", [&](const array<T, space>& v, array<T, space>& y) { spmv<plus_times<T>>(S, v, y); },
                           double(S.bytes()) + vec, h2d_ms, opt));
    if constexpr (sizeof(T) == 8) {  // the engine's views read double vectors
      const auto D = dcsr_matrix<T, space>::from_csr(A);
      const auto cal = load_calibration(device_description());
      const selection pick = select_kernel(profile(D), 8, 4.0 * double(p.intervals), *cal);  // CG takes ~2-4 N SpMVs here
      const spmv_view<T, space> view = make_view(D, pick.kernel);
      out.push_back(solve<T>(p, "auto", pick.kernel, view.run, csr_bytes, h2d_ms, opt));
    }
  }
  for (std::size_t i = first; i < out.size(); ++i)  // order against the same format one grid coarser
    for (std::size_t j = first; j < i; ++j)
      if (out[j].format == out[i].format && 2 * out[j].intervals == out[i].intervals) out[i].order = std::log2(out[j].error / out[i].error);
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app("cg_fem: CG on a 3D Q1 finite-element Poisson problem with CSR, SELL-C-sigma and the selected kernel");
  vertex_t size = 8, sigma = 256;
  int count = 3;
  std::string precision = "both";
  cg_options opt;
  opt.tolerance = 0;  // per precision below unless given
  app.add_option("--size", size, "cubes a side of the coarsest grid (>= 2)")->check(CLI::Range(2, 1000));
  app.add_option("--grids", count, "grids, each twice as fine as the last")->check(CLI::Range(1, 8));
  app.add_option("--precision", precision, "float, double or both")->check(CLI::IsMember({"float", "double", "both"}));
  app.add_option("--tolerance", opt.tolerance, "relative residual to stop at (default 1e-10 double, 1e-5 float)");
  app.add_option("--sigma", sigma, "SELL-C-sigma's sorting window")->check(CLI::Range(1, 1 << 30));
  CLI11_PARSE(app, argc, argv);
  try {
    const double copy_gbs = bench::copy_bandwidth_gbs(std::size_t(1) << 28);
    std::vector<run> runs;
    for (const std::string prec : {"float", "double"}) {
      if (precision != "both" && precision != prec) continue;
      cg_options o = opt;
      if (o.tolerance <= 0) o.tolerance = prec == "float" ? 1e-5 : 1e-10;
      if (prec == "float") grids<float>(runs, size, count, o, sigma);
      else grids<double>(runs, size, count, o, sigma);
    }
    fmt::print("device: {} ({}); copy bandwidth {:.1f} GB/s\n", device_backend_name(), device_description(), copy_gbs);
    fmt::print("{:<7} {:<5} {:<8} {:>4} {:>9} {:>6} {:>11} {:>6} {:>9} {:>9} {:>6} {:>8} {:>8}\n", "prec", "fmt", "kernel", "N",
               "unknowns", "iters", "L2 error", "order", "ms/iter", "SpMV GB/s", "eta", "MUPS", "h2d ms");
    std::string json;
    for (const run& r : runs) {
      const double gbs = r.bytes / (1e-3 * r.spmv_ms) / 1e9;
      const double mups = double(r.unknowns) * r.cg.iterations / r.cg.seconds / 1e6;
      fmt::print("{:<7} {:<5} {:<8} {:>4} {:>9} {:>6} {:>11.4e} {:>6} {:>9.4f} {:>9.1f} {:>6.2f} {:>8.1f} {:>8.2f}\n", r.precision, r.format,
                 r.kernel, r.intervals, r.unknowns, r.cg.iterations, r.error, r.order > 0 ? fmt::format("{:.3f}", r.order) : "-",
                 1e3 * r.cg.seconds / std::max(1, r.cg.iterations), gbs, gbs / copy_gbs, mups, r.h2d_ms);
      json += fmt::format(
          "{}{{\"precision\": \"{}\", \"format\": \"{}\", \"kernel\": \"{}\", \"intervals\": {}, \"unknowns\": {}, \"nnz\": {}, "
          "\"iterations\": {}, \"converged\": {}, \"l2_error\": {:.6e}, \"order\": {}, \"seconds\": {:.6f}, \"spmv_gbs\": {:.2f}, "
          "\"eta\": {:.4f}, \"mups\": {:.2f}, \"h2d_ms\": {:.3f}}}",
          json.empty() ? "" : ", ", r.precision, r.format, r.kernel, r.intervals, r.unknowns, r.nnz, r.cg.iterations, r.cg.converged,
          r.error, r.order > 0 ? fmt::format("{:.4f}", r.order) : "null", r.cg.seconds, gbs, gbs / copy_gbs, mups, r.h2d_ms);
    }
    fmt::print("{{\"example\": \"cg_fem\", \"device\": \"{}\", \"copy_gbs\": {:.2f}, \"theoretical_order\": {}, \"runs\": [{}]}}\n",
               device_description(), copy_gbs, fem_poisson<double>::order, json);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "cg_fem: {}\n", e.what());
    return 1;
  }
}
