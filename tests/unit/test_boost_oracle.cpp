// Boost.Graph as an independent oracle for the DCSR store and semiring SpMV on real graphs.
//
//  1. Adjacency: every graph file is loaded with fg::read_graph, the same edges go into a
//     boost::adjacency_list and into fg::dcsr_matrix<pattern> out-stores (in several batches, two
//     store configurations, one of which starts empty, grows and compacts on its own). For every
//     vertex the set of out-neighbours must be the same, before and after defragment(), and a
//     store row must hold each neighbour once (pattern graphs collapse duplicate edges).
//  2. BFS: levels from boost::breadth_first_search equal (a) the iteration at which a vertex first
//     becomes reachable by or-and SpMV frontier expansion and (b) the hop distance that min-plus
//     SpMV relaxation converges to, both on an in-edge store (row v lists v's predecessors), for
//     both memory spaces (device twin and host reference twin).
//  Tiny hand-written files, whose answers are spelled out below, check the oracle itself.
//
// FG_TEST_DATA_DIR is the absolute path of tests/data (a string literal), set by the build.
#include <doctest/doctest.h>
#include <unistd.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/array.hpp"
#include "core/semiring.hpp"
#include "loaders/graph_file.hpp"
#include "storage/coo.hpp"
#include "storage/dcsr.hpp"

#ifndef FG_TEST_DATA_DIR
#error "FG_TEST_DATA_DIR must be defined as the absolute path of tests/data (a string literal)"
#endif

namespace {

namespace fs = std::filesystem;
using fg::vertex_t;
using adjacency_sets = std::vector<std::set<vertex_t>>;
using directed_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using undirected_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

constexpr int kBatches = 5;
constexpr int kUnreached = -1;

fs::path data_dir() { return fs::path(FG_TEST_DATA_DIR); }

// A file written for one test case and removed when the case ends.
class temp_file {
 public:
  temp_file(const std::string& name, const std::string& text)
      : path_(fs::temp_directory_path() / ("fg_boost_oracle_" + std::to_string(getpid()) + "_" + name)) {
    std::ofstream(path_) << text;
  }
  ~temp_file() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

// Every regular file of a directory (not recursive), sorted, so runs are reproducible.
std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

vertex_t vertices_of(const fg::edge_file& f) {
  REQUIRE(f.num_vertices > 0);
  REQUIRE(f.num_vertices < std::numeric_limits<vertex_t>::max());
  REQUIRE(f.src.size() == f.dst.size());
  return vertex_t(f.num_vertices);
}

// ---- Boost side ---------------------------------------------------------------------------------

directed_graph boost_directed(const fg::edge_file& f) {
  directed_graph g(std::size_t(vertices_of(f)));
  for (std::size_t e = 0; e < f.src.size(); ++e) boost::add_edge(f.src[e], f.dst[e], g);
  return g;
}

template <class G>
adjacency_sets boost_out_sets(const G& g) {
  adjacency_sets out(boost::num_vertices(g));
  for (std::size_t v = 0; v < out.size(); ++v) {
    auto [it, end] = boost::adjacent_vertices(v, g);
    for (; it != end; ++it) out[v].insert(vertex_t(*it));
  }
  return out;
}

// BFS levels (hop distances) from s; kUnreached where s has no path.
template <class G>
std::vector<int> boost_levels(const G& g, vertex_t s) {
  std::vector<int> dist(boost::num_vertices(g), kUnreached);
  dist[std::size_t(s)] = 0;
  boost::breadth_first_search(
      g, boost::vertex(std::size_t(s), g),
      boost::visitor(boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge()))));
  return dist;
}

// ---- fluxgraph side -----------------------------------------------------------------------------

// Edges [first, last) of the file as a batch; `in` swaps the ends (row = target, col = source).
template <class S>
fg::coo_matrix<fg::pattern, S> batch_of(const fg::edge_file& f, const std::vector<std::size_t>& order,
                                        std::size_t first, std::size_t last, bool in) {
  std::vector<vertex_t> r, c;
  for (std::size_t i = first; i < last; ++i) {
    const std::size_t e = order[i];
    r.push_back(in ? f.dst[e] : f.src[e]);
    c.push_back(in ? f.src[e] : f.dst[e]);
  }
  return fg::make_coo<fg::pattern, S>(r, c);
}

// Inserts the file's edges in kBatches batches (in `order`) into `A`, validating after each.
template <class S>
void insert_in_batches(fg::dcsr_matrix<fg::pattern, S>& A, const fg::edge_file& f,
                       const std::vector<std::size_t>& order, bool in) {
  const std::size_t m = order.size();
  for (int b = 0; b < kBatches; ++b) {
    const std::size_t first = m * std::size_t(b) / kBatches, last = m * std::size_t(b + 1) / kBatches;
    A.insert_batch(batch_of<S>(f, order, first, last, in));
    A.validate();
  }
}

std::vector<std::size_t> file_order(const fg::edge_file& f) {
  std::vector<std::size_t> order(f.src.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  return order;
}
std::vector<std::size_t> shuffled_order(const fg::edge_file& f, unsigned seed) {
  auto order = file_order(f);
  std::mt19937 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

// Store 1: blank n x n store, default configuration, batches in file order.
template <class S>
fg::dcsr_matrix<fg::pattern, S> blank_store(const fg::edge_file& f, bool in) {
  const vertex_t n = vertices_of(f);
  auto A = fg::dcsr_matrix<fg::pattern, S>::blank(n, n);
  insert_in_batches(A, f, file_order(f), in);
  return A;
}

// Store 2: an empty 0 x 0 store with k = 2 segments and no slack, so rows fill up at once: new ids
// grow the row table, rows hit the segment limit and the buffer fills (automatic compactions).
// Batches in a shuffled order; resized to n x n at the end (vertices without edges).
template <class S>
fg::dcsr_matrix<fg::pattern, S> growing_store(const fg::edge_file& f, bool in) {
  fg::dcsr_config cfg;
  cfg.max_segments = 2;
  cfg.alpha = 0;
  cfg.reserve = 4;
  fg::dcsr_matrix<fg::pattern, S> A(cfg);
  insert_in_batches(A, f, shuffled_order(f, 12345u), in);
  const vertex_t n = vertices_of(f);
  A.resize(n, n);
  A.validate();
  return A;
}

// Out-neighbour sets of the store's rows; REQUIREs that no row holds a neighbour twice.
template <class S>
adjacency_sets store_sets(const fg::dcsr_matrix<fg::pattern, S>& A) {
  const auto csr = A.to_csr();
  const auto ptr = fg::to_vector(csr.row_ptr);
  const auto col = fg::to_vector(csr.col);
  REQUIRE(ptr.size() == std::size_t(A.rows()) + 1);
  REQUIRE(ptr.back() == A.nnz());
  adjacency_sets out(std::size_t(A.rows()));
  for (std::size_t r = 0; r < out.size(); ++r) {
    for (auto p = ptr[r]; p < ptr[r + 1]; ++p) {
      const vertex_t c = col[std::size_t(p)];
      if (c < 0 || c >= A.cols()) FAIL("row ", r, ": column ", c, " outside [0, ", A.cols(), ")");
      out[r].insert(c);
    }
    if (std::int64_t(out[r].size()) != ptr[r + 1] - ptr[r])
      FAIL("row ", r, " holds a neighbour twice (", ptr[r + 1] - ptr[r], " entries, ", out[r].size(), " distinct)");
  }
  return out;
}

std::size_t count_edges(const adjacency_sets& a) {
  std::size_t m = 0;
  for (const auto& s : a) m += s.size();
  return m;
}

std::string to_text(const std::set<vertex_t>& s) {
  std::string t = "{";
  for (vertex_t v : s) t += (t.size() > 1 ? ", " : "") + std::to_string(v);
  return t + "}";
}

// One assertion when equal; otherwise the first differing vertex is named, with both sets.
void require_same_sets(const adjacency_sets& got, const adjacency_sets& want) {
  REQUIRE(got.size() == want.size());
  if (got == want) return;
  for (std::size_t v = 0; v < want.size(); ++v) {
    INFO("vertex (dense id) ", v);
    REQUIRE(to_text(got[v]) == to_text(want[v]));
  }
}

template <class S>
void check_adjacency(const fg::edge_file& f, const adjacency_sets& want) {
  const vertex_t n = vertices_of(f);
  for (int variant = 0; variant < 2; ++variant) {
    INFO((variant == 0 ? "blank store, file order" : "growing k=2 store, shuffled order"));
    auto A = variant == 0 ? blank_store<S>(f, false) : growing_store<S>(f, false);
    REQUIRE(A.rows() == n);
    REQUIRE(A.cols() == n);
    REQUIRE(std::size_t(A.nnz()) == count_edges(want));
    require_same_sets(store_sets(A), want);  // as inserted (possibly fragmented)
    A.defragment();
    A.validate();
    REQUIRE(A.allocation_pointer() == A.nnz());
    require_same_sets(store_sets(A), want);
  }
}

// Levels by or-and frontier expansion on an in-store: x = reached indicator, y = A x marks every
// vertex with a reached in-neighbour; a vertex's level is the step at which it first shows up.
template <class S>
std::vector<int> or_and_levels(const fg::dcsr_matrix<fg::pattern, S>& in_store, vertex_t s) {
  const std::size_t n = std::size_t(in_store.rows());
  std::vector<std::uint8_t> reached(n, 0);
  std::vector<int> level(n, kUnreached);
  reached[std::size_t(s)] = 1;
  level[std::size_t(s)] = 0;
  fg::array<std::uint8_t, S> y(n);
  for (int step = 1;; ++step) {
    REQUIRE(std::size_t(step) <= n);  // a BFS has at most n - 1 levels
    const auto x = fg::to_space<S>(reached);
    fg::spmv<fg::or_and>(in_store, x, y);
    const auto hit = fg::to_vector(y);
    bool grew = false;
    for (std::size_t v = 0; v < n; ++v) {
      if (hit[v] > 1) FAIL("step ", step, ": or-and result ", int(hit[v]), " at vertex ", v, " is not 0/1");
      if (reached[v]) {
        // A reached vertex other than the source has a reached in-neighbour (its BFS parent).
        if (std::size_t(s) != v && hit[v] != 1) FAIL("step ", step, ": reached vertex ", v, " lost its in-neighbour");
        continue;
      }
      if (hit[v]) {
        reached[v] = 1;
        level[v] = step;
        grew = true;
      }
    }
    if (!grew) return level;
  }
}

// Hop distances by min-plus relaxation on an in-store (a pattern entry is an edge of length 1):
// d <- min(d, A (min.+) d) until nothing changes; +inf = unreachable, reported as kUnreached.
template <class S>
std::vector<int> min_plus_levels(const fg::dcsr_matrix<fg::pattern, S>& in_store, vertex_t s) {
  const std::size_t n = std::size_t(in_store.rows());
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> d(n, inf);
  d[std::size_t(s)] = 0;
  fg::array<double, S> y(n);
  for (std::size_t round = 0;; ++round) {
    REQUIRE(round <= n);  // distances settle after at most n - 1 relaxations
    const auto x = fg::to_space<S>(d);
    fg::spmv<fg::min_plus<double>>(in_store, x, y);
    const auto relaxed = fg::to_vector(y);
    bool changed = false;
    for (std::size_t v = 0; v < n; ++v) {
      if (relaxed[v] < d[v]) {
        d[v] = relaxed[v];
        changed = true;
      }
    }
    if (!changed) break;
  }
  std::vector<int> level(n, kUnreached);
  for (std::size_t v = 0; v < n; ++v) {
    if (std::isinf(d[v])) continue;
    if (!(d[v] >= 0 && d[v] == std::floor(d[v])))  // hop counts are small integers, exact in double
      FAIL("vertex ", v, ": min-plus distance ", d[v], " is not a hop count");
    level[v] = int(d[v]);
  }
  return level;
}

void require_same_levels(const std::vector<int>& got, const std::vector<int>& want) {
  REQUIRE(got.size() == want.size());
  if (got == want) return;
  for (std::size_t v = 0; v < want.size(); ++v) {
    INFO("vertex (dense id) ", v);
    REQUIRE(got[v] == want[v]);
  }
}

// Both fluxgraph BFS computations, on both in-store variants of memory space S, against `want`.
template <class S>
void check_bfs(const fg::edge_file& f, vertex_t s, const std::vector<int>& want) {
  for (int variant = 0; variant < 2; ++variant) {
    INFO((variant == 0 ? "blank in-store, defragmented" : "growing k=2 in-store, not defragmented"));
    auto A = variant == 0 ? blank_store<S>(f, true) : growing_store<S>(f, true);
    if (variant == 0) A.defragment();  // the other variant runs SpMV on the fragmented store
    REQUIRE(A.rows() == vertices_of(f));
    {
      INFO("or-and frontier levels");
      require_same_levels(or_and_levels(A, s), want);
    }
    {
      INFO("min-plus hop distances");
      require_same_levels(min_plus_levels(A, s), want);
    }
  }
}

struct bfs_summary {
  std::size_t runs = 0, runs_with_unreached = 0, runs_reaching_others = 0;
  int deepest = 0;
  void add(const std::vector<int>& levels, vertex_t s) {
    ++runs;
    std::size_t reached = 0;
    for (int l : levels) {
      if (l != kUnreached) ++reached;
      deepest = std::max(deepest, l);
    }
    if (reached < levels.size()) ++runs_with_unreached;
    if (reached > 1) ++runs_reaching_others;
    REQUIRE(levels[std::size_t(s)] == 0);
  }
};

// Three sources: the vertex of largest out-degree, dense vertex 0, and a fixed pseudo-random one.
std::vector<vertex_t> sources_of(const fg::edge_file& f) {
  const vertex_t n = vertices_of(f);
  std::vector<std::int64_t> deg(std::size_t(n), 0);
  for (auto u : f.src) ++deg[std::size_t(u)];
  const auto hub = vertex_t(std::max_element(deg.begin(), deg.end()) - deg.begin());
  std::mt19937 rng(2024u + unsigned(n));
  const auto any = vertex_t(std::uniform_int_distribution<vertex_t>(0, n - 1)(rng));
  return {hub, 0, any};
}

// ---- hand-checked files -------------------------------------------------------------------------

// Edge list, ids {10, 20, 30, 40} -> dense 0..3; a duplicate line and a self-loop.
const char* const kHandEdges =
    "# hand-checked: 10->20 twice, 30->30 a self-loop\n"
    "10 20\n"
    "20 30\n"
    "10 20\n"
    "30 10\n"
    "30 30\n"
    "40 10\n"
    "20 10\n";
const adjacency_sets kHandEdgesOut = {{1}, {0, 2}, {0, 2}, {0}};

// Matrix Market 7 x 7: a directed 3-cycle 1->2->3->1, a self-loop on 5, an edge 6->7, and vertex 4
// with no edge at all (n comes from the size line).
const char* const kHandMtx =
    "%%MatrixMarket matrix coordinate pattern general\n"
    "7 7 5\n"
    "1 2\n"
    "2 3\n"
    "3 1\n"
    "5 5\n"
    "6 7\n";
const adjacency_sets kHandMtxOut = {{1}, {2}, {0}, {}, {4}, {6}, {}};
// BFS levels (dense ids) from dense 0, 4 and 5.
const std::vector<std::pair<vertex_t, std::vector<int>>> kHandMtxLevels = {
    {0, {0, 1, 2, -1, -1, -1, -1}},
    {4, {-1, -1, -1, -1, 0, -1, -1}},
    {5, {-1, -1, -1, -1, -1, 0, 1}},
};

// Zachary's karate club (symmetric pattern file): the well-known degree sequence, vertices 1..34.
const std::vector<std::size_t> kKarateDegrees = {16, 9, 10, 6, 3, 4, 4, 4, 5, 2, 3, 1, 2, 5, 2, 2, 2,
                                                 2,  2, 3,  2, 2, 2, 5, 3, 3, 2, 4, 3, 4, 4, 6, 12, 17};

}  // namespace

TEST_CASE("boost oracle: adjacency after loading equals Boost.Graph's") {
  SUBCASE("hand-checked files: the oracle and the stores give the known answer") {
    const temp_file edges("hand.txt", kHandEdges), mtx("hand.mtx", kHandMtx);
    for (const auto& [path, want] : {std::make_pair(edges.path(), kHandEdgesOut), std::make_pair(mtx.path(), kHandMtxOut)}) {
      INFO("file ", path);
      const fg::edge_file f = fg::read_graph(path);
      REQUIRE(f.num_vertices == std::int64_t(want.size()));
      require_same_sets(boost_out_sets(boost_directed(f)), want);
      check_adjacency<fg::device_space>(f, want);
      check_adjacency<fg::host_space>(f, want);
    }
    // karate.mtx: 78 undirected edges stored once, both directions after loading.
    const fg::edge_file k = fg::read_graph((data_dir() / "loaders" / "karate.mtx").string());
    REQUIRE(k.num_vertices == 34);
    REQUIRE(k.num_edges() == 156);
    const adjacency_sets want = boost_out_sets(boost_directed(k));
    for (std::size_t v = 0; v < want.size(); ++v) {
      INFO("karate vertex ", v + 1);
      REQUIRE(want[v].size() == kKarateDegrees[v]);
      for (vertex_t u : want[v])  // symmetric
        if (want[std::size_t(u)].count(vertex_t(v)) != 1) FAIL("edge ", v + 1, "-", u + 1, " has no reverse");
    }
    REQUIRE(want[0].count(33) == 0);   // 1 and 34 are the two leaders: not adjacent
    REQUIRE(want[33].count(32) == 1);  // 34 - 33
    check_adjacency<fg::device_space>(k, want);
  }

  SUBCASE("real graphs: every vertex has the same out-neighbour set") {
    std::vector<std::string> paths = files_in(data_dir() / "pagerank" / "graphs");
    const std::size_t pagerank_graphs = paths.size();
    REQUIRE(pagerank_graphs >= 10);
    for (const auto& p : files_in(data_dir() / "loaders")) paths.push_back(p);  // malformed/ is a directory
    REQUIRE(paths.size() >= pagerank_graphs + 8);
    std::size_t checked = 0, symmetric_files = 0, with_duplicates = 0;
    for (const auto& path : paths) {
      INFO("file ", path);
      const fg::edge_file f = fg::read_graph(path);
      REQUIRE(f.num_edges() > 0);
      const directed_graph g = boost_directed(f);
      REQUIRE(boost::num_edges(g) == f.src.size());  // boost keeps parallel edges: one per entry
      const adjacency_sets want = boost_out_sets(g);
      if (count_edges(want) < f.src.size()) ++with_duplicates;
      bool symmetric = true;
      for (std::size_t v = 0; v < want.size() && symmetric; ++v)
        for (vertex_t u : want[v]) symmetric = symmetric && want[std::size_t(u)].count(vertex_t(v)) == 1;
      if (symmetric) ++symmetric_files;
      check_adjacency<fg::device_space>(f, want);
      check_adjacency<fg::host_space>(f, want);
      ++checked;
    }
    REQUIRE(checked == paths.size());
    REQUIRE(symmetric_files >= 2);  // karate.mtx (twice), zenios.mtx, symmetric.mtx ...
    REQUIRE(with_duplicates >= 1);  // TG.cedge has duplicate lines
  }
}

TEST_CASE("boost oracle: BFS reachability and levels by or-and / min-plus SpMV equal Boost BFS") {
  SUBCASE("hand-checked file") {
    const temp_file mtx("hand_bfs.mtx", kHandMtx);
    const fg::edge_file f = fg::read_graph(mtx.path());
    const directed_graph g = boost_directed(f);
    for (const auto& [s, want] : kHandMtxLevels) {
      INFO("source ", s);
      require_same_levels(boost_levels(g, s), want);
      check_bfs<fg::device_space>(f, s, want);
      check_bfs<fg::host_space>(f, s, want);
    }
  }

  SUBCASE("real graphs, three sources each") {
    struct graph_case {
      const char* path;
      bool undirected;
    };
    const graph_case cases[] = {
        {"loaders/karate.mtx", true},                          // symmetric: both directions
        {"pagerank/graphs/zenios.mtx", true},                  // symmetric, 1391 components
        {"pagerank/graphs/test_FW_2500.mtx", false},           // 490 vertices with no edge
        {"pagerank/graphs/TG.cedge.data_23874.txt", false},    // road network: deep BFS, duplicates
        {"pagerank/graphs/p2p-Gnutella04.data_39994.txt.gz", false},  // 55% sinks
        {"pagerank/graphs/ldbc-directed-example.mtx", false},
        {"pagerank/graphs/lp_afiro.mtx", false},               // rectangular: column-only sinks
    };
    bfs_summary summary;
    std::size_t graphs = 0;
    for (const auto& c : cases) {
      const std::string path = (data_dir() / c.path).string();
      INFO("file ", path);
      const fg::edge_file f = fg::read_graph(path);
      REQUIRE(f.num_edges() > 0);
      const directed_graph g = boost_directed(f);
      undirected_graph u(std::size_t(vertices_of(f)));
      if (c.undirected)  // the same graph as Boost's undirected type: BFS must agree with directedS
        for (std::size_t e = 0; e < f.src.size(); ++e) boost::add_edge(f.src[e], f.dst[e], u);
      for (vertex_t s : sources_of(f)) {
        INFO("source (dense id) ", s);
        const std::vector<int> want = boost_levels(g, s);
        if (c.undirected) require_same_levels(boost_levels(u, s), want);
        summary.add(want, s);
        check_bfs<fg::device_space>(f, s, want);
        check_bfs<fg::host_space>(f, s, want);
      }
      ++graphs;
    }
    REQUIRE(graphs >= 4);
    REQUIRE(summary.runs == 3 * graphs);
    REQUIRE(summary.runs_with_unreached >= 3);      // unreachable (+inf) vertices are exercised
    REQUIRE(summary.runs_reaching_others >= graphs);  // not only trivial single-vertex searches
    REQUIRE(summary.deepest >= 10);                 // many frontier steps somewhere
  }
}
