// CFL-reachability (algorithms/cfl.hpp), both twins against the worklist oracle:
//  - a hand-written Dyck case (tests/data/cfl/dyck.*) with its pairs checked exactly;
//  - the small POCR inputs copied to tests/data/cfl: every .peg with aa.cfg and every .vfg with
//    vf.cfg, counts of every symbol equal to the worklist solver's (the reference twin on the
//    smaller ones);
//  - random graphs under the Dyck grammar and a transitive-closure grammar;
//  - malformed grammars and graphs throw fg::input_error "file:line: what".
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/cfl.hpp"
#include "core/error.hpp"
#include "analysis_support.hpp"

namespace {
using namespace fg;
namespace fs = std::filesystem;

using test::data;
// The set solver, the build's device solver (the set solver again in the CPU build), the
// value-flow bit-row path where the grammar has its shape and the reference matrix twin against
// the worklist oracle: every symbol's pair count.
void check_against_worklist(const cfl_grammar& g, const cfl_graph& gr, bool reference_too) {
  const cfl_result want = solve_cfl_worklist(g, gr);
  const cfl_result sets = solve_cfl_sets(g, gr);
  CHECK(sets.counts == want.counts);
  CHECK(sets.pairs == want.pairs);
  const cfl_result dev = solve_cfl(g, gr, exec::device);
  CHECK(dev.pairs == want.pairs);
  const auto vf = solve_cfl_value_flow(g, gr);  // the value-flow grammar's bit-row path
  if (vf) {
    CHECK(vf->pairs == want.pairs);
    CHECK(vf->counts == want.counts);
  }
  if (reference_too) {
    const cfl_result ref = solve_cfl(g, gr, exec::reference);
    CHECK(ref.pairs == want.pairs);
#if defined(FG_WITH_CUDA)
    if (!vf) CHECK(ref.iterations == dev.iterations);  // the matrix twins take the same rounds
#endif
  }
  MESSAGE(gr.path << ": count " << dev.counts[0] << ", " << dev.iterations << " rounds, " << dev.seconds << " s (sets "
                  << sets.seconds << " s, worklist " << want.seconds << " s)");
}

// A grammar file written into the build's temporary folder.
std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("fg_test_cfl_" + name);
  std::ofstream(p) << text;
  return p.string();
}
}  // namespace

TEST_CASE("cfl: the hand-written Dyck case gives its known pairs") {
  const cfl_grammar g = read_cfl_grammar(data("cfl/dyck.cfg"));
  const cfl_graph gr = read_cfl_graph(data("cfl/dyck.graph"), g);
  std::vector<std::pair<vertex_t, vertex_t>> want;
  std::ifstream in(data("cfl/dyck.expected"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    vertex_t u = 0, v = 0;
    f >> u >> v;
    want.emplace_back(u, v);
  }
  std::sort(want.begin(), want.end());
  cfl_options opt;
  opt.want_pairs = true;
  for (exec where : {exec::reference, exec::device}) {
    const cfl_result r = solve_cfl(g, gr, where, opt);
    REQUIRE(r.count_pairs.size() == 1);
    CHECK(r.count_pairs[0] == want);
  }
  CHECK(solve_cfl_worklist(g, gr).counts[0] == offset_t(want.size()));
  const auto vf = solve_cfl_value_flow(g, gr, opt);  // Dyck with ε is value flow's shape
  REQUIRE(vf.has_value());
  CHECK(vf->count_pairs[0] == want);
}

TEST_CASE("cfl: only the value-flow shape takes the bit-row path") {
  const cfl_grammar aa = read_cfl_grammar(data("cfl/aa.cfg"));
  const cfl_graph gr = read_cfl_graph(data("cfl/art.peg"), aa);
  CHECK_FALSE(solve_cfl_value_flow(aa, gr).has_value());  // two nonterminals counted through M, V
  const cfl_grammar no_eps = read_cfl_grammar(write_temp("noeps.cfg", "A\tA\tA\nA\ta\n\nCount:\nA\n"));
  cfl_graph g2;
  g2.nodes = 2;
  g2.src.assign(no_eps.names.size(), {});
  g2.dst = g2.idx = g2.src;
  CHECK_FALSE(solve_cfl_value_flow(no_eps, g2).has_value());  // without ε, pts(v) would lack v's own edges' sources
}

TEST_CASE("cfl: POCR alias (.peg, aa.cfg) and value-flow (.vfg, vf.cfg) inputs equal the worklist solver") {
  const cfl_grammar aa = read_cfl_grammar(data("cfl/aa.cfg"));
  const cfl_grammar vf = read_cfl_grammar(data("cfl/vf.cfg"));
  int files = 0;
  for (const auto& e : fs::directory_iterator(data("cfl"))) {
    const std::string ext = e.path().extension().string();
    if (ext != ".peg" && ext != ".vfg") continue;
    CAPTURE(e.path().string());
    ++files;
    const cfl_grammar& g = ext == ".peg" ? aa : vf;
    const cfl_graph gr = read_cfl_graph(e.path().string(), g);
    check_against_worklist(g, gr, fs::file_size(e.path()) < 100000);
  }
  CHECK(files >= 4);
}

TEST_CASE("cfl: random graphs under Dyck, closure, POCR and mixed transitive grammars equal the worklist solver") {
  const cfl_grammar dyck = read_cfl_grammar(data("cfl/dyck.cfg"));
  const cfl_grammar tc = read_cfl_grammar(write_temp("tc.cfg", "# R+ by a long production and a unary one\nT\te\nT\te\tT\nU\tT\te\te\n\nCount:\nT\nU\n"));
  // The POCR grammars, and transitive symbols on both sides of other rules (the set solver joins
  // N -> X N and N -> N X on X's base edges): X, Y transitive, N between them, W through ε and a
  // chain, Z with X on the left of a non-recursive rule.
  const cfl_grammar aa = read_cfl_grammar(data("cfl/aa.cfg"));
  const cfl_grammar vf = read_cfl_grammar(data("cfl/vf.cfg"));
  const cfl_grammar mix = read_cfl_grammar(write_temp(
      "mix.cfg", "X\tX\tX\nX\tx\nX\tN\ty\nY\tY\tY\nY\ty\nY\nN\tX\tN\nN\tN\tY\nN\te\nW\nW\tX\tW\te\nZ\tX\te\n\nCount:\nN\nX\nW\nZ\n"));
  std::mt19937 rng(3);
  for (vertex_t n : {1, 4, 20, 90})
    for (int m : {1, 2, 4}) {
      cfl_graph gr;
      gr.path = "random n=" + std::to_string(n) + " m=" + std::to_string(m);
      gr.nodes = n;
      for (const cfl_grammar* g : {&dyck, &tc, &aa, &vf, &mix}) {
        gr.src.assign(g->names.size(), {});
        gr.dst = gr.idx = gr.src;
        for (int j = 0; j < m * n; ++j)
          for (std::size_t s = 0; s < g->names.size(); ++s) {
            if (!g->terminal[s]) continue;
            gr.src[s].push_back(vertex_t(rng() % std::uint32_t(n)));
            gr.dst[s].push_back(vertex_t(rng() % std::uint32_t(n)));
            if (g->indexed[s]) gr.idx[s].push_back(vertex_t(rng() % 3));
          }
        CAPTURE(gr.path);
        check_against_worklist(*g, gr, true);
      }
    }
}

TEST_CASE("cfl: malformed grammars and graphs throw file:line errors") {
  const cfl_grammar dyck = read_cfl_grammar(data("cfl/dyck.cfg"));
  int files = 0;
  for (const auto& e : fs::directory_iterator(data("cfl/malformed"))) {
    const std::string path = e.path().string();
    ++files;
    test::check_input_error(path, [&] {
      if (e.path().extension() == ".cfg") (void)read_cfl_grammar(path);
      else (void)read_cfl_graph(path, dyck);
    });
  }
  CHECK(files >= 8);
}
