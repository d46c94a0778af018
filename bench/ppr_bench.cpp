// fluxgraph bench ppr: personalized PageRank's reads, k score vectors at once, against what a user
// would run instead, in the same process on the same in-edge store (packed, as fluxgraph::graph
// holds it): the engine's k-vector read (storage/dcsr.hpp spmv_k), k one-vector reads of the store,
// k cuSPARSE SpMVs and one cuSPARSE SpMM (CSR, double, X row-major and column-major); per vector,
// medians of interleaved rounds. Then whole runs: k seed sets read together against k runs of one.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "algorithms/pagerank.hpp"
#include "bench/bench.hpp"
#include "bench/matrices.hpp"
#include "bench/timer.hpp"
#include "core/semiring.hpp"
#include "storage/dcsr.hpp"
#if defined(FG_WITH_CUDA)
#include "bench/cusparse_spmv.hpp"
#endif

namespace fg::bench {

namespace {
using D = device_space;

struct ppr_bench_options {
  int runs = 10, k = 8;
  std::vector<std::string> graphs;
};

// Wall milliseconds of one personalized PageRank call (views and iterations), median of `runs`.
// reads_ms: the median run's reads (device time), the rest being views, updates and the copy out.
double ppr_ms(const dcsr_matrix<pattern, D>& At, const pagerank_start& from, const std::vector<std::vector<vertex_t>>& sets,
              int runs, int& iterations, double& reads_ms) {
  pagerank_options o;
  std::vector<std::pair<double, double>> t;
  for (int r = 0; r <= runs; ++r) {  // the first run warms the pool
    const std::vector<pagerank_result> res = personalized_pagerank(At, o, sets, from);
    if (r > 0) t.push_back({1e3 * (res.front().seconds + res.front().view_seconds), 1e3 * res.front().read_seconds});
    iterations = 0;
    for (const auto& x : res) iterations = std::max(iterations, x.iterations);
  }
  std::nth_element(t.begin(), t.begin() + std::ptrdiff_t(t.size() / 2), t.end());
  reads_ms = t[t.size() / 2].second;
  return t[t.size() / 2].first;
}

void reads(const edge_list& e, const dcsr_matrix<pattern, D>& At, int k, int runs) {
  const vertex_t n = At.rows();
  std::mt19937_64 g(1);
  std::uniform_real_distribution<double> U(0, 1.0 / n);
  std::vector<double> x(std::size_t(n) * k);
  for (double& v : x) v = U(g);
  array<double, D> X = to_space<D>(x), Y(x.size());
  std::vector<array<double, D>> xs, ys;  // the same vectors one by one (column-major when back to back)
  std::vector<double> col(x.size());
  for (int j = 0; j < k; ++j) {
    std::vector<double> c(static_cast<std::size_t>(n));
    for (vertex_t v = 0; v < n; ++v) c[std::size_t(v)] = col[std::size_t(j) * n + v] = x[std::size_t(v) * k + j];
    xs.push_back(to_space<D>(c));
    ys.emplace_back(std::size_t(n));
  }
  std::vector<std::string> names = {"dcsr k-vector read", "dcsr, k reads"};
  std::vector<std::function<void(int)>> fs = {
      [&](int) { spmv_k(At, X, Y, k); },
      [&](int) {
        for (int j = 0; j < k; ++j) spmv<plus_times<double>>(At, xs[std::size_t(j)], ys[std::size_t(j)]);
      }};
#if defined(FG_WITH_CUDA)
  dcsr_config cfg;
  cfg.dups = duplicates::collapse;
  const std::vector<double> ones(e.src.size(), 1.0);
  const csr_matrix<double, D> c = dcsr_matrix<double, D>::from_coo(make_coo<double, D>(e.dst, e.src, ones), n, n, cfg).to_csr();
  auto one = std::make_shared<cusparse_csr<double>>(c);
  auto rows = std::make_shared<cusparse_spmm>(c, k, true), cols = std::make_shared<cusparse_spmm>(c, k, false);
  array<double, D> Xc = to_space<D>(col), Yc(x.size()), Yr(x.size());
  names.insert(names.end(), {"cuSPARSE SpMV x k", "cuSPARSE SpMM, X row-major", "cuSPARSE SpMM, X column-major"});
  fs.push_back([&, one](int) {
    for (int j = 0; j < k; ++j) one->run(xs[std::size_t(j)], ys[std::size_t(j)]);
  });
  fs.push_back([&, rows](int) { rows->run(X, Yr); });
  fs.push_back([&, cols](int) { cols->run(Xc, Yc); });
#endif
  device_timer t;
  const std::vector<double> ms = interleaved_medians(t, 3, runs, fs, 50.0);
  fmt::print("  reads of {} vectors (median of interleaved rounds), per vector:\n", k);
  for (std::size_t i = 0; i < ms.size(); ++i)
    fmt::print("    {:<32} {:>8.4f} ms a vector ({:>8.3f} ms the {}){}\n", names[i], ms[i] / k, ms[i], k,
               i == 0 ? "" : fmt::format("  ours {:.2f}x faster", ms[i] / ms[0]));
#if defined(FG_WITH_CUDA)
  const std::vector<double> a = to_vector(Y), b = to_vector(Yr);  // the same products: a check
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]) / (std::fabs(b[i]) + 1e-300));
  fmt::print("    max relative difference, k-vector read vs cuSPARSE SpMM: {:.2e}\n", worst);
#else
  (void)e;
#endif
}

int run_ppr(const ppr_bench_options& o) {
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  for (const auto& spec : o.graphs) {
    const edge_list e = make_matrix(spec);
    dcsr_config cfg;
    cfg.dups = duplicates::collapse;
    auto At = dcsr_matrix<pattern, D>::from_coo(make_coo<pattern, D>(e.dst, e.src, {}), e.n, e.n, cfg);
    At.defragment();
    const auto A = dcsr_matrix<pattern, D>::from_coo(make_coo<pattern, D>(e.src, e.dst, {}), e.n, e.n, cfg);
    fmt::print("\n{}: {} vertices, {} edges, k = {}\n", e.name, e.n, At.nnz(), o.k);
    reads(e, At, o.k, o.runs);
    pagerank_start from;
    from.out_degree = A.view().sizes;
    std::vector<std::vector<vertex_t>> sets;
    for (int j = 0; j < o.k; ++j) sets.push_back({vertex_t((std::int64_t(j) * 7919 + 1) % e.n)});
    int together_its = 0, alone_its = 0, its = 0;
    double together_reads = 0, alone_reads = 0, reads = 0;
    const double together = ppr_ms(At, from, sets, std::max(1, o.runs / 3), together_its, together_reads);
    double alone = 0;
    for (const auto& s : sets) alone += ppr_ms(At, from, {s}, std::max(1, o.runs / 3), its, reads), alone_its += its, alone_reads += reads;
    fmt::print("  personalized PageRank of {} seed sets: together {:.2f} ms ({} iterations, reads {:.2f} ms), one by one "
               "{:.2f} ms ({} iterations in all, reads {:.2f} ms): {:.2f}x\n",
               o.k, together, together_its, together_reads, alone, alone_its, alone_reads, alone / together);
  }
  return 0;
}
}  // namespace

void add_ppr(CLI::App& bench, int& status) {
  auto [app, o] = subcommand<ppr_bench_options>(bench, "ppr", "personalized PageRank's k-vector read against k SpMVs and cuSPARSE SpMM, and whole runs", status, run_ppr);
  app->add_option("--runs", o->runs, "timed rounds (median)")->check(CLI::Range(1, 1000))->capture_default_str();
  app->add_option("--k", o->k, "seed sets read together")->check(CLI::Range(1, 32))->capture_default_str();
  app->add_option("GRAPH", o->graphs, matrix_help)->required();
}

}  // namespace fg::bench
