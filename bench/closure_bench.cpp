// fluxgraph bench closure: semi-naive transitive closure of each graph (algorithms/closure.hpp) with
// its time split by phase, each phase timed on the device (CUDA events, bench/timer.hpp):
//   count      partial products per row (once per SpMM)
//   SpMM       expansion, sort, reduction and the fused mask (the set difference), as the closure runs it
//   insert     appending each slice to Δ and to R⁺ (DCSR append_sorted)
//   other      the rest of the total (slicing, allocation, the loop): total - count - SpMM - insert
// The four add up to the total. Beside it, not in it: the same slices multiplied again without the
// mask (extra work the closure does not do), so that what the mask saves or costs is SpMM - unmasked.
// plus pairs, iterations, the peak of the one allocator (device memory) and, with --expected, the
// published pairs and iterations (shared/data/expected/transitive_closure_sizes.tsv) as a check.
// --incremental F[,F...]: for each share F, a random F of the edges (seeded) is held back; R⁺ of the
// rest is computed, then extended by the held-back batch (extend_closure, timed) and compared with
// a from-scratch closure of all edges (timed): pairs must be equal, and the speedup is reported.
// Memory: see algorithms/closure.cpp (fe_ocean's 1.67e9 pairs peak at 19.4 GB on an H100).
#include <fmt/core.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/closure.hpp"
#include "bench/bench.hpp"
#include "bench/timer.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "loaders/graph_file.hpp"

namespace fg::bench {

namespace {
struct published {
  offset_t pairs = -1;
  int iterations = -1;
};

std::string stem(std::string path) {  // file name without folders and .gz
  path = path.substr(path.find_last_of('/') + 1);
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0) path.resize(path.size() - 3);
  return path;
}

// The table's rows by file stem: dataset, file, edges, pairs, iterations ("-": none), ...
std::map<std::string, published> read_expected(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw error("bench closure: cannot read " + path);
  std::map<std::string, published> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
    if (f.size() < 5) continue;
    published p;
    p.pairs = std::stoll(f[3]);
    if (f[4] != "-") p.iterations = std::stoi(f[4]);
    out[stem(f[1])] = p;
  }
  return out;
}

// Phase times that add up: a phase timed inside another ("insert" runs inside "multiply", per slice)
// counts in its own phase only, not in the enclosing one too. A timer per depth: the events of an
// enclosing phase stay where they were while a nested one is timed.
struct phase_times {
  std::map<std::string, double> ms;  ///< per phase, without the phases nested in it
  void time(const char* phase, const std::function<void()>& work) {
    const std::size_t d = depth_++;
    if (timers_.size() <= d) timers_.push_back(std::make_unique<device_timer>()), nested_.push_back(0);
    nested_[d] = 0;
    double all = 0;
    try {
      all = timers_[d]->time_ms(work);
    } catch (...) {
      --depth_;
      throw;
    }
    --depth_;
    ms[phase] += all - nested_[d];
    if (d > 0) nested_[d - 1] += all;
  }

 private:
  std::vector<std::unique_ptr<device_timer>> timers_;
  std::vector<double> nested_;  ///< per depth: what the phases nested in the one timed there took
  std::size_t depth_ = 0;
};

struct row {
  std::string graph;
  offset_t pairs = 0, products = 0;
  int iterations = 0;
  double total_ms = 0, count_ms = 0, spmm_ms = 0, insert_ms = 0, other_ms = 0, unmasked_ms = 0, peak_mib = 0;
  std::string check;
};

row bench_graph(const edge_file& f, const std::string& path, std::size_t workspace, bool split,
                const std::map<std::string, published>& table) {
  FG_EXPECTS(f.num_vertices < 2147483647, "too many vertices");
  const auto n = vertex_t(f.num_vertices);
  fmt::print("\n{}: {} vertices, {} edges\n", f.path, n, f.num_edges());
  const auto R = dcsr_matrix<pattern, device_space>::from_coo(make_coo<pattern, device_space>(f.src, f.dst), n, n);
  device_timer outer;  // the total; the phases nest in it
  phase_times phases;
  std::map<std::string, double>& ms = phases.ms;
  closure_options opt;
  opt.spmm.workspace_bytes = workspace;
  opt.spmm.measure_unmasked = split;
  opt.spmm.timed = [&](const char* phase, const std::function<void()>& work) { phases.time(phase, work); };
  opt.progress = [](int it, offset_t added, offset_t total) {
    if (it % 50 == 0) fmt::print("  iteration {:5d}: {:>12} new, {:>14} pairs\n", it, added, total);
  };
  closure_stats st;
  dcsr_matrix<pattern, device_space> plus;
  const double total = outer.time_ms([&] { plus = transitive_closure(R, opt, &st); });
  row r;
  r.graph = stem(path);
  r.pairs = st.pairs;
  r.iterations = st.iterations;
  r.products = st.products;
  r.total_ms = total - ms["unmasked"];
  r.count_ms = ms["count"];
  r.spmm_ms = ms["multiply"];
  r.insert_ms = ms["insert"];
  // Each phase is timed inside the total: what is left is >= 0 up to the events' resolution.
  r.other_ms = std::max(0.0, r.total_ms - r.count_ms - r.spmm_ms - r.insert_ms);
  r.unmasked_ms = split ? ms["unmasked"] : 0;
  r.peak_mib = double(st.peak_bytes) / 1048576.0;
  auto it = table.find(r.graph);
  if (it == table.end()) r.check = table.empty() ? "" : "not in the table";
  else if (it->second.pairs == r.pairs && (it->second.iterations < 0 || it->second.iterations == r.iterations))
    r.check = "matches the table";
  else
    r.check = fmt::format("MISMATCH: table {} pairs, {} iterations", it->second.pairs, it->second.iterations);
  fmt::print("  pairs {}  iterations {}  partial products {}\n", r.pairs, r.iterations, r.products);
  fmt::print("  total {:.1f} ms = count {:.1f} + SpMM with the mask {:.1f} + insert {:.1f} + other {:.1f}\n", r.total_ms,
             r.count_ms, r.spmm_ms, r.insert_ms, r.other_ms);
  if (split)
    fmt::print("  the same products without the mask (not in the total): {:.1f} ms; the fused set difference {} {:.1f} ms\n",
               r.unmasked_ms, r.spmm_ms >= r.unmasked_ms ? "costs" : "saves", std::fabs(r.spmm_ms - r.unmasked_ms));
  fmt::print("  R+ store: {:.1f} MiB, buffer {:.2f}x the pairs, {} compactions (buffer full), {} grew\n",
             double(plus.bytes()) / 1048576.0, double(plus.capacity()) / double(std::max<offset_t>(1, plus.nnz())),
             plus.stats().compactions_buffer_full + plus.stats().compactions_segment_limit, plus.stats().buffer_grows);
  fmt::print("  peak memory {:.1f} MiB  {}\n", r.peak_mib, r.check);
  return r;
}

struct inc_row {
  std::string graph;
  double share = 0;
  std::size_t batch = 0;
  offset_t new_pairs = 0, pairs = 0;
  int rounds = 0;
  double inc_ms = 0, scratch_ms = 0;
  bool equal = false;
};

// One held-back share of `f`'s edges: R⁺ of the rest, then extended by the batch vs from scratch.
inc_row bench_incremental(const edge_file& f, const std::string& name, double share) {
  const auto n = vertex_t(f.num_vertices);
  std::vector<std::size_t> order(f.src.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::mt19937_64 rng(1);
  std::shuffle(order.begin(), order.end(), rng);
  const auto held = std::max<std::size_t>(1, std::size_t(share * double(order.size())));
  std::vector<vertex_t> bs, bd, rs, rd;
  for (std::size_t i = 0; i < order.size(); ++i) {
    auto& s = i < held ? bs : rs;
    auto& d = i < held ? bd : rd;
    s.push_back(f.src[order[i]]);
    d.push_back(f.dst[order[i]]);
  }
  auto R = dcsr_matrix<pattern, device_space>::from_coo(make_coo<pattern, device_space>(rs, rd), n, n);
  dcsr_matrix<pattern, device_space> plus = transitive_closure(R);
  const offset_t before = plus.nnz();
  const auto batch = make_coo<pattern, device_space>(bs, bd);
  R.insert_batch(batch);
  device_timer timer;
  closure_stats st;
  inc_row r;
  r.graph = name;
  r.share = share;
  r.batch = held;
  r.inc_ms = timer.time_ms([&] { extend_closure(plus, R, batch, {}, &st); });
  r.rounds = st.iterations;
  r.pairs = plus.nnz();
  r.new_pairs = r.pairs - before;
  dcsr_matrix<pattern, device_space> fresh;
  r.scratch_ms = timer.time_ms([&] { fresh = transitive_closure(R); });
  r.equal = fresh.nnz() == plus.nnz();  // same size; the tests check the pairs themselves
  fmt::print("  +{} edges ({:.4g}%): {} new pairs in {} rounds, {:.2f} ms; from scratch {:.2f} ms: {:.1f}x{}\n",
             r.batch, 100 * share, r.new_pairs, r.rounds, r.inc_ms, r.scratch_ms, r.scratch_ms / r.inc_ms,
             r.equal ? "" : "  MISMATCH");
  return r;
}
}  // namespace

namespace {
struct closure_bench_options {
  std::string json, expected;
  double workspace = 0;
  bool no_split = false;
  std::vector<double> shares;
  std::vector<std::string> graphs;
};

int run_closure(const closure_bench_options& o) {
  const std::string &json = o.json, &expected = o.expected;
  const std::size_t workspace = std::size_t(o.workspace);
  const bool split = !o.no_split;
  const std::vector<std::string>& graphs = o.graphs;
  const std::vector<double>& shares = o.shares;
  const auto table = expected.empty() ? std::map<std::string, published>{} : read_expected(expected);
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  std::vector<row> rows;
  std::vector<inc_row> incs;
  for (const auto& g : graphs) {
    const edge_file f = read_graph(g);
    rows.push_back(bench_graph(f, g, workspace, split, table));
    for (double share : shares) incs.push_back(bench_incremental(f, stem(g), share));
    if (!json.empty()) {  // after every graph: a run cut off later keeps what it measured
      std::ofstream out(json);
      out << "[\n";
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const row& r = rows[i];
        fmt::print(out,
                   "  {{\"graph\": \"{}\", \"pairs\": {}, \"iterations\": {}, \"products\": {}, \"total_ms\": {}, "
                   "\"count_ms\": {}, \"spmm_ms\": {}, \"insert_ms\": {}, \"other_ms\": {}, \"unmasked_spmm_ms\": {}, "
                   "\"peak_mib\": {}, \"check\": \"{}\"}}{}\n",
                   r.graph, r.pairs, r.iterations, r.products, r.total_ms, r.count_ms, r.spmm_ms, r.insert_ms,
                   r.other_ms, r.unmasked_ms, r.peak_mib, r.check, i + 1 < rows.size() ? "," : "");
      }
      out << "]\n";
    }
  }
  fmt::print("\n{:<34} {:>13} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}  {}\n", "graph", "pairs", "iter", "total s",
             "count s", "SpMM s", "insert s", "other s", "peak MiB", "check");
  int bad = 0;
  for (const row& r : rows) {
    fmt::print("{:<34} {:>13} {:>6} {:>10.3f} {:>10.3f} {:>10.3f} {:>10.3f} {:>10.3f} {:>10.1f}  {}\n", r.graph, r.pairs,
               r.iterations, r.total_ms / 1e3, r.count_ms / 1e3, r.spmm_ms / 1e3, r.insert_ms / 1e3, r.other_ms / 1e3,
               r.peak_mib, r.check);
    bad += r.check.rfind("MISMATCH", 0) == 0 ? 1 : 0;
  }
  if (!incs.empty())
    fmt::print("\n{:<34} {:>8} {:>9} {:>12} {:>6} {:>10} {:>10} {:>8}  {}\n", "incremental: graph", "share %",
               "edges", "new pairs", "rounds", "inc ms", "scratch ms", "speedup", "check");
  for (const inc_row& r : incs) {
    fmt::print("{:<34} {:>8.4g} {:>9} {:>12} {:>6} {:>10.2f} {:>10.2f} {:>7.1f}x  {}\n", r.graph, 100 * r.share, r.batch,
               r.new_pairs, r.rounds, r.inc_ms, r.scratch_ms, r.scratch_ms / r.inc_ms,
               r.equal ? "equal pairs" : "MISMATCH");
    bad += r.equal ? 0 : 1;
  }
  return bad == 0 ? 0 : 1;
}

}  // namespace

void add_closure(CLI::App& bench, int& status) {
  auto [app, o] = subcommand<closure_bench_options>(bench, "closure", "semi-naive transitive closure per graph: time by phase, pairs, iterations, peak memory; --expected checks the published sizes", status, run_closure);
  app->add_option("--json", o->json, "write the results as JSON (after every graph)");
  app->add_option("--expected", o->expected, "a TSV of published closure sizes to check against");
  app->add_option("--workspace", o->workspace, "SpMM workspace in bytes (0: the default budget)")->check(CLI::Range(0.0, 1e15));
  app->add_flag("--no-split", o->no_split, "do not split the SpMM into row blocks");
  app->add_option("--incremental", o->shares, "also hold back these shares of the edges and extend R+ by them, comma-separated")
      ->delimiter(',')->allow_extra_args(false)->check(CLI::Range(1e-12, 1.0 - 1e-12));
  app->add_option("FILE", o->graphs, "graph files")->required();
}

}  // namespace fg::bench
