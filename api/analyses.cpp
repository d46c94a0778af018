// fluxgraph's program analyses (include/fluxgraph/analyses.hpp): the public types mapped onto the
// engine's problems (algorithms/pointsto, cfl, cfa) and its results back to host arrays.
#include "fluxgraph/analyses.hpp"

#include <limits>
#include <map>

#include "algorithms/cfa.hpp"
#include "algorithms/cfl.hpp"
#include "algorithms/pointsto.hpp"

namespace fluxgraph {

struct cfl_grammar::impl {
  fg::cfl_grammar g;
};

namespace {
// Where an analysis runs: the build's device system, or the CUDA build's sequential host twin.
fg::exec exec_of(device where) {
#if defined(FG_WITH_CUDA)
  return where == device::cpu ? fg::exec::reference : fg::exec::device;
#else
  if (where == device::cuda) throw invalid_argument("device cuda needs the CUDA build of fluxgraph (this is the CPU build)");
  return fg::exec::device;
#endif
}

csr to_csr(std::vector<fg::offset_t> row_ptr, std::vector<fg::vertex_t> col, vertex_id cols) {
  csr c;
  c.rows = vertex_id(row_ptr.empty() ? 0 : row_ptr.size() - 1);
  c.cols = cols;
  c.row_ptr = std::move(row_ptr);
  c.col = std::move(col);
  return c;
}

void same_length(std::size_t a, std::size_t b, const char* what) {
  if (a != b) throw invalid_argument(std::string(what) + ": the two id vectors differ in length");
}

std::function<void(int, fg::offset_t, fg::offset_t)> engine_progress(const analysis_progress& p) {
  if (!p) return {};
  return [p](int round, fg::offset_t added, fg::offset_t total) { p(round, added, total); };
}

// The engine's problem for c (its ids checked).
fg::inclusion_problem problem_of(const pointsto_constraints& c, vertex_id& n) {
  same_length(c.address_dst.size(), c.address_src.size(), "pointsto address-of");
  same_length(c.copy_dst.size(), c.copy_src.size(), "pointsto copy");
  same_length(c.load_dst.size(), c.load_src.size(), "pointsto load");
  same_length(c.store_dst.size(), c.store_src.size(), "pointsto store");
  n = c.variables;
  if (n == 0)
    for (const auto* v : {&c.address_dst, &c.address_src, &c.copy_dst, &c.copy_src, &c.load_dst, &c.load_src,
                          &c.store_dst, &c.store_src, &c.call_callee, &c.call_result, &c.call_args, &c.function_object,
                          &c.function_return, &c.function_formals})
      for (std::int32_t x : *v) n = std::max<vertex_id>(n, vertex_id(x) + 1);
  if (n < 0 || n > std::numeric_limits<fg::vertex_t>::max() - 1)
    throw invalid_argument("pointsto: " + std::to_string(n) + " variables is out of range");
  fg::inclusion_problem p;
  p.nodes = p.objects = fg::vertex_t(n);
  p.base_node = c.address_dst, p.base_obj = c.address_src;
  p.copy_dst = c.copy_dst, p.copy_src = c.copy_src;
  p.load_dst = c.load_dst, p.load_ptr = c.load_src;
  if (!c.store_dst.empty()) p.stores.push_back({c.store_dst, c.store_src, {}, {}});
  p.icalls = {c.call_callee, c.call_result, c.call_args, {c.call_arg_begin.begin(), c.call_arg_begin.end()}};
  p.functions = {c.function_object, c.function_return, c.function_formals,
                 {c.function_formal_begin.begin(), c.function_formal_begin.end()}};
  p.check();  // ids in [0, n): fg::invalid_argument otherwise
  return p;
}

csr result_of(const fg::inclusion_result& r, vertex_id n, analysis_info* info) {
  if (info) *info = {r.stats.facts, r.stats.iterations, r.stats.seconds, r.stats.peak_bytes, r.stats.copy_edges};
  return to_csr(r.row_ptr, r.col, n);
}
}  // namespace

csr pointsto(const pointsto_constraints& c, device where, analysis_info* info, const analysis_progress& progress) {
  vertex_id n = 0;
  const fg::inclusion_problem p = problem_of(c, n);
  fg::inclusion_options opt;
  opt.progress = engine_progress(progress);
  // device::cpu of the CUDA build: the wave solver, the fast CPU path, not the sequential matrix
  // twin (the CPU build's exec::device is the wave solver already)
  if (exec_of(where) == fg::exec::reference) return result_of(fg::solve_inclusion_wave(p, opt), n, info);
  return result_of(fg::solve_inclusion(p, exec_of(where), opt), n, info);
}

csr pointsto_reference(const pointsto_constraints& c, analysis_info* info) {
  vertex_id n = 0;
  return result_of(fg::solve_inclusion_worklist(problem_of(c, n)), n, info);
}

pointsto_constraints read_pointsto(const std::string& path) {
  fg::pointsto_problem f = fg::read_pointsto(path);
  fg::inclusion_problem& p = f.constraints;
  pointsto_constraints c;
  c.variables = vertex_id(p.nodes);
  c.address_dst = std::move(p.base_node), c.address_src = std::move(p.base_obj);
  c.copy_dst = std::move(p.copy_dst), c.copy_src = std::move(p.copy_src);
  c.load_dst = std::move(p.load_dst), c.load_src = std::move(p.load_ptr);
  if (!p.stores.empty()) c.store_dst = std::move(p.stores[0].ptr), c.store_src = std::move(p.stores[0].src);
  c.names = std::move(f.names);
  c.call_callee = std::move(p.icalls.callee), c.call_result = std::move(p.icalls.result), c.call_args = std::move(p.icalls.args);
  c.call_arg_begin.assign(p.icalls.arg_ptr.begin(), p.icalls.arg_ptr.end());
  c.function_object = std::move(p.functions.object), c.function_return = std::move(p.functions.ret);
  c.function_formals = std::move(p.functions.formals);
  c.function_formal_begin.assign(p.functions.formal_ptr.begin(), p.functions.formal_ptr.end());
  return c;
}

void write_pointsto(const pointsto_constraints& c, const std::string& path, const csr* solution) {
  vertex_id n = 0;
  fg::pointsto_problem p;
  p.constraints = problem_of(c, n);
  p.names = c.names;
  fg::inclusion_result r;
  if (solution != nullptr) {
    if (solution->row_ptr.size() != std::size_t(n) + 1)
      throw invalid_argument("write_pointsto: the solution has " + std::to_string(solution->row_ptr.size()) +
                             " row offsets, the constraints " + std::to_string(n) + " variables");
    r.row_ptr.assign(solution->row_ptr.begin(), solution->row_ptr.end());
    r.col.assign(solution->col.begin(), solution->col.end());
  }
  fg::write_pointsto_text(p, path, solution != nullptr ? &r : nullptr);
}

bool write_pointsto_sets(std::FILE* out, const std::vector<std::string>& names, const csr& sets, bool sizes) {
  return fg::write_pointsto_sets(out, names, sets.row_ptr, sets.col, sizes);
}

cfl_grammar cfl_grammar::read(const std::string& path) {
  cfl_grammar g;
  g.p = std::make_shared<impl>(impl{fg::read_cfl_grammar(path)});
  return g;
}
std::vector<std::string> cfl_grammar::terminals() const {
  std::vector<std::string> t;
  for (std::size_t s = 0; s < p->g.names.size(); ++s)
    if (p->g.terminal[s]) t.push_back(p->g.names[s]);
  return t;
}
std::vector<std::string> cfl_grammar::symbols() const { return p->g.names; }
std::int64_t cfl_grammar::rules() const { return std::int64_t(p->g.rules.size()); }
std::string cfl_grammar::path() const { return p->g.path; }
std::vector<std::string> cfl_grammar::counted() const {
  std::vector<std::string> c;
  for (int s : p->g.count) c.push_back(p->g.names[std::size_t(s)]);
  return c;
}

namespace {
cfl_result result_of(const fg::cfl_grammar& g, const fg::cfl_graph& gr, const fg::cfl_result& r) {
  cfl_result out;
  for (std::size_t i = 0; i < g.count.size(); ++i) {
    out.symbols.push_back(g.names[std::size_t(g.count[i])]);
    out.counts.push_back(r.counts[i]);
    out.info.facts += r.counts[i];
  }
  for (const auto& pairs : r.count_pairs) {
    coo c;
    for (const auto& [u, v] : pairs) c.src.push_back(u), c.dst.push_back(v);
    out.pairs.push_back(std::move(c));
  }
  out.symbol_pairs.assign(r.pairs.begin(), r.pairs.end());
  out.nodes = gr.nodes;
  out.edges = gr.edges;
  out.skipped = gr.skipped;
  out.info.iterations = r.iterations;
  out.info.seconds = r.seconds;
  out.info.peak_bytes = r.peak_bytes;
  return out;
}

cfl_result solve(const fg::cfl_grammar& g, const fg::cfl_graph& gr, device where, bool want_pairs,
                 const analysis_progress& progress) {
  fg::cfl_options opt;
  opt.want_pairs = want_pairs;
  opt.progress = engine_progress(progress);
  // device::cpu of the CUDA build: the set solver, the fast CPU path (as for points-to)
  if (exec_of(where) == fg::exec::reference) return result_of(g, gr, fg::solve_cfl_sets(g, gr, opt));
  return result_of(g, gr, fg::solve_cfl(g, gr, exec_of(where), opt));
}
}  // namespace

cfl_result cfl_reach(const cfl_grammar& grammar, const labelled_edges& e, device where, bool want_pairs,
                     const analysis_progress& progress) {
  if (!grammar.p) throw invalid_argument("cfl_reach: the grammar is empty (read one with cfl_grammar::read)");
  const fg::cfl_grammar& g = grammar.p->g;
  same_length(e.src.size(), e.dst.size(), "cfl_reach");
  if (e.label.size() != e.src.size()) throw invalid_argument("cfl_reach: labels and edges differ in length");
  if (!e.index.empty() && e.index.size() != e.src.size())
    throw invalid_argument("cfl_reach: indexes and edges differ in length");
  std::map<std::string, std::size_t, std::less<>> label;
  for (std::size_t s = 0; s < g.names.size(); ++s)
    if (g.terminal[s]) label.emplace(g.names[s], s);
  fg::cfl_graph gr;
  gr.src.resize(g.names.size()), gr.dst.resize(g.names.size()), gr.idx.resize(g.names.size());
  std::int64_t max_id = -1;
  for (std::size_t i = 0; i < e.src.size(); ++i) {
    if (e.src[i] < 0 || e.dst[i] < 0 || e.src[i] == std::numeric_limits<std::int32_t>::max() ||
        e.dst[i] == std::numeric_limits<std::int32_t>::max())
      throw invalid_argument("cfl_reach: edge " + std::to_string(i) + " has an id outside [0, 2^31 - 1)");
    max_id = std::max<std::int64_t>({max_id, e.src[i], e.dst[i]});
    const auto it = label.find(e.label[i]);
    if (it == label.end()) {
      ++gr.skipped;
      continue;
    }
    if (g.indexed[it->second]) {
      if (e.index.empty() || e.index[i] < 0)
        throw invalid_argument("cfl_reach: edge " + std::to_string(i) + ": the indexed label '" + e.label[i] + "' needs an index");
      gr.idx[it->second].push_back(e.index[i]);
    }
    gr.src[it->second].push_back(e.src[i]);
    gr.dst[it->second].push_back(e.dst[i]);
    ++gr.edges;
  }
  gr.nodes = fg::vertex_t(max_id + 1);
  return solve(g, gr, where, want_pairs, progress);
}

cfl_result cfl_reach(const cfl_grammar& grammar, const std::string& graph_path, device where, bool want_pairs,
                     const analysis_progress& progress) {
  if (!grammar.p) throw invalid_argument("cfl_reach: the grammar is empty (read one with cfl_grammar::read)");
  return solve(grammar.p->g, fg::read_cfl_graph(graph_path, grammar.p->g), where, want_pairs, progress);
}

cfl_result cfl_reach_reference(const cfl_grammar& grammar, const std::string& graph_path) {
  if (!grammar.p) throw invalid_argument("cfl_reach_reference: the grammar is empty (read one with cfl_grammar::read)");
  const fg::cfl_graph gr = fg::read_cfl_graph(graph_path, grammar.p->g);
  return result_of(grammar.p->g, gr, fg::solve_cfl_worklist(grammar.p->g, gr));
}

namespace {
cfa_result result_of(const fg::cfa_program& p, const fg::cfa_result& r) {
  cfa_result out;
  out.calls = std::int64_t(p.calls.size());
  for (const auto& v : p.vars) out.variables.push_back(v.name + "@" + std::to_string(v.line));
  for (std::size_t l = 0; l < p.lambdas.size(); ++l) out.lambdas.push_back(p.lambda_name(int(l)));
  out.flows = to_csr(r.row_ptr, r.col, vertex_id(p.lambdas.size()));
  out.info.facts = r.facts;
  out.info.iterations = r.iterations;
  out.info.seconds = r.seconds;
  return out;
}
}  // namespace

cfa_result cfa(const std::string& program_path, device where) {
  const fg::cfa_program p = fg::read_cfa_program(program_path);
  return result_of(p, fg::analyse_cfa(p, exec_of(where)));
}

cfa_result cfa_reference(const std::string& program_path) {
  const fg::cfa_program p = fg::read_cfa_program(program_path);
  return result_of(p, fg::analyse_cfa_interpreter(p));
}

}  // namespace fluxgraph
