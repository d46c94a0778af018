// Vertex ids in the public API (graph_options::ids, stream_options::ids; docs/api.md "Vertex ids"):
// a renumbering graph or stream takes any int64 >= 0 and answers in those ids. Checked against
// hand-worked cases, a host edge-set model in the caller's ids, and the same graph given in dense
// ids through the opt-out (vertex_ids::dense). Only the public header is included (and a test
// helper of standard headers).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>

#include "fluxgraph/fluxgraph.hpp"
#include "tests/temp_path.hpp"

namespace {
using fluxgraph::graph;
using fluxgraph::vertex_id;
using edge = std::pair<std::int64_t, std::int64_t>;
using ids = std::vector<std::int64_t>;
constexpr std::int64_t big = std::int64_t(1) << 62;

// The edges of g in the caller's ids.
std::set<edge> id_edges(const graph& g) {
  const fluxgraph::coo c = g.to_coo();
  const ids name = g.ids();
  std::set<edge> s;
  for (std::size_t i = 0; i < c.src.size(); ++i) s.insert({name[std::size_t(c.src[i])], name[std::size_t(c.dst[i])]});
  return s;
}

fluxgraph::graph_options dense() {
  fluxgraph::graph_options o;
  o.ids = fluxgraph::vertex_ids::dense;
  return o;
}
}  // namespace

TEST_CASE("renumbering: sparse ids up to 2^62 are vertices; calls take them and results give them") {
  graph g;
  CHECK(g.renumbered());
  // 7 -> 5 -> 2^40 -> 2^62 -> 5: worked by hand.
  g.insert(ids{big, 5, std::int64_t(1) << 40, 7}, ids{5, std::int64_t(1) << 40, big, 5});
  CHECK(g.num_vertices() == 4);
  CHECK(g.ids() == ids{5, 7, std::int64_t(1) << 40, big});  // a batch's new ids in increasing order
  CHECK(g.index(big) == 3);
  CHECK(g.index(6) == -1);
  CHECK(g.neighbors(big) == std::vector<vertex_id>{5});
  CHECK(g.out_degree(7) == 1);
  const fluxgraph::bfs_result b = g.bfs(7);
  CHECK(b.level == std::vector<std::int32_t>{1, 0, 2, 3});  // by vertex number: 5, 7, 2^40, 2^62
  CHECK(g.sssp(5).dist[std::size_t(g.index(big))] == 2.0);
  CHECK(g.wcc().label == ids{5, 5, 5, 5});  // the least id of the component
  const fluxgraph::csr r = g.reach({7});
  CHECK(r.col == std::vector<std::int32_t>{0, 2, 3});
  CHECK_THROWS_AS(g.bfs(6), fluxgraph::invalid_argument);
  CHECK_THROWS_AS(g.neighbors(-1), fluxgraph::invalid_argument);
}

TEST_CASE("renumbering: one edge to id 2e8 is 2 vertices, not 2e8") {
  graph g;
  g.insert(ids{0}, ids{200000000});
  CHECK(g.num_vertices() == 2);
  CHECK(g.ids() == ids{0, 200000000});
  // The opt-out keeps the dense rule: that id would make 2e8 vertices, refused.
  graph d(0, dense());
  CHECK_FALSE(d.renumbered());
  CHECK_THROWS_AS(d.insert(ids{0}, ids{200000000}), fluxgraph::batch_error);
  CHECK(d.num_vertices() == 0);
}

TEST_CASE("renumbering: dense ids in one batch keep their numbers; a later batch's new ids come after, in order") {
  std::vector<std::int64_t> s, t;
  for (int i = 9; i >= 0; --i) s.push_back(i), t.push_back((i * 7 + 3) % 10);
  graph g;
  g.insert(s, t);
  ids iota(10);
  for (std::size_t i = 0; i < iota.size(); ++i) iota[i] = std::int64_t(i);
  CHECK(g.ids() == iota);
  g.insert(ids{40, 3}, ids{12, 30});
  CHECK(g.ids() == ids{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 30, 40});
  // graph(n): ids 0..n-1 from the start; resize adds the missing ones after the others.
  graph h(3);
  h.insert(ids{100}, ids{1});
  h.resize(5);
  CHECK(h.ids() == ids{0, 1, 2, 100, 3, 4});
  // add_vertices: isolated vertices by id, the new ones after, in increasing order; a negative id
  // is refused with nothing added. Dense: max id + 1 vertices.
  h.add_vertices({big, 7, 1, 7});
  CHECK(h.ids() == ids{0, 1, 2, 100, 3, 4, 7, big});
  CHECK(h.num_vertices() == 8);
  CHECK(h.out_degree(big) == 0);
  CHECK_THROWS_AS(h.add_vertices({9, -1}), fluxgraph::invalid_argument);
  CHECK(h.num_vertices() == 8);
  CHECK(h.index(9) == -1);
  graph d(0, dense());
  d.add_vertices({4, 2});
  CHECK(d.num_vertices() == 5);
  // dense ids past 2^31 - 2 (INT64_MAX: id + 1 would overflow) are refused by name, changing nothing
  for (const vertex_id far : {std::numeric_limits<vertex_id>::max(), vertex_id(2147483647)}) {
    const std::string what = "add_vertices: vertex id " + std::to_string(far) + " is past the largest id";
    CHECK_THROWS_WITH_AS(d.add_vertices({1, far}), doctest::Contains(what.c_str()), fluxgraph::invalid_argument);
  }
  CHECK(d.num_vertices() == 5);
}

TEST_CASE("renumbering: batches in vertex numbers already (taken as given) agree with the edge-set model") {
  // Ids 0..n-1 in each batch's order, some batches with a gap or a delete of an unknown id (the
  // map's way), weighted; a refused batch of the first kind gives its ids back too.
  fluxgraph::graph_options o;
  o.weighted = true;
  graph g(0, o);
  std::map<edge, double> model;
  std::mt19937_64 rng(5);
  std::int64_t n = 0;
  for (int b = 0; b < 8; ++b) {
    const std::int64_t grow = b % 3 == 2 ? 0 : 20;
    ids is, it, ds, dt;
    std::vector<double> w;
    for (std::int64_t v = n; v < n + grow; ++v) is.push_back(v), it.push_back(std::int64_t(rng() % std::uint64_t(v + 1)));
    for (int i = 0; i < 30; ++i) is.push_back(std::int64_t(rng() % std::uint64_t(n + grow))), it.push_back(std::int64_t(rng() % std::uint64_t(n + grow)));
    std::shuffle(is.begin(), is.end(), rng);
    for (std::size_t i = 0; i < is.size(); ++i) w.push_back(double(1 + rng() % 4));
    for (const auto& [e, x] : model)
      if (rng() % 4 == 0) ds.push_back(e.first), dt.push_back(e.second);
    if (b == 5) ds.push_back(n + 1000), dt.push_back(0);  // never an id: dropped, the map's way
    if (b == 3) {  // a NaN weight: refused, ids as before
      std::vector<double> bad = w;
      bad.back() = std::nan("");
      CHECK_THROWS_AS(g.insert(is, it, bad), fluxgraph::batch_error);
      CHECK(g.num_vertices() == n);
      CHECK(g.index(n) == -1);
    }
    g.apply(fluxgraph::edge_span<std::int64_t>{is.data(), it.data(), is.size(), w.data()}, {ds.data(), dt.data(), ds.size()});
    for (std::size_t i = 0; i < ds.size(); ++i) model.erase({ds[i], dt[i]});
    for (std::size_t i = 0; i < is.size(); ++i) model[{is[i], it[i]}] += w[i];
    n += grow;
    ids iota(static_cast<std::size_t>(n));
    for (std::size_t v = 0; v < iota.size(); ++v) iota[v] = std::int64_t(v);
    REQUIRE(g.ids() == iota);
  }
  const fluxgraph::coo c = g.to_coo();
  std::map<edge, double> got;
  for (std::size_t i = 0; i < c.src.size(); ++i) got[{c.src[i], c.dst[i]}] += c.val[i];
  CHECK(got == model);
  // A gap: 12 without 11 is numbered 11 (the map's way), and the graph is not the identity after.
  g.insert(ids{n + 2}, ids{n});
  CHECK(g.index(n + 2) == n + 1);
  g.insert(ids{n + 1}, ids{n + 1});
  CHECK(g.index(n + 1) == n + 2);
  CHECK(id_edges(g).count({n + 2, n}) == 1);
}

TEST_CASE("renumbering: deletes in ids; an id never inserted deletes nothing; mixed batches") {
  graph g;
  g.insert(ids{big, 10, 10}, ids{10, big, 11});
  const fluxgraph::batch_result r = g.erase(ids{10, 99}, ids{big, 10});  // 99 was never a vertex
  CHECK(r.deleted == 1);
  CHECK(r.batch == 2);
  CHECK(g.num_vertices() == 3);
  CHECK(id_edges(g) == std::set<edge>{{big, 10}, {10, 11}});
  std::vector<std::int64_t> is{11, 12}, id{big, 12}, ds{10}, dd{11};
  g.apply(fluxgraph::edge_span<std::int64_t>{is.data(), id.data(), 2}, {ds.data(), dd.data(), 1});
  CHECK(id_edges(g) == std::set<edge>{{big, 10}, {11, big}, {12, 12}});
  CHECK(g.ids() == ids{10, 11, big, 12});
}

TEST_CASE("renumbering: a refused batch leaves the graph and its ids as they were") {
  fluxgraph::graph_options o;
  o.weighted = true;
  graph g(0, o);
  g.insert(ids{5}, ids{6}, {1.0});
  CHECK_THROWS_WITH_AS(g.insert(ids{7, 8}, ids{8, -3}, {1.0, 1.0}), doctest::Contains("edge 1: negative vertex id -3"),
                       fluxgraph::batch_error);
  CHECK_THROWS_AS(g.insert(ids{7, 8}, ids{8, 9}, {1.0, std::nan("")}), fluxgraph::batch_error);
  CHECK(g.ids() == ids{5, 6});
  CHECK(g.num_vertices() == 2);
  CHECK(g.index(7) == -1);
  g.insert(ids{9}, ids{5}, {2.0});
  CHECK(g.ids() == ids{5, 6, 9});
}

TEST_CASE("renumbering: results agree with the same graph in dense ids (a random id bijection)") {
  std::mt19937_64 rng(51);
  const int n = 300;
  ids name(n);
  for (auto& x : name) x = std::int64_t(rng() >> 2);  // < 2^62, distinct with near certainty
  std::vector<std::int64_t> ds, dt, is, it;
  for (int i = 0; i < 2000; ++i) {
    const std::int64_t u = std::int64_t(rng() % n), v = std::int64_t(rng() % n);
    ds.push_back(u), dt.push_back(v), is.push_back(name[std::size_t(u)]), it.push_back(name[std::size_t(v)]);
  }
  graph d(n, dense());
  d.insert(ds, dt);
  graph g;
  for (std::size_t first = 0; first < is.size(); first += 500) {  // in four batches
    const auto b = is.begin() + std::ptrdiff_t(first), e = is.begin() + std::ptrdiff_t(first + 500);
    const auto c = it.begin() + std::ptrdiff_t(first), f = it.begin() + std::ptrdiff_t(first + 500);
    g.insert(ids(b, e), ids(c, f));
  }
  std::map<std::int64_t, std::int64_t> number;  // id -> dense vertex
  for (int v = 0; v < n; ++v) number[name[std::size_t(v)]] = v;
  const ids gid = g.ids();
  const std::vector<double> pd = d.pagerank().score, pg = g.pagerank().score;
  const std::vector<std::int64_t> wd = d.wcc().label, wg = g.wcc().label;
  for (std::size_t v = 0; v < gid.size(); ++v) {
    const std::size_t u = std::size_t(number.at(gid[v]));
    CHECK(pg[v] == doctest::Approx(pd[u]).epsilon(1e-9));
    std::int64_t least = std::numeric_limits<std::int64_t>::max();  // the least id in u's dense component
    for (int x = 0; x < n; ++x)
      if (wd[std::size_t(x)] == wd[u]) least = std::min(least, name[std::size_t(x)]);
    CHECK(wg[v] == least);
  }
  const std::int64_t src = is[0];
  const std::vector<std::int32_t> ld = d.bfs(number.at(src)).level, lg = g.bfs(src).level;
  for (std::size_t v = 0; v < gid.size(); ++v) CHECK(lg[v] == ld[std::size_t(number.at(gid[v]))]);
  CHECK(g.triangles().total == d.triangles().total);
  // closure and save/load keep the ids
  CHECK(g.closure().ids() == gid);
  const std::string path = fg::test::temp_path("ids.fgsnap");
  g.save(path);
  ids back;
  const graph h = fluxgraph::load(path, {}, &back);
  std::filesystem::remove(path);
  CHECK(back == gid);
  CHECK(h.ids() == gid);
  CHECK(id_edges(h) == id_edges(g));
}

TEST_CASE("stream renumbering: sparse ids, deletes, top() and ids() against an edge-set model") {
  fluxgraph::stream_options so;
  so.pagerank_per_batch = true;
  so.pagerank.tol = 1e-12;
  fluxgraph::stream s(so);
  std::set<edge> model;
  std::mt19937_64 rng(7);
  const ids name{3, big, 1000000007, std::int64_t(1) << 40, 200000000, 42};
  for (int b = 0; b < 6; ++b) {
    ids is, id, ds, dd;
    for (int i = 0; i < 8; ++i) is.push_back(name[rng() % name.size()]), id.push_back(name[rng() % name.size()]);
    ds = {name[rng() % name.size()], 77}, dd = {name[rng() % name.size()], 3};  // 77: never an id
    for (std::size_t i = 0; i < ds.size(); ++i) model.erase({ds[i], dd[i]});
    // deletes go first: an edge in both is present after
    for (std::size_t i = 0; i < is.size(); ++i) model.insert({is[i], id[i]});
    s.apply({is.data(), id.data(), is.size()}, {ds.data(), dd.data(), ds.size()});
  }
  const ids sid = s.ids();
  CHECK(std::size_t(s.num_vertices()) == sid.size());
  CHECK(std::set<std::int64_t>(sid.begin(), sid.end()).count(77) == 0);
  const fluxgraph::coo e = s.edges();
  std::set<edge> got;
  for (std::size_t i = 0; i < e.src.size(); ++i) got.insert({sid[std::size_t(e.src[i])], sid[std::size_t(e.dst[i])]});
  CHECK(got == model);
  // top() names the vertices by id: the best score's id is the one ids() gives its number
  const std::vector<double> score = s.scores().score;
  const auto best = std::max_element(score.begin(), score.end()) - score.begin();
  CHECK(s.top(1).front().first == sid[std::size_t(best)]);
  CHECK_THROWS_AS(s.apply(fluxgraph::edge_span<std::int64_t>{}, {}, -1), fluxgraph::invalid_argument);
  const ids neg{-5};
  CHECK_THROWS_AS(s.apply({neg.data(), neg.data(), 1}, {}), fluxgraph::batch_error);
  CHECK(s.ids() == sid);  // refused batches give no ids
}

TEST_CASE("stream: stream(opt, n) starts with ids 0..n-1; the dense opt-out takes vertex numbers") {
  fluxgraph::stream s({}, 3);
  const ids a{2, 100}, b{100, 0};
  s.apply({a.data(), b.data(), 2}, {});
  CHECK(s.ids() == ids{0, 1, 2, 100});
  fluxgraph::stream_options o;
  o.ids = fluxgraph::vertex_ids::dense;
  fluxgraph::stream d(o);
  d.apply({a.data(), b.data(), 2}, {});
  CHECK(d.num_vertices() == 101);
  CHECK(d.ids().empty());
  const ids far{std::int64_t(1) << 33};
  CHECK_THROWS_AS(d.apply({far.data(), far.data(), 1}, {}), fluxgraph::batch_error);
  fluxgraph::edge_file f;
  CHECK_THROWS_AS(s.stream_file(f, 10), fluxgraph::invalid_argument);
}
