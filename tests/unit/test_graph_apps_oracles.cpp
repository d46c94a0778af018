// The graph applications against Boost.Graph (breadth_first_search, dijkstra_shortest_paths,
// connected_components) and plain set-based oracles (triangles, LCC) on real graphs, both twins;
// and the incremental BFS / SSSP / WCC against from-scratch runs after every batch of random
// streams of 10^3 batches.
#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/visitors.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "algorithms/cdlp.hpp"
#include "algorithms/components.hpp"
#include "algorithms/traversal.hpp"
#include "algorithms/triangles.hpp"
#include "apps_support.hpp"

using namespace fg;
using namespace fg::test;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

const char* const real_graphs[] = {"pagerank/graphs/p2p-Gnutella04.data_39994.txt.gz", "pagerank/graphs/wiki-Vote.txt.gz",
                                   "pagerank/graphs/email-Eu-core.txt", "closure/TG.cedge.data_23874.txt.gz",
                                   "apps/zenios.mtx", "apps/bcsstk13.mtx.gz", "pagerank/graphs/west0067.mtx"};

/// The file with a weight in [0, 10) per edge, drawn from a fixed seed (Dijkstra's oracle input).
edge_file weighted(edge_file f) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> w(0.0, 10.0);
  f.weight.resize(f.src.size());
  for (auto& x : f.weight) x = w(rng);
  return f;
}

std::vector<double> boost_bfs(const edge_file& f, vertex_t source) {
  boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS> g(static_cast<std::size_t>(f.num_vertices));
  for (std::size_t i = 0; i < f.src.size(); ++i) boost::add_edge(std::size_t(f.src[i]), std::size_t(f.dst[i]), g);
  std::vector<int> d(std::size_t(f.num_vertices), -1);
  d[std::size_t(source)] = 0;
  boost::breadth_first_search(g, std::size_t(source),
                              boost::visitor(boost::make_bfs_visitor(boost::record_distances(d.data(), boost::on_tree_edge()))));
  std::vector<double> out(d.size());
  for (std::size_t v = 0; v < d.size(); ++v) out[v] = d[v] < 0 ? inf : d[v];
  return out;
}

std::vector<double> boost_dijkstra(const edge_file& f, vertex_t source) {
  using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                  boost::property<boost::edge_weight_t, double>>;
  G g(static_cast<std::size_t>(f.num_vertices));
  for (std::size_t i = 0; i < f.src.size(); ++i) boost::add_edge(std::size_t(f.src[i]), std::size_t(f.dst[i]), f.weight[i], g);
  std::vector<double> d(std::size_t(f.num_vertices));
  boost::dijkstra_shortest_paths(g, std::size_t(source), boost::distance_map(d.data()).distance_inf(inf));
  return d;
}

std::int64_t boost_components(const edge_file& f, std::vector<int>& comp) {
  boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> g(static_cast<std::size_t>(f.num_vertices));
  for (std::size_t i = 0; i < f.src.size(); ++i) boost::add_edge(std::size_t(f.src[i]), std::size_t(f.dst[i]), g);
  comp.assign(std::size_t(f.num_vertices), 0);
  return boost::connected_components(g, comp.data());
}

/// Undirected neighbour sets (self-loops out) and the directed edge set.
struct sets {
  std::vector<std::set<vertex_t>> nb;
  std::set<std::pair<vertex_t, vertex_t>> arcs;
};
sets sets_of(const edge_file& f) {
  sets s;
  s.nb.resize(std::size_t(f.num_vertices));
  for (std::size_t i = 0; i < f.src.size(); ++i)
    if (f.src[i] != f.dst[i]) {
      s.nb[std::size_t(f.src[i])].insert(f.dst[i]), s.nb[std::size_t(f.dst[i])].insert(f.src[i]);
      s.arcs.emplace(f.src[i], f.dst[i]);
    }
  return s;
}

/// Triangles per vertex and LCC straight from the definitions.
void set_oracle(const sets& s, std::vector<std::int64_t>& tri, std::vector<double>& lcc) {
  const std::size_t n = s.nb.size();
  tri.assign(n, 0), lcc.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    std::int64_t links = 0, t = 0;
    for (vertex_t u : s.nb[v])
      for (vertex_t w : s.nb[v])
        if (u != w) {
          links += s.arcs.count({u, w});
          t += u < w && s.nb[std::size_t(u)].count(w);
        }
    tri[v] = t;
    const double d = double(s.nb[v].size());
    lcc[v] = d < 2 ? 0 : double(links) / (d * (d - 1));
  }
}

}  // namespace

TEST_CASE_TEMPLATE("graph apps vs Boost.Graph and set oracles on real graphs", S, host_space, device_space) {
  for (const char* name : real_graphs) {
    CAPTURE(name);
    const edge_file f = weighted(read_graph(app_data(name)));
    const app_graph<S> g = app_graph_of<S>(f, false);
    const dcsr_view<pattern> in = g.in.view();
    for (vertex_t src : {vertex_t(0), vertex_t(g.n() / 2), vertex_t(g.n() - 1)}) {
      CAPTURE(src);
      const bfs_result b = bfs(g.out, &in, false, src);
      std::vector<double> lv(b.level.size());
      for (std::size_t v = 0; v < lv.size(); ++v) lv[v] = b.level[v] < 0 ? inf : b.level[v];
      CHECK(lv == boost_bfs(f, src));
      const std::vector<double> want = boost_dijkstra(f, src), got = sssp(g.out, src).dist;
      REQUIRE(got.size() == want.size());
      for (std::size_t v = 0; v < got.size(); ++v)
        CHECK_MESSAGE((std::isinf(want[v]) ? got[v] == want[v] : std::abs(got[v] - want[v]) <= 1e-9 * (1 + want[v])),
                      "vertex " << v << ": " << got[v] << " vs " << want[v]);
    }
    std::vector<int> comp;
    const std::int64_t count = boost_components(f, comp);
    const wcc_result w = wcc(g.out);
    CHECK(w.components == count);
    std::vector<vertex_t> least(std::size_t(count), std::numeric_limits<vertex_t>::max());
    for (std::size_t v = 0; v < comp.size(); ++v) least[std::size_t(comp[v])] = std::min(least[std::size_t(comp[v])], vertex_t(v));
    for (std::size_t v = 0; v < comp.size(); ++v)  // the label is the least vertex of v's Boost component
      CHECK(w.label[v] == least[std::size_t(comp[v])]);
    std::vector<std::int64_t> tri;
    std::vector<double> lc;
    set_oracle(sets_of(f), tri, lc);
    const triangle_result t = triangles(g.out, true);
    CHECK(t.per_vertex == tri);
    const std::vector<double> ours = lcc(g.out).lcc;
    for (std::size_t v = 0; v < lc.size(); ++v) CHECK(std::abs(ours[v] - lc[v]) <= 1e-12);
    // CDLP: the device twin equals the sequential reference
    if constexpr (std::is_same_v<S, device_space>) {
      const app_graph<host_space> h = app_graph_of<host_space>(f, false);
      CHECK(cdlp(g.out, 10).label == cdlp(h.out, 10).label);
    }
  }
}

namespace {
template <class S>
edge_batch<S> batch_of(const std::vector<vertex_t>& u, const std::vector<vertex_t>& v, const std::vector<double>& w) {
  return {to_space<S>(u), to_space<S>(v), to_space<S>(w)};
}
}  // namespace

TEST_CASE_TEMPLATE("incremental BFS, SSSP and WCC equal from-scratch runs after every one of 10^3 batches", S, host_space,
                   device_space) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 2; ++trial) {
    const bool with_deletes = trial == 1;
    CAPTURE(with_deletes);
    vertex_t n = 40;
    dcsr_matrix<double, S> out = dcsr_matrix<double, S>::from_coo(coo_matrix<double, S>{}, n, n);
    std::vector<std::pair<vertex_t, vertex_t>> present;
    incremental_bfs<S> ib(3);
    incremental_sssp<S> is(3);
    incremental_wcc<S> iw;
    int recomputed = 0, lowered = 0;
    for (int b = 0; b < 1000; ++b) {
      CAPTURE(b);
      if (b % 100 == 99) n += 20;  // new vertices arrive
      std::vector<vertex_t> iu, iv, du, dv;
      std::vector<double> iw_;
      const int k = 1 + int(rng() % 6);
      for (int i = 0; i < k; ++i) {
        iu.push_back(vertex_t(rng() % std::uint32_t(n))), iv.push_back(vertex_t(rng() % std::uint32_t(n)));
        iw_.push_back(double(rng() % 10));  // integers: every path sums exactly, so the two runs tie exactly
      }
      if (with_deletes && !present.empty() && b % 7 == 0) {
        const auto& e = present[rng() % present.size()];
        du.push_back(e.first), dv.push_back(e.second);
      }
      if (with_deletes && b % 13 == 0) du.push_back(n + 7), dv.push_back(1);  // absent, past the store: a no-op
      const auto ins = batch_of<S>(iu, iv, iw_), del = batch_of<S>(du, dv, {});
      out.apply_batch(make_coo<double, S>(iu, iv, iw_), make_coo<double, S>(du, dv, std::vector<double>(du.size(), 0.0)));
      if (out.rows() < n) out.resize(n, n);
      for (std::size_t i = 0; i < du.size(); ++i)
        present.erase(std::remove(present.begin(), present.end(), std::make_pair(du[i], dv[i])), present.end());
      for (std::size_t i = 0; i < iu.size(); ++i) present.emplace_back(iu[i], iv[i]);
      ib.update(out, nullptr, false, ins, del);
      is.update(out, ins, del);
      iw.update(out, ins, del);
      recomputed += ib.recomputed();
      if (out.rows() > 3) {
        const std::vector<std::int32_t> lv = ib.levels();
        REQUIRE(lv == bfs(out, nullptr, false, 3).level);
        REQUIRE(is.distances() == sssp(out, 3).dist);
        lowered += !ib.recomputed();
      }
      const wcc_result w = wcc(out);
      REQUIRE(iw.labels() == w.label);
      REQUIRE(iw.components() == w.components);
    }
    CHECK(lowered > 900);
    if (with_deletes) CHECK(recomputed > 1);
    else CHECK(recomputed == 1);
  }
}

TEST_CASE_TEMPLATE("incremental triangles equal a from-scratch count after every one of 10^3 mixed batches", S, host_space,
                   device_space) {
  std::mt19937 rng(17);
  vertex_t n = 24;  // dense enough for many triangles, small enough that deletes hit them
  dcsr_config cfg;
  cfg.dups = duplicates::collapse;
  auto out = dcsr_matrix<pattern, S>::from_coo(coo_matrix<pattern, S>{}, n, n, cfg);
  auto in = dcsr_matrix<pattern, S>::from_coo(coo_matrix<pattern, S>{}, n, n, cfg);
  std::set<std::pair<vertex_t, vertex_t>> present;
  incremental_triangles<S> it(true);
  std::int64_t added = 0, removed = 0, peak = 0;
  for (int b = 0; b < 1000; ++b) {
    CAPTURE(b);
    if (b % 250 == 249) n += 4;
    std::vector<vertex_t> iu, iv, du, dv;
    for (int i = 0, k = 1 + int(rng() % 8); i < k; ++i)
      iu.push_back(vertex_t(rng() % std::uint32_t(n))), iv.push_back(vertex_t(rng() % std::uint32_t(n)));
    // deletes: present edges, sometimes only one direction of a pair, sometimes one this batch re-inserts
    for (int i = 0, k = int(rng() % 7); i < k && !present.empty(); ++i) {
      auto e = present.begin();
      std::advance(e, long(rng() % present.size()));
      du.push_back(e->first), dv.push_back(e->second);
    }
    if (!du.empty() && b % 5 == 0) iu.push_back(du[0]), iv.push_back(dv[0]);
    out.apply_batch(make_coo<pattern, S>(iu, iv), make_coo<pattern, S>(du, dv));
    in.apply_batch(make_coo<pattern, S>(iv, iu), make_coo<pattern, S>(dv, du));
    if (out.rows() < n) out.resize(n, n), in.resize(n, n);
    for (std::size_t i = 0; i < du.size(); ++i) present.erase({du[i], dv[i]});
    for (std::size_t i = 0; i < iu.size(); ++i) present.insert({iu[i], iv[i]});
    const dcsr_view<pattern> iv_ = in.view();
    it.update(out, &iv_, batch_of<S>(iu, iv, {}), batch_of<S>(du, dv, {}));
    const triangle_result t = triangles(out, true);
    REQUIRE(it.total() == t.total);
    REQUIRE(it.per_vertex() == t.per_vertex);
    added += it.new_edges(), removed += it.gone_edges(), peak = std::max(peak, t.total);
  }
  CHECK(removed > 500);  // the stream really deleted undirected edges
  CHECK(added > 1000);
  CHECK(peak > 100);
}
