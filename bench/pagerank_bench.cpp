// fluxgraph bench pagerank: PageRank with the selector's choice (--kernel auto) against every forced
// kernel, end to end from the packed in-edge store (profile + selection + view build + iterations),
// median of N runs each. Issue 4's second acceptance figure: auto within 10% of the best forced kernel.
#include <fmt/core.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "algorithms/pagerank.hpp"
#include "bench/bench.hpp"
#include "core/error.hpp"
#include "engine/cost_model.hpp"
#include "bench/matrices.hpp"
#include "storage/dcsr.hpp"

namespace fg::bench {

int run_pagerank(const std::vector<std::string>& args) {
  int runs = 5;
  std::vector<std::string> graphs;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--runs" && i + 1 < args.size()) runs = std::max(1, std::stoi(args[++i]));
    else graphs.push_back(args[i]);
  }
  FG_EXPECTS(!graphs.empty(), std::string("bench pagerank needs graphs (files or rmat:SCALE ...)\n") + bench_usage);
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  int ok = 0;
  for (const auto& spec : graphs) {
    const edge_list e = make_matrix(spec);
    dcsr_config cfg;
    cfg.dups = duplicates::collapse;
    // the in-edge store, packed, as `fluxgraph pagerank` builds it
    auto At = dcsr_matrix<pattern, device_space>::from_coo(make_coo<pattern, device_space>(e.dst, e.src, {}), e.n, e.n, cfg);
    At.defragment();
    fmt::print("\n{}: {} vertices, {} edges\n", e.name, e.n, At.nnz());
    std::vector<std::string> kernels = {"auto"};
    for (const auto& k : selectable_kernels()) kernels.push_back(k);
    double best = std::numeric_limits<double>::infinity(), auto_ms = 0;
    std::string best_k, auto_k;
    for (const auto& k : kernels) {
      pagerank_options o;
      o.kernel = k;
      std::vector<double> t;
      pagerank_result r;
      try {
        for (int i = 0; i < runs; ++i) {
          r = pagerank(At, o);
          t.push_back(1e3 * (r.view_seconds + r.seconds));
        }
      } catch (const error& e) {
        fmt::print("  {:<14} skipped: {}\n", k, e.what());
        continue;
      }
      std::nth_element(t.begin(), t.begin() + std::ptrdiff_t(t.size() / 2), t.end());
      const double ms = t[t.size() / 2];
      fmt::print("  {:<14} {:>9.3f} ms  {:>4} iterations{}\n", k, ms, r.iterations, k == "auto" ? "  -> " + r.kernel : "");
      if (k == "auto") auto_ms = ms, auto_k = r.kernel;
      else if (ms < best) best = ms, best_k = k;
    }
    const bool good = auto_ms <= 1.1 * best;
    ok += good;
    fmt::print("  auto ({}) {:.3f} ms vs best forced ({}) {:.3f} ms: {:.2f}x{}\n", auto_k, auto_ms, best_k, best,
               auto_ms / best, good ? "" : "  > 10% slower");
  }
  fmt::print("\npagerank --kernel auto within 10% of the best forced kernel on {} of {} graphs\n", ok, graphs.size());
  return 0;
}

}  // namespace fg::bench
