// Transitive closure and reachability (algorithms/closure.hpp), both twins:
//  - against boost::transitive_closure on random and hand-made digraphs (self-loops, cycles,
//    repeated edges, isolated vertices) and small real graphs;
//  - pair counts and semi-naive iteration counts against the published table
//    (tests/data/closure/expected.tsv) on road networks, meshes, a social graph and GO;
//  - reachable() rows equal the closure's rows; a sliced run equals an unsliced one; out of memory
//    throws fg::out_of_memory and leaves R as it was.
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/closure.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "tests/unit/file_analyses.hpp"
#include "loaders/graph_file.hpp"
#include "storage/dcsr.hpp"
#include "closure_support.hpp"

namespace {
using namespace fg;
using namespace fg::test;
using edges = pair_list;

template <class S>
dcsr_matrix<pattern, S> store_of(vertex_t n, const edges& e) {
  std::vector<vertex_t> r, c;
  for (const auto& [u, v] : e) {
    r.push_back(u);
    c.push_back(v);
  }
  return dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(r, c), n, n);
}

// The closure of (n, e) on both twins equals Boost's; returns the iterations (equal on both).
int check_against_boost(const std::string& what, vertex_t n, const edges& e) {
  CAPTURE(what);
  const pair_set want = boost_closure(n, e);
  closure_stats ref, dev;
  const auto a = transitive_closure(store_of<host_space>(n, e), {}, &ref);
  const auto b = transitive_closure(store_of<device_space>(n, e), {}, &dev);
  CHECK(pairs_of(a) == want);
  CHECK(pairs_of(b) == want);
  CHECK(ref.pairs == offset_t(want.size()));
  CHECK(dev.pairs == ref.pairs);
  CHECK(dev.iterations == ref.iterations);
  return ref.iterations;
}

edges edges_of(const edge_file& f) {
  edges e;
  for (std::size_t i = 0; i < f.src.size(); ++i) e.emplace_back(f.src[i], f.dst[i]);
  return e;
}
}  // namespace

TEST_CASE("closure equals Boost.Graph's transitive_closure on hand-made digraphs, with iteration counts") {
  CHECK(check_against_boost("no vertices", 0, {}) == 0);
  CHECK(check_against_boost("vertices, no edges", 5, {}) == 0);
  CHECK(check_against_boost("one edge", 2, {{0, 1}}) == 1);
  CHECK(check_against_boost("self-loop only", 3, {{1, 1}}) == 1);
  CHECK(check_against_boost("3-cycle: every pair, self-pairs included", 3, {{0, 1}, {1, 2}, {2, 0}}) == 3);
  CHECK(check_against_boost("2-cycle with a tail", 4, {{0, 1}, {1, 0}, {1, 2}, {3, 3}}) == 2);
  CHECK(check_against_boost("repeated edges", 3, {{0, 1}, {0, 1}, {1, 2}, {1, 2}, {0, 1}}) == 2);
  edges chain;
  for (vertex_t i = 0; i < 50; ++i) chain.emplace_back(i, i + 1);
  // Paths of length 1..50: Δ₀..Δ₄₉ are non-empty, the 50th SpMM finds nothing new.
  CHECK(check_against_boost("chain of 50 edges", 51, chain) == 50);
  edges star_in, star_out;
  for (vertex_t i = 1; i < 40; ++i) star_in.emplace_back(i, 0), star_out.emplace_back(0, i);
  check_against_boost("in-star", 40, star_in);
  check_against_boost("out-star", 40, star_out);
}

TEST_CASE("closure equals Boost.Graph's transitive_closure on random digraphs and small real graphs") {
  std::mt19937 g(42);
  for (vertex_t n : {1, 2, 7, 31, 33, 100, 257})
    for (double degree : {0.5, 1.0, 2.0, 6.0}) {
      edges e;
      const auto m = std::size_t(degree * n);
      for (std::size_t i = 0; i < m; ++i) e.emplace_back(vertex_t(g() % n), vertex_t(g() % n));
      check_against_boost("random n=" + std::to_string(n) + " degree=" + std::to_string(degree), n, e);
    }
  for (const char* f : {"pagerank/graphs/karate.mtx", "pagerank/graphs/west0067.mtx", "pagerank/graphs/hartford_drug.edgelist",
                        "loaders/email-Eu-core-head.txt"}) {
    const edge_file file = read_graph(data(f));
    check_against_boost(f, vertex_t(file.num_vertices), edges_of(file));
  }
}

TEST_CASE("closure pair counts and iterations equal the published table (device twin; reference on the small ones)") {
  std::ifstream in(data("closure/expected.tsv"));
  REQUIRE(in.good());
  std::string line;
  int graphs = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string file, iterations;
    offset_t pairs = 0;
    fields >> file >> pairs >> iterations;
    CAPTURE(file);
    const edge_file f = read_graph(data("closure/" + file));
    const closure_run dev = closure_of_file(f, nullptr, {}, exec::device, false);
    CHECK(dev.stats.pairs == pairs);
    if (iterations != "-") CHECK(dev.stats.iterations == std::stoi(iterations));
    CHECK(dev.stats.peak_bytes > 0);
    MESSAGE(file << ": " << dev.stats.pairs << " pairs, " << dev.stats.iterations << " iterations, "
                 << dev.stats.seconds << " s, peak " << dev.stats.peak_bytes / 1048576.0 << " MiB");
    if (f.src.size() < 15000) {  // the sequential twin too, pair for pair
      const closure_run a = closure_of_file(f, nullptr, {}, exec::reference, true);
      const closure_run b = closure_of_file(f, nullptr, {}, exec::device, true);
      CHECK(a.stats.pairs == pairs);
      CHECK(a.stats.iterations == dev.stats.iterations);
      CHECK(a.row_ptr == b.row_ptr);
      CHECK(a.col == b.col);
    }
    ++graphs;
  }
  CHECK(graphs == 9);
}

TEST_CASE("reachable rows equal the closure's rows: repeated sources, a source on a cycle, a sink") {
  const edge_file f = read_graph(data("closure/OL.cedge.data_7035.txt.gz"));
  const closure_run all = closure_of_file(f, nullptr, {}, exec::device, true);
  const std::vector<vertex_t> sources = {0, 17, 17, 4000, vertex_t(f.num_vertices - 1), 1234};
  for (exec where : {exec::reference, exec::device}) {
    const closure_run some = closure_of_file(f, &sources, {}, where, true);
    REQUIRE(some.row_ptr.size() == sources.size() + 1);
    offset_t total = 0;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const auto s = std::size_t(sources[i]);
      const std::vector<vertex_t> want(all.col.begin() + all.row_ptr[s], all.col.begin() + all.row_ptr[s + 1]);
      const std::vector<vertex_t> got(some.col.begin() + some.row_ptr[i], some.col.begin() + some.row_ptr[i + 1]);
      CHECK(got == want);
      total += offset_t(want.size());
    }
    CHECK(some.stats.pairs == total);
  }
  // A cycle: its vertices reach themselves; a vertex without out-edges reaches nothing.
  for (exec where : {exec::reference, exec::device}) {
    const edges e = {{0, 1}, {1, 2}, {2, 0}, {2, 3}};
    const std::vector<vertex_t> src = {0, 3};
    dcsr_matrix<pattern, host_space> h = store_of<host_space>(5, e);
    const auto d = store_of<device_space>(5, e);
    const pair_set got = where == exec::reference ? pairs_of(reachable(h, src)) : pairs_of(reachable(d, src));
    CHECK(got == pair_set{{0, 0}, {0, 1}, {0, 2}, {0, 3}});
  }
  CHECK_THROWS_AS(reachable(store_of<host_space>(3, {{0, 1}}), {3}), invalid_argument);
}

TEST_CASE("closure sliced by a tiny workspace gives the same pairs; out of memory throws and keeps R") {
  const edge_file f = read_graph(data("closure/TG.cedge.data_23874.txt.gz"));
  const auto n = vertex_t(f.num_vertices);
  const auto R = dcsr_matrix<pattern, device_space>::from_coo(make_coo<pattern, device_space>(f.src, f.dst), n, n);
  closure_stats whole, sliced;
  const auto a = transitive_closure(R, {}, &whole);
  closure_options tiny;
  tiny.spmm.workspace_bytes = 20000;
  const auto b = transitive_closure(R, tiny, &sliced);
  CHECK(sliced.slices > 10 * whole.slices);
  CHECK(sliced.pairs == 481121);
  CHECK(sliced.iterations == 58);
  CHECK(pairs_of(a) == pairs_of(b));

  // With a fixed workspace the run allocates the same way until it fails, so a limit below its
  // peak must fail: at 30% of the peak early, at 90% near the peak, after some iterations.
  const auto before = pairs_of(R);
  const std::size_t used = memory::bytes_in_use();
  closure_options fixed;
  fixed.spmm.workspace_bytes = 200000;
  closure_stats free_run;
  (void)transitive_closure(R, fixed, &free_run);
  REQUIRE(free_run.peak_bytes > used);
  for (double share : {0.3, 0.9}) {
    CAPTURE(share);
    int reached = 0;
    fixed.progress = [&](int it, offset_t, offset_t) { reached = it; };
    memory::set_limit_for_testing(used + std::size_t(share * double(free_run.peak_bytes - used)));
    CHECK_THROWS_AS(transitive_closure(R, fixed), out_of_memory);
    memory::set_limit_for_testing(0);
    CHECK(memory::bytes_in_use() == used);
    if (share > 0.5) CHECK(reached > 0);
  }
  CHECK(pairs_of(R) == before);
}
