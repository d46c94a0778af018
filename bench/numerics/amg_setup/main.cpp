// Example (issue 21; the DCSR paper's §IV-E): the setup phase of smoothed-aggregation AMG on 2D/3D
// Poisson problems or the Q1 finite-element problem, with the Galerkin product R·(A·P) computed by
// the engine's DCSR SpMM and, in the same run on the same levels, by the CSR/COO
// (expand-sort-compress) path and by cuSPARSE SpGEMM (CUDA build); then the hierarchy as a V-cycle
// preconditioner for CG on grids of growing size, whose iteration counts show it is right (they
// stay nearly flat). Prints a table and one JSON line.
// Usage: amg_setup [--problem poisson2d|poisson3d|fem] [--size SIDE] [--grids K] [--runs R]
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/amg.hpp"
#include "algorithms/fem_poisson.hpp"
#include "bench/matrices.hpp"
#include "bench/spgemm.hpp"
#include "bench/timer.hpp"
#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "storage/dcsr.hpp"
#include "storage/spmm.hpp"

namespace {
using namespace fg;
using space = device_space;

// The 5- or 7-point Laplacian (2 dims on the diagonal, -1 off it) on side^dims points, rows sorted.
csr_matrix<double, host_space> poisson(int dims, vertex_t side) {
  const bench::edge_list e = bench::make_matrix((dims == 2 ? "poisson2d:" : "poisson3d:") + std::to_string(side));
  std::vector<offset_t> ptr(std::size_t(e.n) + 1, 0);
  for (vertex_t s : e.src) ++ptr[std::size_t(s) + 1];
  for (std::size_t i = 1; i < ptr.size(); ++i) ptr[i] += ptr[i - 1];
  std::vector<vertex_t> col(e.src.size());
  std::vector<offset_t> at(ptr.begin(), ptr.end() - 1);
  for (std::size_t j = 0; j < e.src.size(); ++j) col[std::size_t(at[std::size_t(e.src[j])]++)] = e.dst[j];
  std::vector<double> val(col.size());
  for (vertex_t r = 0; r < e.n; ++r) {
    std::sort(col.begin() + ptr[std::size_t(r)], col.begin() + ptr[std::size_t(r) + 1]);
    for (offset_t j = ptr[std::size_t(r)]; j < ptr[std::size_t(r) + 1]; ++j) val[std::size_t(j)] = col[std::size_t(j)] == r ? 2.0 * dims : -1.0;
  }
  csr_matrix<double, host_space> A;
  A.rows = A.cols = e.n;
  A.row_ptr = to_space<host_space>(ptr), A.col = to_space<host_space>(col), A.val = to_space<host_space>(val);
  return A;
}

// Largest |x - y| / max|y| between two CSR products (same structure expected).
double difference(const csr_matrix<double, space>& X, const csr_matrix<double, space>& Y) {
  const auto x = clone_csr<host_space>(X), y = clone_csr<host_space>(Y);
  if (x.nnz() != y.nnz()) return INFINITY;
  double d = 0, m = 0;
  for (std::size_t j = 0; j < y.col.size(); ++j) {
    if (x.col[j] != y.col[j]) return INFINITY;
    d = std::max(d, std::abs(x.val[j] - y.val[j])), m = std::max(m, std::abs(y.val[j]));
  }
  return m > 0 ? d / m : d;
}

struct galerkin_times {
  double dcsr = 0, esc = 0, cusparse = -1, esc_diff = 0, cusparse_diff = 0;
  double phases_ms = 0, count_ms = 0, multiply_ms = 0;  // one more DCSR run and its SpMM phases; the rest builds the stores
  spmm_stats ap, rap;                     // partial products and entries of A P and R (A P), all levels
  struct level { vertex_t rows = 0; offset_t products = 0; double dcsr = 0, esc = 0, cusparse = -1; };
  std::vector<level> levels;              // the same medians, level by level: where the time goes
};

// The Galerkin products of every level, by each method, medians of `runs` after one warm-up.
galerkin_times time_galerkin(const amg<space>& m, int runs) {
  galerkin_times t;
  bench::device_timer timer;
  auto median_seconds = [&](auto&& f) { return 1e-3 * bench::median_ms(timer, 1, runs, [&](int) { f(); }); };
  for (std::size_t k = 0; k + 1 < m.levels(); ++k) {
    const auto Ad = dcsr_matrix<double, space>::from_csr(m.A(k));
    dcsr_config rect;
    rect.square = false;
    const auto Pd = dcsr_matrix<double, space>::from_csr(m.P(k), rect), Rd = dcsr_matrix<double, space>::from_csr(m.R(k), rect);
    csr_matrix<double, space> by_dcsr, by_esc, by_cusparse;
    dcsr_matrix<double, space> rap;  // the product stays a DCSR store, as the next level's A can
    galerkin_times::level& l = t.levels.emplace_back();
    l.rows = m.A(k).rows;
    l.dcsr = median_seconds([&] { rap = spmm<plus_times<double>>(Rd, spmm<plus_times<double>>(Ad, Pd)); });
    t.dcsr += l.dcsr;
    by_dcsr = rap.to_csr();
    spmm_options phases;
    bench::device_timer inner;
    phases.timed = [&](const char* phase, const std::function<void()>& work) {
      (std::string(phase) == "count" ? t.count_ms : t.multiply_ms) += inner.time_ms(work);
    };
    const offset_t before = t.ap.products + t.rap.products;
    t.phases_ms += timer.time_ms([&] { (void)spmm<plus_times<double>>(Rd, spmm<plus_times<double>>(Ad, Pd, phases, &t.ap), phases, &t.rap); });
    l.products = t.ap.products + t.rap.products - before;
    l.esc = median_seconds([&] { by_esc = bench::spgemm_esc(m.R(k), bench::spgemm_esc(m.A(k), m.P(k))); });
    t.esc += l.esc;
    t.esc_diff = std::max(t.esc_diff, difference(by_esc, by_dcsr));
    if (bench::have_cusparse_spgemm()) {
      l.cusparse = median_seconds([&] { by_cusparse = bench::spgemm_cusparse(m.R(k), bench::spgemm_cusparse(m.A(k), m.P(k))); });
      t.cusparse = std::max(t.cusparse, 0.0) + l.cusparse;
      t.cusparse_diff = std::max(t.cusparse_diff, difference(by_cusparse, by_dcsr));
    }
  }
  return t;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app("amg_setup: smoothed-aggregation AMG setup with the DCSR SpMM Galerkin product, and AMG-preconditioned CG");
  std::string problem = "poisson2d";
  vertex_t size = 0;
  int grids = 3, runs = 3;
  app.add_option("--problem", problem, "poisson2d (5-point), poisson3d (7-point) or fem (Q1, 27-point)")
      ->check(CLI::IsMember({"poisson2d", "poisson3d", "fem"}));
  app.add_option("--size", size, "points (cubes for fem) a side of the coarsest grid (default 64, 16, 8)")->check(CLI::Range(2, 100000));
  app.add_option("--grids", grids, "grids, each twice as fine a side")->check(CLI::Range(1, 8));
  app.add_option("--runs", runs, "runs of each Galerkin product (median)")->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);
  if (size == 0) size = problem == "poisson2d" ? 64 : problem == "poisson3d" ? 16 : 8;
  try {
    fmt::print("device: {} ({})\n{:<10} {:>9} {:>10} {:>6} {:>6} {:>8} {:>10} {:>10} {:>10} {:>9} {:>9} {:>5}\n", device_backend_name(),
               device_description(), "problem", "rows", "nnz", "levels", "op.cx", "setup s", "RAP dcsr s", "RAP esc s", "cusparse s",
               "esc/dcsr", "cusp/dcsr", "PCG");
    std::string json;
    for (int g = 0; g < grids; ++g) {
      const vertex_t side = size << g;
      csr_matrix<double, host_space> Ah;
      std::vector<double> bh;
      if (problem == "fem") {
        fem_poisson<double> p = fem_poisson_3d<double>(side);
        Ah = std::move(p.A), bh = std::move(p.b);
      } else {
        Ah = poisson(problem == "poisson2d" ? 2 : 3, side);
        bh.assign(std::size_t(Ah.rows), 1.0);
      }
      const csr_matrix<double, space> A = clone_csr<space>(Ah);
      amg<space> m(A);
      const galerkin_times t = time_galerkin(m, runs);
      const linear_operator<double, space> op = [&A](const array<double, space>& v, array<double, space>& y) {
        spmv<plus_times<double>>(A, v, y);
      };
      const array<double, space> b = to_space<space>(bh);
      array<double, space> x(bh.size());
      zero(x);
      cg_options opt;
      opt.tolerance = 1e-8;
      const cg_result r = cg(op, b, x, opt, m.preconditioner());
      const amg_stats& s = m.stats();
      const std::string cus = t.cusparse < 0 ? "-" : fmt::format("{:.4f}", t.cusparse);
      const std::string cus_ratio = t.cusparse < 0 ? "-" : fmt::format("{:.2f}", t.cusparse / t.dcsr);
      fmt::print("{:<10} {:>9} {:>10} {:>6} {:>6.2f} {:>8.3f} {:>10.4f} {:>10.4f} {:>10} {:>9.2f} {:>9} {:>5}\n", problem, A.rows, A.nnz(),
                 m.levels(), s.operator_complexity, s.setup_seconds, t.dcsr, t.esc, cus, t.esc / t.dcsr, cus_ratio, r.iterations);
      fmt::print("  DCSR SpMM, all levels: count {:.3f} ms, multiply {:.3f} ms, the rest (stores) {:.3f} ms; products / entries: "
                 "A P {} / {}, R (A P) {} / {}\n", t.count_ms, t.multiply_ms, t.phases_ms - t.count_ms - t.multiply_ms, t.ap.products,
                 t.ap.entries, t.rap.products, t.rap.entries);
      for (std::size_t k = 0; k < t.levels.size(); ++k) {
        const galerkin_times::level& l = t.levels[k];
        fmt::print("  level {}: {:>9} rows {:>10} products: DCSR {:.3f} ms, CSR/COO {:.3f} ms, cuSPARSE {}\n", k, l.rows, l.products,
                   1e3 * l.dcsr, 1e3 * l.esc, l.cusparse < 0 ? "-" : fmt::format("{:.3f} ms", 1e3 * l.cusparse));
      }
      if (t.esc_diff > 1e-10 || t.cusparse_diff > 1e-10)
        throw error(fmt::format("the Galerkin products differ: esc {:.2e}, cusparse {:.2e} (relative)", t.esc_diff, t.cusparse_diff));
      json += fmt::format(
          "{}{{\"side\": {}, \"rows\": {}, \"nnz\": {}, \"levels\": {}, \"operator_complexity\": {:.4f}, \"setup_s\": {:.6f}, "
          "\"setup_galerkin_s\": {:.6f}, \"galerkin_s\": {{\"dcsr\": {:.6f}, \"csr_coo\": {:.6f}, \"cusparse\": {}}}, "
          "\"pcg_iterations\": {}, \"pcg_converged\": {}, \"pcg_s\": {:.6f}}}",
          json.empty() ? "" : ", ", side, A.rows, A.nnz(), m.levels(), s.operator_complexity, s.setup_seconds, s.galerkin_seconds, t.dcsr,
          t.esc, t.cusparse < 0 ? "null" : fmt::format("{:.6f}", t.cusparse), r.iterations, r.converged, r.seconds);
    }
    fmt::print("{{\"example\": \"amg_setup\", \"device\": \"{}\", \"problem\": \"{}\", \"grids\": [{}]}}\n", device_description(), problem, json);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "amg_setup: {}\n", e.what());
    return 1;
  }
}
