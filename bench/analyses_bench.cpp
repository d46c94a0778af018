// fluxgraph bench pointsto | cfl: the program analyses at benchmark sizes.
//   pointsto: random constraint sets (seeded; the mix of address-of, copy, load and store of C
//             programs' constraint files, objects a fraction of the variables), or constraint
//             files; facts, copy edges, rounds, time; --check adds the worklist solver's time and
//             compares the sets; --write FILE keeps a generated set in the numeric format.
//   cfl:      GRAMMAR then graph files (the POCR .peg/.vfg); per graph the count of the Count:
//             nonterminal, rounds, load time, median solve time of the build's solver and of the
//             CPU set solver (checked equal); --check runs the worklist oracle and compares.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "algorithms/cfl.hpp"
#include "algorithms/pointsto.hpp"
#include "bench/bench.hpp"
#include "core/error.hpp"

namespace fg::bench {

namespace {
// Random constraints: a tenth of the variables are address-taken objects; 30% address-of, 50%
// copy, 12% load, 8% store. With as many constraints as variables the copy graph stays below the
// giant-component threshold; denser sets (2 constraints a variable) make nearly everything alias.
pointsto_problem random_pointsto(vertex_t vars, std::int64_t constraints, std::uint64_t seed) {
  pointsto_problem p;
  p.path = fmt::format("random:{}:{}:{}", vars, constraints, seed);
  inclusion_problem& c = p.constraints;
  c.nodes = c.objects = vars;
  c.stores.emplace_back();
  std::mt19937_64 rng(seed);
  const vertex_t objects = std::max<vertex_t>(1, vars / 10);
  auto var = [&] { return vertex_t(rng() % std::uint64_t(vars)); };
  for (std::int64_t i = 0; i < constraints; ++i) {
    const auto kind = rng() % 20;
    const vertex_t d = var();
    if (kind < 6) c.base_node.push_back(d), c.base_obj.push_back(vertex_t(rng() % std::uint64_t(objects)));
    else if (kind < 16) c.copy_dst.push_back(d), c.copy_src.push_back(var());
    else if (kind < 18) c.load_dst.push_back(d), c.load_ptr.push_back(var());
    else c.stores[0].ptr.push_back(d), c.stores[0].src.push_back(var());
  }
  p.lines = constraints;
  return p;
}

void write_numeric(const std::string& path, const pointsto_problem& p) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw error("bench pointsto: cannot write " + path);
  const inclusion_problem& c = p.constraints;
  std::int64_t id = 0;
  std::fprintf(f, "%d %lld\n", c.nodes, static_cast<long long>(p.lines));
  auto put = [&](const std::vector<vertex_t>& dst, const std::vector<vertex_t>& src, int type) {
    for (std::size_t j = 0; j < dst.size(); ++j) std::fprintf(f, "%lld %d %d %d 0\n", static_cast<long long>(id++), src[j], dst[j], type);
  };
  put(c.base_node, c.base_obj, 0);
  put(c.copy_dst, c.copy_src, 1);
  put(c.load_dst, c.load_ptr, 2);
  if (!c.stores.empty()) put(c.stores[0].ptr, c.stores[0].src, 3);
  if (std::fclose(f) != 0) throw error("bench pointsto: cannot write " + path);
}

struct analyses_options {
  std::vector<std::string> files;
  bool check = false;
  double workspace = 0;  ///< bytes; 0: the default budget
  // pointsto: the random set
  vertex_t vars = 100000;
  std::int64_t constraints = -1;  ///< -1: as many as variables
  std::uint64_t seed = 1;
  std::string write;
  int runs = 3;  ///< timed runs per input
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The lines of C of a benchmark program: its row ("name<TAB>lines<TAB>...") in programs.tsv beside it.
std::string c_lines(const std::string& path) {
  const std::filesystem::path f(path);
  const std::string file = f.filename().string(), name = file.substr(0, file.find('.'));  // objdump.pts.gz: objdump
  std::ifstream in(f.parent_path() / "programs.tsv");
  for (std::string line; std::getline(in, line);) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos || line.compare(0, tab, name) != 0) continue;
    const auto end = line.find('\t', tab + 1);
    return line.substr(tab + 1, end == std::string::npos ? std::string::npos : end - tab - 1);
  }
  return "-";
}

// The sets as "var: objects" lines (what `pointsto --out` writes), to a scratch file: the write time.
double write_seconds(const pointsto_problem& p, const inclusion_result& r) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string path = (std::filesystem::temp_directory_path() / "fg_bench_pointsto.out").string();
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw error("bench pointsto: cannot write " + path);
  std::vector<char> buffer(std::size_t(1) << 22);
  std::setvbuf(f, buffer.data(), _IOFBF, buffer.size());
  const bool ok = write_pointsto_sets(f, p.names, r.row_ptr, r.col, false);
  std::fclose(f);
  std::filesystem::remove(path);
  if (!ok) throw error("bench pointsto: cannot write " + path);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int run_pointsto_bench(const analyses_options& a) {
  std::vector<pointsto_problem> problems;
  std::vector<double> load;
  for (const auto& f : a.files) {
    const auto t0 = std::chrono::steady_clock::now();
    problems.push_back(read_pointsto(f));
    load.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  if (problems.empty()) {
    problems.push_back(random_pointsto(a.vars, a.constraints < 0 ? a.vars : a.constraints, a.seed));
    load.push_back(0);
    if (!a.write.empty()) write_numeric(a.write, problems.back());
  }
  // solve: the build's device path (the GPU's bit-row solver, or the CPU build's wave solver); cpu s: the
  // wave solver in the same run (both builds); medians of --runs runs. C lines: from programs.tsv
  // beside the input (scripts/make-bench-ir.sh writes it), "-" when it has no row for the input.
  fmt::print("device: {} ({}); medians of {} runs\n{:<26} {:>8} {:>8} {:>8} {:>11} {:>10} {:>6} {:>7} {:>8} {:>8} {:>8} {:>10} {:>7}\n",
             device_backend_name(), device_description(), a.runs, "input", "C lines", "vars", "cons", "facts", "copy edges",
             "rounds", "load s", "solve s", "write s", "cpu s", "worklist s", "wl/cpu");
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const pointsto_problem& p = problems[i];
    inclusion_options opt;
    inclusion_result r, c;
    std::vector<double> dev, cpu;
    for (int k = 0; k < a.runs; ++k) {
      r = solve_inclusion(p.constraints, exec::device, opt);
      dev.push_back(r.stats.seconds);
      c = solve_inclusion_wave(p.constraints);
      cpu.push_back(c.stats.seconds);
      if (c.row_ptr != r.row_ptr || c.col != r.col) throw error("bench pointsto: " + p.path + ": the wave solver differs");
    }
    c = {};
    const double written = write_seconds(p, r);
    std::string wl = "-", ratio = "-";
    if (a.check) {
      const inclusion_result w = solve_inclusion_worklist(p.constraints);
      if (w.row_ptr != r.row_ptr || w.col != r.col) throw error("bench pointsto: " + p.path + ": differs from the worklist solver");
      wl = fmt::format("{:.4f}", w.stats.seconds);
      ratio = fmt::format("{:.1f}", w.stats.seconds / median_of(cpu));
    }
    fmt::print("{:<26} {:>8} {:>8} {:>8} {:>11} {:>10} {:>6} {:>7.3f} {:>8.4f} {:>8.3f} {:>8.4f} {:>10} {:>7}\n",
               std::filesystem::path(p.path).filename().string(), c_lines(p.path), p.constraints.nodes, p.lines, r.stats.facts,
               r.stats.copy_edges, r.stats.iterations, load[i], median_of(dev), written, median_of(cpu), wl, ratio);
    std::fflush(stdout);
  }
  return 0;
}

int run_cfl_bench(const analyses_options& a) {
  cfl_options opt;
  opt.spmm.workspace_bytes = std::size_t(a.workspace);
  const cfl_grammar g = read_cfl_grammar(a.files[0]);
  const std::string count = g.names[std::size_t(g.count[0])];
  fmt::print("device: {} ({})\ngrammar: {}, count {}; medians of {} runs after one warm-up\n{:<40} {:>8} {:>8} {:>12} {:>8} {:>8} {:>9} {:>9} {:>9} {:>10}\n",
             device_backend_name(), device_description(), g.path, count, a.runs, "graph", "nodes", "edges", "count", "rounds",
             "load s", "solve s", "cpu s", "oracle s", "oracle");
  for (std::size_t i = 1; i < a.files.size(); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const cfl_graph gr = read_cfl_graph(a.files[i], g);
    const double load = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cfl_result r = solve_cfl(g, gr, exec::device, opt);  // the warm-up
    std::vector<double> dev, cpu;
    for (int k = 0; k < a.runs; ++k) {
      r = solve_cfl(g, gr, exec::device, opt);
      dev.push_back(r.seconds);
      const cfl_result c = solve_cfl_sets(g, gr);  // the CPU solver (in the CPU build the same one)
      if (c.pairs != r.pairs) throw error("bench cfl: " + gr.path + ": the set solver's pairs differ from the device solver's");
      cpu.push_back(c.seconds);
    }
    std::string wc = "-", ws = "-";
    if (a.check) {
      const cfl_result w = solve_cfl_worklist(g, gr);
      wc = w.pairs == r.pairs ? "equal" : "DIFFERS";
      ws = fmt::format("{:.3f}", w.seconds);
    }
    fmt::print("{:<40} {:>8} {:>8} {:>12} {:>8} {:>8.4f} {:>9.4f} {:>9.4f} {:>9} {:>10}\n", gr.path, gr.nodes, gr.edges, r.counts[0],
               r.iterations, load, median_of(dev), median_of(cpu), ws, wc);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

void add_analyses(CLI::App& bench, int& status) {
  auto [pt, p] = subcommand<analyses_options>(bench, "pointsto", "Andersen points-to on constraint files, or a random constraint set (seeded)", status, run_pointsto_bench);
  pt->add_option("FILE", p->files, "constraint files (none: a random set)");
  pt->add_flag("--check", p->check, "compare with the worklist solver (and time it)");
  pt->add_option("--runs", p->runs, "timed runs per input (medians)")->check(CLI::Range(1, 1000))->capture_default_str();
  pt->add_option("--vars", p->vars, "variables of the random set")->check(CLI::Range(1, 2000000000))->capture_default_str();
  pt->add_option("--constraints", p->constraints, "constraints of the random set (default: as many as variables)")->check(CLI::Range(std::int64_t(0), std::int64_t(1) << 40));
  pt->add_option("--seed", p->seed, "the random set's seed")->capture_default_str();
  pt->add_option("--write", p->write, "keep the random set in the numeric format");
  auto [cfl, c] = subcommand<analyses_options>(bench, "cfl", "CFL-reachability of POCR graphs under one grammar: the Count: nonterminal's pairs, rounds, time", status, run_cfl_bench);
  cfl->add_option("GRAMMAR", c->files, "a POCR grammar (.cfg), then the graphs (.peg / .vfg)")->required()->expected(2, 1 << 20);
  cfl->add_flag("--check", c->check, "run the worklist solver too and compare every symbol's pairs");
  cfl->add_option("--runs", c->runs, "timed runs per graph (medians)")->check(CLI::Range(1, 1000))->capture_default_str();
  cfl->add_option("--workspace", c->workspace, "SpMM workspace in bytes (0: the default budget)")->check(CLI::Range(0.0, 1e15));
}

}  // namespace fg::bench
