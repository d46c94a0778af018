// fluxgraph bench apps: the graph applications (issue 19) on R-MAT and real graphs, stored both
// ways (undirected, as Graph500 and Graphalytics' R-MAT graphs are): BFS (direction-optimizing and
// push-only) and SSSP in GTEPS, WCC, triangles, LCC and CDLP in ms, the incremental BFS and WCC
// after one insert batch against a from-scratch run, and Boost.Graph's single-threaded BFS,
// Dijkstra and connected_components on the same graph (the CPU build's baseline). Medians.
#include <fmt/core.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/clustering_coefficient.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include <algorithm>
#include <chrono>
#include <limits>
#include <random>
#include <vector>

#include "algorithms/cdlp.hpp"
#include "algorithms/components.hpp"
#include "algorithms/traversal.hpp"
#include "algorithms/triangles.hpp"
#include "bench/bench.hpp"
#include "bench/matrices.hpp"
#include "core/memory.hpp"
#include "storage/dcsr.hpp"

namespace fg::bench {

namespace {
struct apps_options {
  int runs = 5;
  int sources = 8;
  std::vector<double> batches{1e3, 1e4};
  bool boost = true;
  std::vector<std::string> graphs;
};

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}
template <class F>
double timed(F f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  memory::synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

using store = dcsr_matrix<double, device_space>;

/// Boost.Graph on the same symmetric edges: BFS and Dijkstra from `src`, components (seconds each).
void boost_baseline(const edge_list& e, const std::vector<double>& w, vertex_t src) {
  using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                  boost::property<boost::edge_weight_t, double>>;
  G g(static_cast<std::size_t>(e.n));
  for (std::size_t i = 0; i < e.src.size(); ++i) boost::add_edge(std::size_t(e.src[i]), std::size_t(e.dst[i]), w[i], g);
  std::vector<int> d(std::size_t(e.n), -1);
  std::vector<double> dist(std::size_t(e.n));
  const double tb = timed([&] {
    d[std::size_t(src)] = 0;
    boost::breadth_first_search(g, std::size_t(src),
                                boost::visitor(boost::make_bfs_visitor(boost::record_distances(d.data(), boost::on_tree_edge()))));
  });
  const double td = timed([&] { boost::dijkstra_shortest_paths(g, std::size_t(src), boost::distance_map(dist.data())); });
  boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> u(static_cast<std::size_t>(e.n));
  for (std::size_t i = 0; i < e.src.size(); ++i)
    if (e.src[i] < e.dst[i]) boost::add_edge(std::size_t(e.src[i]), std::size_t(e.dst[i]), u);
  std::vector<int> comp(std::size_t(e.n));
  const double tc = timed([&] { boost::connected_components(u, comp.data()); });
  fmt::print("  boost (1 thread): bfs {:.2f} ms, dijkstra {:.2f} ms, connected_components {:.2f} ms", 1e3 * tb, 1e3 * td, 1e3 * tc);
  // all_clustering_coefficients looks every neighbour pair up: sum of d^2 lookups (set rows: log d each)
  double pairs = 0;
  std::vector<double> deg(std::size_t(e.n), 0);
  for (vertex_t x : e.src) deg[std::size_t(x)] += 1;
  for (double d : deg) pairs += d * d;
  if (pairs > 2e9) {
    fmt::print(", clustering skipped (sum of d^2 = {:.2g} lookups)\n", pairs);
    return;
  }
  boost::adjacency_list<boost::setS, boost::vecS, boost::undirectedS> us(static_cast<std::size_t>(e.n));
  for (std::size_t i = 0; i < e.src.size(); ++i)
    if (e.src[i] < e.dst[i]) boost::add_edge(std::size_t(e.src[i]), std::size_t(e.dst[i]), us);
  std::vector<double> cc(std::size_t(e.n));
  const double tl = timed([&] {
    boost::all_clustering_coefficients(us, boost::make_iterator_property_map(cc.begin(), boost::get(boost::vertex_index, us)));
  });
  fmt::print(", all_clustering_coefficients (LCC; its triangles) {:.2f} ms\n", 1e3 * tl);
}

/// One insert batch of b edges held back from the graph: incremental BFS / WCC vs from scratch.
void incremental(const edge_list& e, const std::vector<double>& w, vertex_t src, double b, int runs) {
  const std::size_t m = e.src.size(), k = std::min<std::size_t>(std::size_t(b), m / 2);
  std::vector<std::size_t> perm(m);
  for (std::size_t i = 0; i < m; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), std::mt19937(5));
  std::vector<vertex_t> r, c, br, bc;
  std::vector<double> v, bw;
  for (std::size_t i = 0; i < m; ++i) {
    auto& R = i < k ? br : r;
    auto& C = i < k ? bc : c;
    (i < k ? bw : v).push_back(w[perm[i]]);
    R.push_back(e.src[perm[i]]), C.push_back(e.dst[perm[i]]);
  }
  std::vector<double> inc_b, full_b, inc_w, full_w;
  for (int i = 0; i < runs; ++i) {
    store g = store::from_coo(make_coo<double, device_space>(r, c, v), e.n, e.n);
    incremental_bfs<device_space> ib(src);
    incremental_wcc<device_space> iw;
    const edge_batch<device_space> none{}, batch{to_space<device_space>(br), to_space<device_space>(bc), to_space<device_space>(bw)};
    ib.update(g, nullptr, true, none, none);
    iw.update(g, none, none);
    g.insert_batch(make_coo<double, device_space>(br, bc, bw));
    inc_b.push_back(timed([&] { ib.update(g, nullptr, true, batch, none); }));
    inc_w.push_back(timed([&] { iw.update(g, batch, none); }));
    full_b.push_back(bfs(g, nullptr, true, src).seconds);
    full_w.push_back(wcc(g).seconds);
  }
  fmt::print("  batch {:>8.0f}: incremental bfs {:.3f} ms vs scratch {:.3f} ms ({:.1f}x); wcc (hooks; labels on demand) {:.3f} ms vs {:.3f} ms ({:.1f}x)\n",
             double(k), 1e3 * median(inc_b), 1e3 * median(full_b), median(full_b) / median(inc_b), 1e3 * median(inc_w),
             1e3 * median(full_w), median(full_w) / median(inc_w));
}

int run_apps(const apps_options& o) {
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  for (const auto& spec : o.graphs) {
    edge_list e = make_matrix(spec);
    // undirected: every edge both ways (self-loops dropped), weights uniform in (0, 1] (Graph500 SSSP)
    const std::size_t m0 = e.src.size();
    std::vector<vertex_t> s, d;
    for (std::size_t i = 0; i < m0; ++i)
      if (e.src[i] != e.dst[i]) s.push_back(e.src[i]), d.push_back(e.dst[i]), s.push_back(e.dst[i]), d.push_back(e.src[i]);
    e.src = std::move(s), e.dst = std::move(d);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> uw(0.0, 1.0);
    std::vector<double> w(e.src.size());
    for (std::size_t i = 0; i < w.size(); i += 2) w[i] = w[i + 1] = 1.0 - uw(rng);
    dcsr_config cfg;
    cfg.dups = duplicates::collapse;
    memory::reset_peak();
    const std::size_t base = memory::bytes_in_use();
    const store g = store::from_coo(make_coo<double, device_space>(e.src, e.dst, w), e.n, e.n, cfg);
    fmt::print("\n{}: {} vertices, {} stored edges (both ways); build peak {:.1f} B per staged entry, store {:.1f} B per edge\n",
               e.name, e.n, g.nnz(), double(memory::peak_bytes() - base) / double(e.src.size()),
               double(memory::bytes_in_use() - base) / double(g.nnz()));
    // sources: vertices with edges, drawn with a fixed seed
    std::vector<vertex_t> deg(std::size_t(e.n), 0), sources;
    for (vertex_t u : e.src) ++deg[std::size_t(u)];
    std::mt19937 pick(9);
    while (int(sources.size()) < o.sources) {
      const vertex_t v = vertex_t(pick() % std::uint32_t(e.n));
      if (deg[std::size_t(v)] > 0) sources.push_back(v);
    }
    bfs_options push;
    push.direction_optimizing = false;
    bfs(g, nullptr, true, sources[0]);  // warm-up: the pool's first blocks
    std::vector<double> tb, tp, ts, gb, gs;
    for (vertex_t src : sources) {
      const bfs_result r = bfs(g, nullptr, true, src);
      tb.push_back(r.seconds), gb.push_back(double(r.edges) / r.seconds / 1e9);
      tp.push_back(bfs(g, nullptr, true, src, push).seconds);
      const sssp_result q = sssp(g, src);
      ts.push_back(q.seconds), gs.push_back(double(q.edges) / q.seconds / 1e9);
    }
    fmt::print("  bfs  {:.3f} ms, {:.2f} GTEPS (stored edges of the reached vertices; Graph500's undirected count: {:.2f}); "
               "push only {:.3f} ms\n", 1e3 * median(tb), median(gb), median(gb) / 2, 1e3 * median(tp));
    fmt::print("  sssp {:.3f} ms, {:.2f} GTEPS\n", 1e3 * median(ts), median(gs));
    std::vector<double> tw, tt, tl, tc;
    std::int64_t tri = 0, comps = 0;
    for (int i = 0; i < o.runs; ++i) {
      const wcc_result c = wcc(g);
      tw.push_back(c.seconds), comps = c.components;
      const triangle_result t = triangles(g);
      tt.push_back(t.seconds), tri = t.total;
      tl.push_back(lcc(g).seconds);
      tc.push_back(cdlp(g, 10).seconds);
    }
    fmt::print("  wcc {:.3f} ms ({} components); triangles {:.3f} ms ({}); lcc {:.3f} ms; cdlp (10 iterations) {:.3f} ms\n",
               1e3 * median(tw), comps, 1e3 * median(tt), tri, 1e3 * median(tl), 1e3 * median(tc));
    // Graphalytics' EVPS: (vertices + edges) / the BFS time
    fmt::print("  EVPS (bfs): {:.3g}\n", (double(e.n) + double(g.nnz()) / 2) / median(tb));
    for (double b : o.batches) incremental(e, w, sources[0], b, o.runs);
    if (o.boost) boost_baseline(e, w, sources[0]);
  }
  return 0;
}

}  // namespace

void add_apps(CLI::App& bench, int& status) {
  auto [app, o] = subcommand<apps_options>(bench, "apps", "BFS, SSSP, WCC, triangles, LCC, CDLP and the incremental BFS/WCC", status, run_apps);
  app->add_option("--runs", o->runs, "timed runs (median)")->check(CLI::Range(1, 1000))->capture_default_str();
  app->add_option("--sources", o->sources, "BFS/SSSP sources (median)")->check(CLI::Range(1, 1000))->capture_default_str();
  app->add_option("--batches", o->batches, "insert batch sizes of the incremental runs")->delimiter(',');
  app->add_flag("!--no-boost", o->boost, "skip Boost.Graph's single-threaded baseline");
  app->add_option("GRAPH", o->graphs, matrix_help)->required();
}

}  // namespace fg::bench
