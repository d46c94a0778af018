// fluxgraph bench incremental: a stream with PageRank kept current (algorithms/dynamic_pagerank.hpp)
// against the same stream without the analysis and against PageRank from scratch after every batch,
// per batch size, on this device. Each graph's edges in a random order: all but the held-back ones
// are the first batch (PageRank from scratch, untimed); then batches of the held-back edges, each
// also deleting a share of stored edges. Per size: the batch's apply (store + PageRank; median and
// p90), the PageRank part alone, the apply without PageRank, the from-scratch run, the L1 distance
// between the kept scores and the from-scratch ones, and the bound the kept ones carry.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/matrices.hpp"
#include "bench/report.hpp"
#include "stream/stream_session.hpp"

namespace fg::bench {

namespace {
struct incremental_options {
  std::string batches = "1e3,1e4,1e5,1e6";
  int count = 20;          ///< timed batches per size
  double deletes = 0.1;    ///< share of a batch that deletes stored edges
  double tol = 1e-10;
  bool scratch = true;     ///< from scratch after every batch (--no-scratch: the kept run alone)
  std::vector<std::string> graphs;
};

double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

struct run_times {
  std::vector<double> apply, pagerank, scratch;  // ms a batch
  std::vector<double> seeded, change, edges;     // the bound the batch left / target; L1 change; edges read / m
  double error = 0, bound = 0, target = 0;
  int restarts = 0, pulls = 0;
  std::int64_t rounds = 0;
};

// One stream over `base` then the batches, with or without per-batch PageRank.
run_times stream_once(const edge_list& e, const std::vector<fg::edge_list>& ins, const std::vector<fg::edge_list>& del,
                      const fg::edge_list& base, bool pagerank, const incremental_options& o) {
  stream_options so;
  so.pagerank_per_batch = pagerank;
  so.pagerank_at_end = false;
  so.compare = pagerank && o.scratch;
  so.pagerank.tol = o.tol;
  stream_session<device_space> s(so, e.n);
  s.warm_up();
  s.apply(base, {}, e.n);  // PageRank from scratch: the start every kept run pays once
  run_times t;
  t.target = so.pagerank.damping / (1 - so.pagerank.damping) * o.tol * double(e.n);
  std::vector<double> before = pagerank ? s.scores().score : std::vector<double>{};
  for (std::size_t b = 0; b < ins.size(); ++b) {
    const batch_report r = s.apply(ins[b], del[b], e.n);
    t.apply.push_back(1e3 * (r.seconds() - r.cold_seconds));
    if (!pagerank) continue;
    t.pagerank.push_back(1e3 * r.pr_seconds);
    if (so.compare) t.scratch.push_back(1e3 * r.cold_seconds), t.error = std::max(t.error, r.pr_error);
    t.bound = std::max(t.bound, r.pr_bound);
    t.restarts += r.pr_restarted, t.pulls += r.pr_pulled;
    t.rounds += r.pr_iterations;
    t.seeded.push_back(r.pr_seeded_bound / t.target);
    t.edges.push_back(double(r.pr_edges) / double(std::max<offset_t>(1, r.edges)));
    std::vector<double> after = s.scores().score;  // untimed: the scores' move over the batch
    double moved = 0;
    for (std::size_t v = 0; v < after.size(); ++v) moved += std::fabs(after[v] - (v < before.size() ? before[v] : 0.0));
    t.change.push_back(moved);
    before = std::move(after);
  }
  return t;
}

int run_incremental(const incremental_options& o) {
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  for (const auto& spec : o.graphs) {
    edge_list e = make_matrix(spec);
    const std::size_t m = e.src.size();
    std::mt19937_64 g(1);
    for (std::size_t i = m; i > 1; --i) {  // a random order: every batch lands all over the graph
      const std::size_t j = g() % i;
      std::swap(e.src[i - 1], e.src[j]), std::swap(e.dst[i - 1], e.dst[j]);
    }
    fmt::print("\n{}: {} vertices, {} edges (before duplicates); tol {:g}, {:.0f}% of each batch deletes\n", e.name, e.n, m,
               o.tol, 100 * o.deletes);
    for (const std::size_t size : parse_sizes(o.batches)) {
      const auto dels = std::size_t(std::llround(o.deletes * double(size))), adds = size - dels;
      const std::size_t count = std::min<std::size_t>(std::size_t(o.count), adds > 0 ? m / 2 / adds : std::size_t(o.count));
      if (count == 0) {
        fmt::print("  batch {:.0e}: skipped (larger than half the graph)\n", double(size));
        continue;
      }
      fg::edge_list base;
      const std::size_t held = count * adds;
      base.src.assign(e.src.begin(), e.src.end() - std::ptrdiff_t(held));
      base.dst.assign(e.dst.begin(), e.dst.end() - std::ptrdiff_t(held));
      std::vector<fg::edge_list> ins(count), del(count);
      for (std::size_t b = 0; b < count; ++b) {
        const std::size_t first = m - held + b * adds;
        ins[b].src.assign(e.src.begin() + std::ptrdiff_t(first), e.src.begin() + std::ptrdiff_t(first + adds));
        ins[b].dst.assign(e.dst.begin() + std::ptrdiff_t(first), e.dst.begin() + std::ptrdiff_t(first + adds));
        for (std::size_t k = 0; k < dels; ++k) {  // stored edges of the base (a repeat is absent: a no-op)
          const std::size_t i = g() % base.src.size();
          del[b].src.push_back(base.src[i]), del[b].dst.push_back(base.dst[i]);
        }
      }
      const run_times with = stream_once(e, ins, del, base, true, o);
      const run_times without = stream_once(e, ins, del, base, false, o);
      const double a50 = pct(with.apply, 0.5), w50 = pct(without.apply, 0.5), p50 = pct(with.pagerank, 0.5);
      fmt::print("  batch {:.0e} ({} timed): apply {:.3f} ms p50 / {:.3f} p90 with PageRank (PageRank {:.3f} / {:.3f}, "
                 "{:.1f} rounds a batch, {} restarts, {} by power iterations), {:.3f} ms without: {:.1f} vs {:.1f} M edges/s\n",
                 double(size), count, a50, pct(with.apply, 0.9), p50, pct(with.pagerank, 0.9),
                 double(with.rounds) / double(count), with.restarts, with.pulls, w50, double(size) / a50 / 1e3,
                 double(size) / w50 / 1e3);
      fmt::print("    a batch moved the scores {:.2e} (L1, p50) against a target bound of {:.2e}; the bound it left was "
                 "{:.1f}x the target (p50); the pushes read {:.3f} of the graph's edges (p50)\n",
                 pct(with.change, 0.5), with.target, pct(with.seeded, 0.5), pct(with.edges, 0.5));
      if (o.scratch) {
        const double s50 = pct(with.scratch, 0.5);
        const double total_kept = std::accumulate(with.pagerank.begin(), with.pagerank.end(), 0.0);
        const double total_scratch = std::accumulate(with.scratch.begin(), with.scratch.end(), 0.0);
        fmt::print("    from scratch {:.3f} ms p50: kept {:.1f}x faster (p50), {:.1f}x in total; L1 to scratch max {:.2e}, "
                   "bound max {:.2e}\n",
                   s50, p50 > 0 ? s50 / p50 : 0.0, total_kept > 0 ? total_scratch / total_kept : 0.0, with.error, with.bound);
      }
    }
  }
  return 0;
}
}  // namespace

void add_incremental(CLI::App& bench, int& status) {
  auto [app, o] = subcommand<incremental_options>(
      bench, "incremental", "PageRank kept current per batch against the stream without it and against PageRank from scratch",
      status, run_incremental);
  app->add_option("--batches", o->batches, "batch sizes, comma-separated")->capture_default_str();
  app->add_option("--count", o->count, "timed batches per size")->check(CLI::Range(1, 100000))->capture_default_str();
  app->add_option("--deletes", o->deletes, "share of each batch that deletes stored edges")->check(CLI::Range(0.0, 1.0))->capture_default_str();
  app->add_option("--tol", o->tol, "PageRank tolerance (L1 change < tol n)")->check(CLI::PositiveNumber)->capture_default_str();
  app->add_flag("!--no-scratch", o->scratch, "no PageRank from scratch beside the kept one");
  app->add_option("GRAPH", o->graphs, matrix_help)->required();
}

}  // namespace fg::bench
