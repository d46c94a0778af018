// fluxgraph bench pointsto | cfl: the program analyses at benchmark sizes.
//   pointsto: random constraint sets (seeded; the mix of address-of, copy, load and store of C
//             programs' constraint files, objects a fraction of the variables), or constraint
//             files; facts, copy edges, rounds, time; --check adds the worklist solver's time and
//             compares the sets; --write FILE keeps a generated set in the numeric format.
//   cfl:      GRAMMAR then graph files (the POCR .peg/.vfg); per graph the count of the Count:
//             nonterminal, rounds, time; --check runs the worklist solver and prints its count too.
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "algorithms/cfl.hpp"
#include "algorithms/pointsto.hpp"
#include "bench/bench.hpp"
#include "core/error.hpp"

namespace fg::bench {

namespace {
// Values of "--name value" options; everything else is a flag or a file.
struct args_view {
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> values;
  std::vector<std::string> flags;
  std::string get(const std::string& k, const std::string& d) const {
    for (const auto& [n, v] : values)
      if (n == k) return v;
    return d;
  }
  bool has(const std::string& f) const {
    for (const auto& x : flags)
      if (x == f) return true;
    return false;
  }
};

args_view split_args(const char* what, const std::vector<std::string>& args, const std::vector<std::string>& valued,
                     const std::vector<std::string>& flags) {
  args_view out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      out.files.push_back(a);
      continue;
    }
    const std::string n = a.substr(2);
    if (std::find(valued.begin(), valued.end(), n) != valued.end()) {
      if (i + 1 >= args.size()) throw error(std::string("bench ") + what + ": " + a + " needs a value\n" + bench_usage);
      out.values.emplace_back(n, args[++i]);
    } else if (std::find(flags.begin(), flags.end(), n) != flags.end()) {
      out.flags.push_back(n);
    } else {
      throw error(std::string("bench ") + what + ": unknown option " + a + "\n" + bench_usage);
    }
  }
  return out;
}

// Random constraints: a tenth of the variables are address-taken objects; 30% address-of, 50%
// copy, 12% load, 8% store. With as many constraints as variables the copy graph stays below the
// giant-component threshold; denser sets (2 constraints a variable) make nearly everything alias.
pointsto_problem random_pointsto(vertex_t vars, std::int64_t constraints, std::uint64_t seed) {
  pointsto_problem p;
  p.path = fmt::format("random:{}:{}:{}", vars, constraints, seed);
  for (vertex_t v = 0; v < vars; ++v) p.names.push_back(std::to_string(v));
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
}  // namespace

int run_pointsto_bench(const std::vector<std::string>& args) {
  const args_view a = split_args("pointsto", args, {"vars", "constraints", "seed", "write", "workspace"}, {"check"});
  std::vector<pointsto_problem> problems;
  for (const auto& f : a.files) problems.push_back(read_pointsto(f));
  if (problems.empty()) {
    const auto vars = vertex_t(std::stoll(a.get("vars", "100000")));
    const std::int64_t cons = std::stoll(a.get("constraints", std::to_string(vars)));
    FG_EXPECTS(vars > 0 && cons >= 0, "bench pointsto: --vars must be positive");
    problems.push_back(random_pointsto(vars, cons, std::stoull(a.get("seed", "1"))));
    if (!a.get("write", "").empty()) write_numeric(a.get("write", ""), problems.back());
  }
  fmt::print("device: {} ({})\n{:<32} {:>10} {:>10} {:>14} {:>12} {:>7} {:>10} {:>12}\n", device_backend_name(),
             device_description(), "input", "vars", "cons", "facts", "copy edges", "rounds", "time s", "worklist s");
  for (const auto& p : problems) {
    inclusion_options opt;
    opt.spmm.workspace_bytes = std::size_t(std::stod(a.get("workspace", "0")));  // 0: the default budget
    const inclusion_result r = solve_inclusion(p.constraints, exec::device, opt);
    std::string wl = "-";
    if (a.has("check")) {
      const inclusion_result w = solve_inclusion_worklist(p.constraints);
      if (w.row_ptr != r.row_ptr || w.col != r.col) throw error("bench pointsto: " + p.path + ": differs from the worklist solver");
      wl = fmt::format("{:.4f}", w.stats.seconds);
    }
    fmt::print("{:<32} {:>10} {:>10} {:>14} {:>12} {:>7} {:>10.4f} {:>12}\n", p.path, p.names.size(), p.lines,
               r.stats.facts, r.stats.copy_edges, r.stats.iterations, r.stats.seconds, wl);
  }
  return 0;
}

int run_cfl_bench(const std::vector<std::string>& args) {
  const args_view a = split_args("cfl", args, {"workspace"}, {"check"});
  cfl_options opt;
  opt.spmm.workspace_bytes = std::size_t(std::stod(a.get("workspace", "0")));  // 0: the default budget
  FG_EXPECTS(a.files.size() >= 2, std::string("bench cfl needs a grammar and graph files\n") + bench_usage);
  const cfl_grammar g = read_cfl_grammar(a.files[0]);
  const std::string count = g.names[std::size_t(g.count[0])];
  fmt::print("device: {} ({})\ngrammar: {}, count {}\n{:<40} {:>9} {:>9} {:>14} {:>7} {:>10} {:>14} {:>12}\n",
             device_backend_name(), device_description(), g.path, count, "graph", "nodes", "edges", "count", "rounds",
             "time s", "worklist", "worklist s");
  for (std::size_t i = 1; i < a.files.size(); ++i) {
    const cfl_graph gr = read_cfl_graph(a.files[i], g);
    const cfl_result r = solve_cfl(g, gr, exec::device, opt);
    std::string wc = "-", ws = "-";
    if (a.has("check")) {
      const cfl_result w = solve_cfl_worklist(g, gr);
      wc = std::to_string(w.counts[0]) + (w.counts == r.counts ? "" : " DIFFERS");
      ws = fmt::format("{:.3f}", w.seconds);
    }
    fmt::print("{:<40} {:>9} {:>9} {:>14} {:>7} {:>10.4f} {:>14} {:>12}\n", gr.path, gr.nodes, gr.edges, r.counts[0],
               r.iterations, r.seconds, wc, ws);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace fg::bench
