// The public analyses (include/fluxgraph/analyses.hpp): points-to, CFL-reachability and 0-CFA
// through the API, against hand-checked answers, the files' own expected sets, the engine's
// sequential oracles (worklist solvers, the abstract interpreter) and the host twin (device::cpu).
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "algorithms/cfa.hpp"
#include "algorithms/cfl.hpp"
#include "algorithms/pointsto.hpp"
#include "fluxgraph/fluxgraph.hpp"

namespace {
using fluxgraph::device;
const std::string data = FG_TEST_DATA_DIR;

std::vector<std::int32_t> row(const fluxgraph::csr& c, std::int64_t r) {
  return {c.col.begin() + c.row_ptr[std::size_t(r)], c.col.begin() + c.row_ptr[std::size_t(r) + 1]};
}
}  // namespace

TEST_CASE("api analyses: points-to of a hand-checked program, both devices") {
  // 0 = &1 (p = &a), 2 = &3 (q = &b), 4 = 0 (r = p), *0 = 2 (*p = q: a points to b), 5 = *4 (s = *r)
  fluxgraph::pointsto_constraints c;
  c.address_dst = {0, 2}, c.address_src = {1, 3};
  c.copy_dst = {4}, c.copy_src = {0};
  c.store_dst = {0}, c.store_src = {2};
  c.load_dst = {5}, c.load_src = {4};
  for (auto d : {device::automatic, device::cpu}) {
    fluxgraph::analysis_info info;
    const fluxgraph::csr pts = fluxgraph::pointsto(c, d, &info);
    REQUIRE(pts.rows == 6);
    CHECK(row(pts, 0) == std::vector<std::int32_t>{1});
    CHECK(row(pts, 1) == std::vector<std::int32_t>{3});  // a -> b through the store
    CHECK(row(pts, 2) == std::vector<std::int32_t>{3});
    CHECK(row(pts, 3).empty());
    CHECK(row(pts, 4) == std::vector<std::int32_t>{1});
    CHECK(row(pts, 5) == std::vector<std::int32_t>{3});  // s = *r = *p = a's set
    CHECK(info.facts == 5);
    CHECK(info.iterations >= 2);
  }
  c.copy_src = {0, 1};
  CHECK_THROWS_AS(fluxgraph::pointsto(c), fluxgraph::invalid_argument);
  c.copy_src = {-1};
  CHECK_THROWS_AS(fluxgraph::pointsto(c), fluxgraph::invalid_argument);
}

TEST_CASE("api analyses: points-to of every constraint file equals its expected sets and the worklist solver") {
  for (const char* f : {"basic.txt", "cycle.txt", "indirect_store.txt", "linked_list.txt", "load_store.txt", "numeric.cons"}) {
    CAPTURE(f);
    const std::string path = data + "/pointsto/" + f;
    const fluxgraph::pointsto_constraints c = fluxgraph::read_pointsto(path);
    const fluxgraph::csr pts = fluxgraph::pointsto(c);
    const fg::inclusion_result w = fg::solve_inclusion_worklist(fg::read_pointsto(path).constraints);
    CHECK(pts.row_ptr == w.row_ptr);
    CHECK(pts.col == w.col);
    CHECK(fluxgraph::pointsto(c, device::cpu).col == pts.col);
    // "#= var: objects" lines, where the file has them
    std::ifstream in(path);
    std::map<std::string, std::int64_t> id;
    const auto name = [&](std::size_t v) { return c.names.empty() ? std::to_string(v) : c.names[v]; };  // numeric: v
    for (std::size_t v = 0; v < std::size_t(c.variables); ++v) id[name(v)] = std::int64_t(v);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("#= ", 0) != 0) continue;
      std::istringstream s(line.substr(3));
      std::string var, obj;
      s >> var;
      var.pop_back();  // the ':'
      std::set<std::string> want, got;
      while (s >> obj) want.insert(obj);
      for (std::int32_t o : row(pts, id.at(var))) got.insert(name(std::size_t(o)));
      CHECK(got == want);
    }
  }
  CHECK_THROWS_AS(fluxgraph::read_pointsto(data + "/pointsto/malformed/bad_ident.txt"), fluxgraph::input_error);
}

TEST_CASE("api analyses: CFL-reachability of the Dyck graph from a file and from memory, with its pairs") {
  const auto g = fluxgraph::cfl_grammar::read(data + "/cfl/dyck.cfg");
  CHECK(g.counted() == std::vector<std::string>{"S"});
  std::set<std::pair<int, int>> want;
  std::ifstream ex(data + "/cfl/dyck.expected");
  for (std::string line; std::getline(ex, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    int u, v;
    s >> u >> v;
    want.insert({u, v});
  }
  fluxgraph::labelled_edges e;
  std::ifstream in(data + "/cfl/dyck.graph");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    int u, v, i = -1;
    std::string l;
    s >> u >> v >> l;
    if (!(s >> i)) i = -1;
    e.src.push_back(u), e.dst.push_back(v), e.label.push_back(l), e.index.push_back(i);
  }
  e.src.push_back(0), e.dst.push_back(6), e.label.push_back("not_in_grammar"), e.index.push_back(-1);
  for (auto d : {device::automatic, device::cpu}) {
    const fluxgraph::cfl_result from_file = fluxgraph::cfl_reach(g, data + "/cfl/dyck.graph", d, true);
    const fluxgraph::cfl_result from_memory = fluxgraph::cfl_reach(g, e, d, true);
    for (const auto* r : {&from_file, &from_memory}) {
      REQUIRE(r->counts.size() == 1);
      CHECK(r->counts[0] == std::int64_t(want.size()));
      std::set<std::pair<int, int>> got;
      for (std::size_t i = 0; i < r->pairs[0].src.size(); ++i) got.insert({r->pairs[0].src[i], r->pairs[0].dst[i]});
      CHECK(got == want);
    }
    CHECK(from_memory.skipped == from_file.skipped + 1);
  }
  e.index[0] = -1;  // call_i without its index
  CHECK_THROWS_AS(fluxgraph::cfl_reach(g, e), fluxgraph::invalid_argument);
  e.label.pop_back();
  CHECK_THROWS_AS(fluxgraph::cfl_reach(g, e), fluxgraph::invalid_argument);
  CHECK_THROWS_AS(fluxgraph::cfl_reach(g, data + "/cfl/malformed/bad_node.graph"), fluxgraph::input_error);
  CHECK_THROWS_AS(fluxgraph::cfl_grammar::read(data + "/cfl/malformed/count_unknown.cfg"), fluxgraph::input_error);
}

TEST_CASE("api analyses: CFL value flow of a real program (bzip2) equals the worklist solver") {
  const auto g = fluxgraph::cfl_grammar::read(data + "/cfl/vf.cfg");
  const fluxgraph::cfl_result r = fluxgraph::cfl_reach(g, data + "/cfl/bzip2.vfg");
  const fg::cfl_grammar fg_g = fg::read_cfl_grammar(data + "/cfl/vf.cfg");
  const fg::cfl_result w = fg::solve_cfl_worklist(fg_g, fg::read_cfl_graph(data + "/cfl/bzip2.vfg", fg_g));
  CHECK(r.counts == std::vector<std::int64_t>(w.counts.begin(), w.counts.end()));
  CHECK(r.counts[0] > 1000);
}

TEST_CASE("api analyses: 0-CFA of the example programs equals the abstract interpreter") {
  for (const char* f : {"id.scm", "arity.scm", "shadow.scm"}) {
    CAPTURE(f);
    const std::string path = data + "/cfa/" + f;
    const fluxgraph::cfa_result r = fluxgraph::cfa(path);
    const fg::cfa_result w = fg::analyse_cfa_interpreter(fg::read_cfa_program(path));
    CHECK(r.flows.row_ptr == w.row_ptr);
    CHECK(r.flows.col == w.col);
    CHECK(r.variables.size() == std::size_t(r.flows.rows));
    CHECK(r.info.facts == w.facts);
    CHECK(fluxgraph::cfa(path, device::cpu).flows.col == r.flows.col);
  }
  CHECK_THROWS_AS(fluxgraph::cfa(data + "/cfa/does-not-exist.scm"), fluxgraph::input_error);
}
