// The public API (include/fluxgraph): fluxgraph::graph against hand-checked cases, a host edge-set
// model, BFS for closure and reach, a hand loop for SpMV, networkx's PageRank of karate, and the
// host twin (device::cpu) for every result. Only the public header is included, as a user would.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "fluxgraph/fluxgraph.hpp"

namespace {
using fluxgraph::graph;
using edge = std::pair<std::int64_t, std::int64_t>;

// The edges in the caller's ids (to_coo() gives vertex numbers; ids() names them).
std::set<edge> edges_of(const graph& g) {
  const fluxgraph::coo c = g.to_coo();
  const std::vector<fluxgraph::vertex_id> id = g.ids();
  std::set<edge> s;
  for (std::size_t i = 0; i < c.src.size(); ++i) s.insert({id[std::size_t(c.src[i])], id[std::size_t(c.dst[i])]});
  return s;
}

// Vertices reachable from s by a path of length >= 1 (BFS over the model).
std::set<std::int64_t> bfs(const std::set<edge>& e, std::int64_t s) {
  std::set<std::int64_t> seen;
  std::vector<std::int64_t> todo{s};
  while (!todo.empty()) {
    const std::int64_t u = todo.back();
    todo.pop_back();
    for (auto it = e.lower_bound({u, std::numeric_limits<std::int64_t>::min()}); it != e.end() && it->first == u; ++it)
      if (seen.insert(it->second).second) todo.push_back(it->second);
  }
  return seen;
}

fluxgraph::graph_options on(fluxgraph::device d, bool weighted = false,
                            fluxgraph::vertex_ids ids = fluxgraph::vertex_ids::renumber) {
  fluxgraph::graph_options o;
  o.where = d;
  o.weighted = weighted;
  o.ids = ids;
  return o;
}
}  // namespace

// Dense ids (the opt-out): vertex numbers are the ids, and ids past the largest are refused;
// renumbering's batches and errors are tests/backend/test_api_ids.cpp's.
TEST_CASE("api: a hand-checked graph in dense ids: batches, reads, errors that leave it unchanged") {
  for (auto d : {fluxgraph::device::automatic, fluxgraph::device::cpu}) {
    graph g(0, on(d, false, fluxgraph::vertex_ids::dense));
    const auto r = g.insert(std::vector<std::int32_t>{0, 1, 2, 2, 2}, std::vector<std::int32_t>{1, 2, 0, 3, 0});
    CHECK(r.batch == 1);
    CHECK(r.inserted == 4);  // (2, 0) twice: an unweighted graph keeps it once
    CHECK(g.num_vertices() == 4);
    CHECK(g.num_edges() == 4);
    CHECK(g.neighbors(2) == std::vector<fluxgraph::vertex_id>{0, 3});
    CHECK(g.out_degree() == std::vector<std::int64_t>{1, 1, 2, 0});
    CHECK(g.out_degree(3) == 0);
    const fluxgraph::csr c = g.to_csr();
    CHECK(c.row_ptr == std::vector<std::int64_t>{0, 1, 2, 4, 4});
    CHECK(c.col == std::vector<std::int32_t>{1, 2, 0, 3});
    CHECK(c.val.empty());
    const auto v = g.version();
    // A bad batch: the error names batch 2 and the edge, and nothing changes.
    try {
      g.insert(std::vector<std::int64_t>{0, 5}, std::vector<std::int64_t>{1, std::int64_t(1) << 40});
      FAIL("no error");
    } catch (const fluxgraph::batch_error& e) {
      CHECK(e.batch() == 2);
      CHECK(e.edge() == 1);
      CHECK(std::string(e.what()).find("past the largest id") != std::string::npos);
    }
    CHECK_THROWS_AS(g.insert(std::vector<std::int64_t>{-3}, std::vector<std::int64_t>{1}), fluxgraph::batch_error);
    CHECK_THROWS_AS(g.insert(std::vector<std::int32_t>{1, -1}, std::vector<std::int32_t>{1, 2}), fluxgraph::batch_error);
    CHECK_THROWS_AS(g.insert(std::vector<std::int32_t>{1}, std::vector<std::int32_t>{1}, {2.0}),
                    fluxgraph::invalid_argument);
    CHECK_THROWS_AS(g.insert(std::vector<std::int32_t>{1, 2}, std::vector<std::int32_t>{1}), fluxgraph::invalid_argument);
    CHECK_THROWS_AS(g.neighbors(4), fluxgraph::invalid_argument);
    CHECK(g.version() == v);
    CHECK(g.num_vertices() == 4);
    CHECK(edges_of(g) == std::set<edge>{{0, 1}, {1, 2}, {2, 0}, {2, 3}});
    // Delete (an absent edge is a no-op), then a mixed batch: delete first, insert after.
    const auto e = g.erase(std::vector<std::int32_t>{1, 3}, std::vector<std::int32_t>{2, 0});
    CHECK(e.deleted == 1);
    const std::vector<std::int32_t> is{2, 4}, id{2, 0}, ds{2}, dd{2};
    const auto m = g.apply(fluxgraph::edge_span<std::int32_t>{is.data(), id.data(), 2},
                           fluxgraph::edge_span<std::int32_t>{ds.data(), dd.data(), 1});
    CHECK(m.deleted == 0);
    CHECK(m.inserted == 2);
    CHECK(g.num_vertices() == 5);
    CHECK(edges_of(g) == std::set<edge>{{0, 1}, {2, 0}, {2, 3}, {2, 2}, {4, 0}});
    g.resize(9);
    CHECK(g.num_vertices() == 9);
    g.defragment();
    CHECK(edges_of(g) == std::set<edge>{{0, 1}, {2, 0}, {2, 3}, {2, 2}, {4, 0}});
    CHECK_FALSE(g.maybe_defragment(10).defragmented);  // packed already
  }
  CHECK_THROWS_AS(graph(-1), fluxgraph::invalid_argument);
  if (fluxgraph::build_backend() != "cuda") CHECK_THROWS_AS(graph(3, on(fluxgraph::device::cuda)), fluxgraph::invalid_argument);
}

TEST_CASE("api: weighted graphs add repeated edges up; SpMV in three semirings against a hand loop") {
  std::mt19937_64 rng(7);
  const int n = 300;
  std::vector<std::int64_t> s, t;
  std::vector<double> w;
  for (int i = 0; i < 3000; ++i) {
    s.push_back(std::int64_t(rng() % n));
    t.push_back(std::int64_t(rng() % n));
    w.push_back(double(rng() % 7) + 0.5);
  }
  std::vector<double> x(n);
  for (auto& xi : x) xi = double(rng() % 5);  // some zeros: or_and sees them
  std::map<edge, double> model, lightest;  // a weighted graph keeps parallel edges apiece
  for (std::size_t i = 0; i < s.size(); ++i) {
    model[{s[i], t[i]}] += w[i];
    auto [it, fresh] = lightest.insert({{s[i], t[i]}, w[i]});
    if (!fresh) it->second = std::min(it->second, w[i]);
  }
  for (auto d : {fluxgraph::device::automatic, fluxgraph::device::cpu}) {
    graph gw(n, on(d, true)), gp(n, on(d, false));
    gw.insert(s, t, w);
    gp.insert(s, t);
    CHECK(std::size_t(gp.num_edges()) == model.size());
    const fluxgraph::coo c = gw.to_coo();
    std::map<edge, double> got;
    for (std::size_t i = 0; i < c.src.size(); ++i) got[{c.src[i], c.dst[i]}] += c.val[i];
    REQUIRE(got.size() == model.size());
    for (const auto& [k, val] : model) CHECK(got[k] == doctest::Approx(val));
    std::vector<double> pt(n, 0), mp(n, std::numeric_limits<double>::infinity()), oa(n, 0), ptp(n, 0);
    for (const auto& [k, val] : model) {
      pt[std::size_t(k.first)] += val * x[std::size_t(k.second)];
      ptp[std::size_t(k.first)] += x[std::size_t(k.second)];
      mp[std::size_t(k.first)] = std::min(mp[std::size_t(k.first)], lightest[k] + x[std::size_t(k.second)]);
      if (x[std::size_t(k.second)] != 0) oa[std::size_t(k.first)] = 1;
    }
    const auto y1 = gw.spmv(x), y2 = gw.spmv(x, fluxgraph::semiring::min_plus), y3 = gp.spmv(x, fluxgraph::semiring::or_and),
               y4 = gp.spmv(x);
    for (int v = 0; v < n; ++v) {
      CHECK(y1[std::size_t(v)] == doctest::Approx(pt[std::size_t(v)]));
      CHECK(y2[std::size_t(v)] == mp[std::size_t(v)]);
      CHECK(y3[std::size_t(v)] == oa[std::size_t(v)]);
      CHECK(y4[std::size_t(v)] == doctest::Approx(ptp[std::size_t(v)]));
    }
    CHECK_THROWS_AS(gw.spmv(x, fluxgraph::semiring::or_and), fluxgraph::invalid_argument);
    CHECK_THROWS_AS(gw.spmv(std::vector<double>(3)), fluxgraph::invalid_argument);
    std::vector<double> nan_w(1, std::nan(""));
    CHECK_THROWS_AS(gw.insert(std::vector<std::int32_t>{0}, std::vector<std::int32_t>{1}, nan_w), fluxgraph::batch_error);
  }
}

TEST_CASE("api: a random stream of mixed batches equals the edge-set model; PageRank kept current") {
  std::mt19937_64 rng(11);
  for (auto d : {fluxgraph::device::automatic, fluxgraph::device::cpu}) {
    graph g(0, on(d));
    std::set<edge> model;
    fluxgraph::pagerank_result last;
    for (int b = 0; b < 12; ++b) {
      std::vector<std::int64_t> is, id, ds, dd;
      const std::int64_t n = 50 + 30 * b;
      // Large batches first, then ones that change a few percent of the edges: PageRank kept
      // current pushes from those (a batch that changes a quarter of the graph starts over).
      for (int i = 0; i < (b < 3 ? 200 : 30); ++i) is.push_back(std::int64_t(rng() % n)), id.push_back(std::int64_t(rng() % n));
      for (const auto& e : model)
        if (rng() % (b < 3 ? 5 : 50) == 0) ds.push_back(e.first), dd.push_back(e.second);
      g.apply(fluxgraph::edge_span<std::int64_t>{is.data(), id.data(), is.size()},
              fluxgraph::edge_span<std::int64_t>{ds.data(), dd.data(), ds.size()});
      for (std::size_t i = 0; i < ds.size(); ++i) model.erase({ds[i], dd[i]});
      for (std::size_t i = 0; i < is.size(); ++i) model.insert({is[i], id[i]});
      REQUIRE(edges_of(g) == model);
      if (b < 3) continue;
      // Warm PageRank (the in-edge copy follows the batches) against a graph built from scratch,
      // in g's vertex numbers (what scores are indexed by).
      last = g.pagerank();
      CHECK(last.warm_started == (b > 3));
      graph fresh(g.num_vertices(), on(d, false, fluxgraph::vertex_ids::dense));
      std::vector<std::int64_t> fs, fd;
      for (const auto& e : model) fs.push_back(g.index(e.first)), fd.push_back(g.index(e.second));
      fresh.insert(fs, fd);
      const auto cold = fresh.pagerank();
      REQUIRE(cold.score.size() == last.score.size());
      double l1 = 0;
      for (std::size_t v = 0; v < cold.score.size(); ++v) l1 += std::abs(cold.score[v] - last.score[v]);
      // Each is within d / (1 - d) tol n of the fixed point (L1): the kept scores by their bound.
      CHECK(last.converged);
      CHECK(l1 < 2 * 0.85 / 0.15 * 1e-10 * double(g.num_vertices()));
    }
  }
}

TEST_CASE("api: closure and reach equal BFS; PageRank of karate equals networkx") {
  std::mt19937_64 rng(3);
  const int n = 120;
  std::vector<std::int32_t> s, t;
  for (int i = 0; i < 200; ++i) s.push_back(std::int32_t(rng() % n)), t.push_back(std::int32_t(rng() % n));
  for (auto d : {fluxgraph::device::automatic, fluxgraph::device::cpu}) {
    for (bool weighted : {false, true}) {
      graph g(n, on(d, weighted));
      g.insert(s, t);
      const std::set<edge> e = edges_of(g);
      fluxgraph::closure_info info;
      const graph plus = g.closure(&info);
      std::set<edge> expect;
      for (int v = 0; v < n; ++v)
        for (auto u : bfs(e, v)) expect.insert({v, u});
      CHECK(edges_of(plus) == expect);
      CHECK(std::size_t(info.pairs) == expect.size());
      CHECK_FALSE(plus.weighted());
      const std::vector<fluxgraph::vertex_id> src{5, 0, 5};
      const fluxgraph::csr r = g.reach(src);
      REQUIRE(r.rows == 3);
      for (std::size_t i = 0; i < src.size(); ++i) {
        const auto b = bfs(e, src[i]);
        CHECK(std::vector<std::int64_t>(r.col.begin() + r.row_ptr[i], r.col.begin() + r.row_ptr[i + 1]) ==
              std::vector<std::int64_t>(b.begin(), b.end()));
      }
      CHECK_THROWS_AS(g.reach({n}), fluxgraph::invalid_argument);
      CHECK(g.reach({}).rows == 0);
    }
  }
  // networkx 3.6.1's scores (tests/data/pagerank/expected/karate.pr) by id, Matrix Market's as written.
  const graph k = fluxgraph::read(FG_TEST_DATA_DIR "/pagerank/graphs/karate.mtx");
  CHECK(k.num_vertices() == 34);
  graph kk = fluxgraph::read(FG_TEST_DATA_DIR "/pagerank/graphs/karate.mtx");
  fluxgraph::pagerank_options po;
  po.tol = 1e-13;
  const auto pr = kk.pagerank(po);
  std::ifstream in(FG_TEST_DATA_DIR "/pagerank/expected/karate.pr");
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::int64_t id = 0;
    double score = 0;
    f >> id >> score;
    REQUIRE(kk.index(id) >= 0);
    CHECK(pr.score[std::size_t(kk.index(id))] == doctest::Approx(score).epsilon(1e-9));
    ++checked;
  }
  CHECK(checked == 34);
  // An edge list as the CLI reads it: its distinct ids numbered in increasing order, ids[v] each
  // vertex's id and the graph's; keep_ids: vertex 42 is id 42 (a dense graph).
  std::ifstream head(FG_TEST_DATA_DIR "/loaders/email-Eu-core-head.txt");
  std::set<edge> file_edges;
  std::set<std::int64_t> file_ids;
  for (std::int64_t u = 0, v = 0; head >> u >> v;) file_edges.insert({u, v}), file_ids.insert(u), file_ids.insert(v);
  std::vector<std::int64_t> ids;
  const graph d = fluxgraph::read(FG_TEST_DATA_DIR "/loaders/email-Eu-core-head.txt", {}, &ids);
  CHECK(d.num_vertices() == std::int64_t(file_ids.size()));
  CHECK(ids == std::vector<std::int64_t>(file_ids.begin(), file_ids.end()));
  CHECK(d.ids() == ids);
  CHECK(edges_of(d) == file_edges);
  const graph b = fluxgraph::read(FG_TEST_DATA_DIR "/loaders/email-Eu-core-head.txt", {}, nullptr, true);
  CHECK_FALSE(b.renumbered());
  CHECK(edges_of(b) == file_edges);
  CHECK(b.num_vertices() == *file_ids.rbegin() + 1);
  CHECK_THROWS_AS(fluxgraph::read(FG_TEST_DATA_DIR "/loaders/malformed/negative_id.txt"), fluxgraph::input_error);
}
