// The program-analysis subcommands: pointsto (Andersen), cfl (CFL-reachability), cfa (0-CFA).
#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/cfa.hpp"
#include "algorithms/cfl.hpp"
#include "algorithms/pointsto.hpp"
#include "core/error.hpp"
#include "tools/cli.hpp"

namespace fg::cli {

namespace {
// Progress only for a person watching, never into logs.
std::function<void(int, offset_t, offset_t)> progress_line() {
  if (!isatty(STDERR_FILENO)) return {};
  return [](int it, offset_t added, offset_t total) {
    fmt::print(stderr, "\rround {:5d}  new {:>12}  total {:>14}", it, added, total);
  };
}

// Compares a matrix run with the worklist oracle; throws when they differ (a bug, exit 1).
void check_equal(const inclusion_result& got, const inclusion_result& want, const char* what) {
  if (got.row_ptr != want.row_ptr || got.col != want.col)
    throw error(std::string(what) + ": the SpMM fixed point differs from the worklist solver (" +
                std::to_string(got.stats.facts) + " vs " + std::to_string(want.stats.facts) + " facts)");
  fmt::print("check: equal to the worklist solver ({:.4f} s)\n", want.stats.seconds);
}

// "name: obj obj ..." (or "name: size") per variable with a non-empty set, in variable order.
void write_sets(const std::string& path, const std::vector<std::string>& names, const std::vector<std::string>& objects,
                const inclusion_result& r, bool sizes) {
  write_atomically(path, [&](std::FILE* out) {
    bool ok = true;
    for (std::size_t v = 0; v + 1 < r.row_ptr.size() && ok; ++v) {
      if (r.row_ptr[v + 1] == r.row_ptr[v]) continue;
      ok = std::fprintf(out, "%s:", names[v].c_str()) > 0;
      if (sizes) ok = ok && std::fprintf(out, " %lld", static_cast<long long>(r.row_ptr[v + 1] - r.row_ptr[v])) > 0;
      else
        for (offset_t j = r.row_ptr[v]; j < r.row_ptr[v + 1] && ok; ++j)
          ok = std::fprintf(out, " %s", objects[std::size_t(r.col[std::size_t(j)])].c_str()) > 0;
      ok = ok && std::fputc('\n', out) != EOF;
    }
    return ok;
  });
}
}  // namespace

int run_pointsto(const options& o) {
  std::string backend;
  const exec where = backend_of(o, backend);
  const pointsto_problem p = read_pointsto(o.file);
  const inclusion_problem& c = p.constraints;
  fmt::print("{}: {} variables, {} constraints ({} address-of, {} copy, {} load, {} store)\nbackend: {}\n", p.path,
             p.names.size(), p.lines, c.base_node.size(), c.copy_dst.size(), c.load_dst.size(),
             c.stores.empty() ? 0 : c.stores[0].ptr.size(), backend);
  inclusion_options opt;
  opt.progress = progress_line();
  const inclusion_result r = solve_inclusion(c, where, opt);
  if (opt.progress) fmt::print(stderr, "\n");
  fmt::print("points-to facts: {}\ncopy edges: {}\niterations: {}\ntime: {:.4f} s\n", r.stats.facts,
             r.stats.copy_edges, r.stats.iterations, r.stats.seconds);
  if (o.has("check")) check_equal(r, solve_inclusion_worklist(c), "pointsto");
  if (o.values.count("out")) {
    write_sets(o.get("out", ""), p.names, p.names, r, o.has("sizes"));
    fmt::print("points-to sets written to {}\n", o.get("out", ""));
  }
  return 0;
}

int run_cfl(const options& o) {
  std::string backend;
  const exec where = backend_of(o, backend);
  const cfl_grammar g = read_cfl_grammar(o.file2);
  const cfl_graph gr = read_cfl_graph(o.file, g);
  fmt::print("{}: {} nodes, {} edges with the grammar's labels ({} others skipped)\n{}: {} symbols, {} rules (normalised)\n"
             "backend: {}\n", gr.path, gr.nodes, gr.edges, gr.skipped, g.path, g.names.size(), g.rules.size(), backend);
  cfl_options opt;
  opt.progress = progress_line();
  const cfl_result r = solve_cfl(g, gr, where, opt);
  if (opt.progress) fmt::print(stderr, "\n");
  for (std::size_t i = 0; i < g.count.size(); ++i) fmt::print("count {}: {}\n", g.names[std::size_t(g.count[i])], r.counts[i]);
  fmt::print("iterations: {}\ntime: {:.4f} s\n", r.iterations, r.seconds);
  if (o.has("check")) {
    const cfl_result w = solve_cfl_worklist(g, gr);
    if (w.counts != r.counts || w.pairs != r.pairs) throw error("cfl: the SpMM fixed point differs from the worklist solver");
    fmt::print("check: equal to the worklist solver ({:.4f} s)\n", w.seconds);
  }
  return 0;
}

int run_cfa(const options& o) {
  std::string backend;
  const exec where = backend_of(o, backend);
  const cfa_program p = read_cfa_program(o.file);
  fmt::print("{}: {} variables, {} lambdas, {} calls\nbackend: {}\n", p.path, p.vars.size(), p.lambdas.size(),
             p.calls.size(), backend);
  const cfa_result r = analyse_cfa(p, where);
  offset_t largest = 0;
  for (std::size_t v = 0; v < p.vars.size(); ++v) largest = std::max(largest, r.row_ptr[v + 1] - r.row_ptr[v]);
  fmt::print("flow facts: {}\nlargest flow set: {}\niterations: {}\ntime: {:.4f} s\n", r.facts, largest, r.iterations,
             r.seconds);
  if (o.has("check")) {
    const cfa_result w = analyse_cfa_interpreter(p);
    if (w.row_ptr != r.row_ptr || w.col != r.col) throw error("cfa: the SpMM fixed point differs from the abstract interpreter");
    fmt::print("check: equal to the abstract interpreter ({:.4f} s)\n", w.seconds);
  }
  if (o.values.count("out")) {  // "x@line: size: lambdas" per variable
    write_atomically(o.get("out", ""), [&](std::FILE* out) {
      bool ok = true;
      for (std::size_t v = 0; v < p.vars.size() && ok; ++v) {
        ok = std::fprintf(out, "%s@%lld: %lld:", p.vars[v].name.c_str(), static_cast<long long>(p.vars[v].line),
                          static_cast<long long>(r.row_ptr[v + 1] - r.row_ptr[v])) > 0;
        for (offset_t j = r.row_ptr[v]; j < r.row_ptr[v + 1] && ok; ++j)
          ok = std::fprintf(out, " %s", p.lambda_name(int(r.col[std::size_t(j)])).c_str()) > 0;
        ok = ok && std::fputc('\n', out) != EOF;
      }
      return ok;
    });
    fmt::print("flow sets written to {}\n", o.get("out", ""));
  }
  return 0;
}

}  // namespace fg::cli
