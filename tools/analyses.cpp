// The program-analysis subcommands: pointsto (Andersen), cfl (CFL-reachability), cfa (0-CFA).
#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tools/cli.hpp"
#include "tools/json.hpp"

namespace fg::cli {

namespace {
using fluxgraph::csr;

// Compares a matrix run with the worklist oracle; throws when they differ (a bug, exit 1).
void check_equal(const csr& got, const csr& want, const fluxgraph::analysis_info& w, const char* what) {
  if (got.row_ptr != want.row_ptr || got.col != want.col)
    throw fluxgraph::error(std::string(what) + ": the SpMM fixed point differs from the worklist solver (" +
                           std::to_string(got.col.size()) + " vs " + std::to_string(want.col.size()) + " facts)");
  fmt::print("check: equal to the worklist solver ({:.4f} s)\n", w.seconds);
}

// --format json's object for an analysis: what every summary starts with, then the analysis's counts.
json_line json_head(const options& o, const std::string& backend, const fluxgraph::analysis_info& info) {
  json_line j;
  j.text("command", o.command).text("file", o.file).text("backend", backend).field("facts", info.facts);
  j.field("iterations", info.iterations).field("seconds", info.seconds);
  return j;
}

void write_sets(const std::string& path, const std::vector<std::string>& names, const csr& r, bool sizes) {
  write_atomically(path, [&](std::FILE* out) { return fluxgraph::write_pointsto_sets(out, names, r, sizes); });
}
}  // namespace

int run_pointsto(const options& o) {
  std::string backend;
  const fluxgraph::device where = backend_of(o, backend);
  const fluxgraph::pointsto_constraints c = fluxgraph::read_pointsto(o.file);
  const std::size_t lines = c.address_dst.size() + c.copy_dst.size() + c.load_dst.size() + c.store_dst.size();
  fmt::print("{}: {} variables, {} constraints ({} address-of, {} copy, {} load, {} store, {} indirect calls)\nbackend: {}\n",
             o.file, c.variables, lines + c.call_callee.size(), c.address_dst.size(), c.copy_dst.size(), c.load_dst.size(),
             c.store_dst.size(), c.call_callee.size(), backend);
  const bool keep_calls = o.has("keep-calls") && o.values.count("constraints-out");
  if (keep_calls) {  // needs no solution: written first, so a problem too large to solve still gets its file
    fluxgraph::write_pointsto(c, o.get("constraints-out", ""), nullptr);
    fmt::print("constraints written to {}\n", o.get("constraints-out", ""));
    if (o.has("no-solve")) return 0;
  }
  const auto progress = progress_line("round");
  fluxgraph::analysis_info info;
  const csr pts = fluxgraph::pointsto(c, where, &info, progress);
  if (progress) fmt::print(stderr, "\n");
  fmt::print("points-to facts: {}\ncopy edges: {}\niterations: {}\ntime: {:.4f} s\n", info.facts, info.copy_edges,
             info.iterations, info.seconds);
  if (o.has("check")) {
    fluxgraph::analysis_info w;
    const csr want = fluxgraph::pointsto_reference(c, &w);
    check_equal(pts, want, w, "pointsto");
  }
  if (o.values.count("out")) {
    write_sets(o.get("out", ""), c.names, pts, o.has("sizes"));
    fmt::print("points-to sets written to {}\n", o.get("out", ""));
  }
  if (o.values.count("constraints-out") && !keep_calls) {
    fluxgraph::write_pointsto(c, o.get("constraints-out", ""), &pts);
    fmt::print("constraints written to {}\n", o.get("constraints-out", ""));
  }
  if (json_output(o))
    json_head(o, backend, info).field("variables", c.variables).field("constraints", lines + c.call_callee.size())
        .field("copy_edges", info.copy_edges).flag("checked", o.has("check")).print(data_stream());
  return 0;
}

int run_cfl(const options& o) {
  std::string backend;
  const fluxgraph::device where = backend_of(o, backend);
  const fluxgraph::cfl_grammar g = fluxgraph::cfl_grammar::read(o.file2);
  const auto progress = progress_line("round");
  const fluxgraph::cfl_result r = fluxgraph::cfl_reach(g, o.file, where, false, progress);
  if (progress) fmt::print(stderr, "\n");
  fmt::print("{}: {} nodes, {} edges with the grammar's labels ({} others skipped)\n{}: {} symbols, {} rules (normalised)\n"
             "backend: {}\n", o.file, r.nodes, r.edges, r.skipped, g.path(), g.symbols().size(), g.rules(), backend);
  for (std::size_t i = 0; i < r.symbols.size(); ++i) fmt::print("count {}: {}\n", r.symbols[i], r.counts[i]);
  fmt::print("iterations: {}\ntime: {:.4f} s\n", r.info.iterations, r.info.seconds);
  if (o.has("check")) {
    const fluxgraph::cfl_result w = fluxgraph::cfl_reach_reference(g, o.file);
    if (w.counts != r.counts || w.symbol_pairs != r.symbol_pairs)
      throw fluxgraph::error("cfl: the SpMM fixed point differs from the worklist solver");
    fmt::print("check: equal to the worklist solver ({:.4f} s)\n", w.info.seconds);
  }
  if (json_output(o)) {
    std::string counts = "{";
    for (std::size_t i = 0; i < r.symbols.size(); ++i)
      counts += fmt::format("{}{}:{}", i ? "," : "", json_line::quoted(r.symbols[i]), r.counts[i]);
    json_head(o, backend, r.info).text("grammar", g.path()).field("nodes", r.nodes).field("edges", r.edges)
        .field("counts", counts + "}").flag("checked", o.has("check")).print(data_stream());
  }
  return 0;
}

int run_cfa(const options& o) {
  std::string backend;
  const fluxgraph::device where = backend_of(o, backend);
  const fluxgraph::cfa_result r = fluxgraph::cfa(o.file, where);
  const csr& f = r.flows;
  fmt::print("{}: {} variables, {} lambdas, {} calls\nbackend: {}\n", o.file, r.variables.size(), r.lambdas.size(),
             r.calls, backend);
  std::int64_t largest = 0;
  for (std::size_t v = 0; v + 1 < f.row_ptr.size(); ++v) largest = std::max(largest, f.row_ptr[v + 1] - f.row_ptr[v]);
  fmt::print("flow facts: {}\nlargest flow set: {}\niterations: {}\ntime: {:.4f} s\n", r.info.facts, largest,
             r.info.iterations, r.info.seconds);
  if (o.has("check")) {
    const fluxgraph::cfa_result w = fluxgraph::cfa_reference(o.file);
    if (w.flows.row_ptr != f.row_ptr || w.flows.col != f.col)
      throw fluxgraph::error("cfa: the SpMM fixed point differs from the abstract interpreter");
    fmt::print("check: equal to the abstract interpreter ({:.4f} s)\n", w.info.seconds);
  }
  if (o.values.count("out")) {  // "x@line: size: lambdas" per variable
    write_atomically(o.get("out", ""), [&](std::FILE* out) {
      bool ok = true;
      for (std::size_t v = 0; v < r.variables.size() && ok; ++v) {
        ok = std::fprintf(out, "%s: %lld:", r.variables[v].c_str(), static_cast<long long>(f.row_ptr[v + 1] - f.row_ptr[v])) > 0;
        for (std::int64_t j = f.row_ptr[v]; j < f.row_ptr[v + 1] && ok; ++j)
          ok = std::fprintf(out, " %s", r.lambdas[std::size_t(f.col[std::size_t(j)])].c_str()) > 0;
        ok = ok && std::fputc('\n', out) != EOF;
      }
      return ok;
    });
    fmt::print("flow sets written to {}\n", o.get("out", ""));
  }
  if (json_output(o))
    json_head(o, backend, r.info).field("variables", r.variables.size()).field("lambdas", r.lambdas.size())
        .field("calls", r.calls).field("largest_flow_set", largest).flag("checked", o.has("check")).print(data_stream());
  return 0;
}

}  // namespace fg::cli
