// The Boost.Graph adapter (include/fluxgraph/boost_graph.hpp): fluxgraph::graph (host store, in
// place) and fluxgraph::bgl::view (in place or a snapshot of a GPU store) model the BGL concepts,
// and BGL's breadth_first_search and dijkstra_shortest_paths on them give what they give on a
// boost::adjacency_list of the same edges. The stores are fragmented (k = 2, many small batches,
// deletes) so the out-edge iterator walks rows of several segments.
#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/graph_concepts.hpp>
#include <algorithm>
#include <limits>
#include <map>
#include <random>
#include <string>

#include "fluxgraph/boost_graph.hpp"
#include "fluxgraph/fluxgraph.hpp"

namespace {
using fluxgraph::graph;
using fluxgraph::vertex_id;
using bgl_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                        boost::property<boost::edge_weight_t, double>>;

BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<graph>));
BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<graph>));
BOOST_CONCEPT_ASSERT((boost::AdjacencyGraphConcept<graph>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<fluxgraph::bgl::view>));
BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<fluxgraph::bgl::view>));
BOOST_CONCEPT_ASSERT((boost::AdjacencyGraphConcept<fluxgraph::bgl::view>));
BOOST_CONCEPT_ASSERT((boost::ReadablePropertyMapConcept<fluxgraph::bgl::weight_map, fluxgraph::bgl::edge>));

struct edges {
  std::vector<std::int32_t> src, dst;
  std::vector<double> w;
};

// A real graph (SNAP ego-Facebook, tests/data/closure) in a seeded random order (so rows take
// their edges over many batches) with seeded weights in [0.5, 10).
edges real_graph() {
  const graph f = fluxgraph::read(FG_TEST_DATA_DIR "/closure/ego-Facebook.data_88234.txt.gz");
  fluxgraph::coo c = f.to_coo();
  std::mt19937 rng(7);
  for (std::size_t i = c.src.size(); i > 1; --i) {
    const std::size_t j = rng() % i;
    std::swap(c.src[i - 1], c.src[j]);
    std::swap(c.dst[i - 1], c.dst[j]);
  }
  edges e{c.src, c.dst, {}};
  std::uniform_real_distribution<double> w(0.5, 10.0);
  for (std::size_t i = 0; i < e.src.size(); ++i) e.w.push_back(w(rng));
  return e;
}

// The edges streamed into a k = 2 graph in batches of 499, each followed by a delete batch of a
// random tenth of them, defragmentation off: rows of several segments with holes. An erase takes
// every copy of an edge, so the edges the graph holds are tracked in `model` (the oracle's input).
// Dense ids: BGL's vertices are vertex numbers, and the oracle's are the file's.
graph streamed(const edges& e, fluxgraph::device d, bool weighted, edges& model) {
  fluxgraph::graph_options o;
  o.ids = fluxgraph::vertex_ids::dense;
  o.where = d;
  o.weighted = weighted;
  o.max_segments = 2;
  o.defrag = fluxgraph::defrag_mode::none;
  graph g(0, o);
  std::map<std::pair<std::int32_t, std::int32_t>, std::vector<double>> held;
  std::mt19937 rng(3);
  for (std::size_t b = 0; b < e.src.size(); b += 499) {
    const std::size_t n = std::min<std::size_t>(499, e.src.size() - b);
    std::vector<std::int32_t> s(e.src.begin() + b, e.src.begin() + b + n), t(e.dst.begin() + b, e.dst.begin() + b + n);
    std::vector<double> w;
    if (weighted) w.assign(e.w.begin() + b, e.w.begin() + b + n);
    g.insert(s, t, w);
    for (std::size_t i = 0; i < n; ++i) {
      auto& copies = held[{s[i], t[i]}];
      if (weighted || copies.empty()) copies.push_back(weighted ? w[i] : 1.0);
    }
    std::vector<std::int32_t> ds, dt;
    for (std::size_t i = 0; i < n; ++i)
      if (rng() % 10 == 0) ds.push_back(s[i]), dt.push_back(t[i]), held.erase({s[i], t[i]});
    g.erase(ds, dt);
  }
  model = {};
  for (const auto& [st, ws] : held)
    for (double w : ws) model.src.push_back(st.first), model.dst.push_back(st.second), model.w.push_back(w);
  return g;
}

bgl_graph oracle(const edges& e, vertex_id n) {
  bgl_graph b(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < e.src.size(); ++i) boost::add_edge(e.src[i], e.dst[i], e.w[i], b);
  return b;
}

template <class G>
std::vector<int> bfs_levels(const G& g, vertex_id s) {
  std::vector<int> level(static_cast<std::size_t>(num_vertices(g)), -1);
  level[std::size_t(s)] = 0;
  struct recorder : boost::default_bfs_visitor {
    std::vector<int>* level;
    void tree_edge(typename boost::graph_traits<G>::edge_descriptor e, const G& g) const {
      (*level)[std::size_t(target(e, g))] = (*level)[std::size_t(source(e, g))] + 1;
    }
  } vis;
  vis.level = &level;
  boost::breadth_first_search(g, vertex(s, g), boost::visitor(vis));
  return level;
}

template <class G>
std::vector<double> dijkstra(const G& g, vertex_id s) {
  std::vector<double> dist(static_cast<std::size_t>(num_vertices(g)));
  boost::dijkstra_shortest_paths(g, vertex(s, g), boost::distance_map(dist.data()));
  return dist;
}
}  // namespace


TEST_CASE("boost graph: out_edges of a fragmented store list each row's entries, with their weights") {
  const edges e = real_graph();
  for (auto d : {fluxgraph::device::automatic, fluxgraph::device::cpu}) {
    edges model;
    const graph g = streamed(e, d, true, model);
    CHECK(g.num_edges() == std::int64_t(model.src.size()));
    const fluxgraph::bgl::view v(g);
    CHECK(v.is_snapshot() == (d == fluxgraph::device::automatic && fluxgraph::build_backend() == "cuda"));
    const fluxgraph::csr c = g.to_csr();
    std::int64_t multi_segment = 0;
    for (vertex_id u = 0; u < g.num_vertices(); ++u) {
      std::vector<std::pair<std::int32_t, double>> want, got;
      for (auto i = c.row_ptr[std::size_t(u)]; i < c.row_ptr[std::size_t(u) + 1]; ++i)
        want.emplace_back(c.col[std::size_t(i)], c.val[std::size_t(i)]);
      const auto w = get(boost::edge_weight, v);
      for (auto [it, end] = out_edges(u, v); it != end; ++it) {
        CHECK(source(*it, v) == u);
        got.emplace_back(std::int32_t(target(*it, v)), get(w, *it));
      }
      std::sort(want.begin(), want.end());
      std::sort(got.begin(), got.end());
      REQUIRE(got == want);
      CHECK(out_degree(u, v) == std::int64_t(want.size()));
      multi_segment += !v.is_snapshot() && v.rows().nseg[u] > 1;
    }
    if (!v.is_snapshot()) CHECK(multi_segment > 100);  // the walk crossed segments
  }
}

TEST_CASE("boost graph: BFS and Dijkstra on the adapters equal BGL's on adjacency_list (a real graph)") {
  const edges e = real_graph();
  for (auto d : {fluxgraph::device::automatic, fluxgraph::device::cpu}) {
    edges model;
    const graph g = streamed(e, d, true, model);
    const bgl_graph b = oracle(model, g.num_vertices());
    const fluxgraph::bgl::view v(g);
    int reached = 0;
    for (vertex_id s : {vertex_id(0), vertex_id(17), g.num_vertices() / 2, g.num_vertices() - 1}) {
      CAPTURE(s);
      const auto want_levels = bfs_levels(b, s);
      CHECK(bfs_levels(v, s) == want_levels);
      const auto want = dijkstra(b, s);
      const auto got = dijkstra(v, s);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-12));
      reached += int(std::count_if(want_levels.begin(), want_levels.end(), [](int l) { return l > 0; }));
      if (d == fluxgraph::device::cpu || fluxgraph::build_backend() != "cuda") {
        // The graph itself, no view: the store read in place.
        CHECK(bfs_levels(g, s) == want_levels);
        CHECK(dijkstra(g, s) == got);
      }
    }
    CHECK(reached > 1000);  // the sources reach a real part of the graph
  }
}

TEST_CASE("boost graph: an unweighted graph weighs each edge 1; adjacent_vertices; a GPU store read in place is refused") {
  graph g(5);
  g.insert(std::vector<std::int32_t>{0, 0, 1, 3}, std::vector<std::int32_t>{1, 2, 2, 4});
  const fluxgraph::bgl::view v(g);
  CHECK(dijkstra(v, 0) == std::vector<double>{0, 1, 1, std::numeric_limits<double>::max(), std::numeric_limits<double>::max()});
  std::vector<vertex_id> adj;
  for (auto [it, end] = adjacent_vertices(0, v); it != end; ++it) adj.push_back(*it);
  std::sort(adj.begin(), adj.end());
  CHECK(adj == std::vector<vertex_id>{1, 2});
  CHECK(num_vertices(v) == 5);
  if (fluxgraph::build_backend() == "cuda") CHECK_THROWS_WITH_AS(g.host_view(), doctest::Contains("GPU memory"), fluxgraph::invalid_argument);
}
