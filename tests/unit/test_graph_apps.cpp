// The graph applications against LDBC Graphalytics' validation graphs and expected outputs
// (tests/data/graphalytics), and against LAGraph's expected triangle counts, components and BFS
// levels (tests/data/apps), on both twins.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/cdlp.hpp"
#include "algorithms/components.hpp"
#include "algorithms/pagerank.hpp"
#include "algorithms/traversal.hpp"
#include "algorithms/triangles.hpp"
#include "apps_support.hpp"

using namespace fg;
using namespace fg::test;

namespace {

const std::string ga = "graphalytics/validation-graphs/";
const std::string props_dir = "graphalytics/properties/";
constexpr double inf = std::numeric_limits<double>::infinity();

vertex_t dense(const std::vector<std::int64_t>& ids, const std::string& id) {
  const auto it = std::lower_bound(ids.begin(), ids.end(), std::stoll(id));
  REQUIRE(it != ids.end());
  return vertex_t(it - ids.begin());
}

/// Runs ALGO on g with the parameters of the properties file; one value per dense vertex, in the
/// form of Graphalytics' output (labels as file ids, unreached as +inf).
template <class S>
std::vector<double> run(const std::string& algo, const app_graph<S>& g, const std::string& props) {
  std::vector<double> out(std::size_t(g.n()));
  const dcsr_view<pattern> in = g.in.view();
  if (algo == "BFS") {
    const bfs_result r = bfs(g.out, &in, g.symmetric, dense(g.ids, property(props, ".bfs.source-vertex")));
    for (std::size_t v = 0; v < out.size(); ++v) out[v] = r.level[v] < 0 ? inf : r.level[v];
    // push-only agrees with direction-optimizing
    bfs_options push;
    push.direction_optimizing = false;
    CHECK(bfs(g.out, &in, g.symmetric, dense(g.ids, property(props, ".bfs.source-vertex")), push).level == r.level);
  } else if (algo == "SSSP") {
    out = sssp(g.out, dense(g.ids, property(props, ".sssp.source-vertex"))).dist;
  } else if (algo == "WCC") {
    const wcc_result r = wcc(g.out);
    for (std::size_t v = 0; v < out.size(); ++v) out[v] = double(g.ids[std::size_t(r.label[v])]);
  } else if (algo == "CDLP") {
    const cdlp_result r = cdlp(g.out, std::stoi(property(props, ".cdlp.max-iterations")));
    for (std::size_t v = 0; v < out.size(); ++v) out[v] = double(g.ids[std::size_t(r.label[v])]);
  } else if (algo == "LCC") {
    out = lcc(g.out).lcc;
  } else if (algo == "PR") {
    pagerank_options o;
    o.damping = std::stod(property(props, ".pr.damping-factor"));
    o.max_iter = std::stoi(property(props, ".pr.num-iterations"));
    o.tol = 1e-300;  // Graphalytics runs a fixed number of iterations
    out = pagerank(g.in, o).score;
  }
  return out;
}

// Graphalytics validates PR and LCC by an epsilon match, |ours - expected| <= 1e-4 x expected (its
// spec, 2.x). We ask 1e-5 of PR: on pr/dir ours is 1.27e-6 from the expected file, and so is a
// plain 14-iteration power iteration in Python (13: 4.5e-6, 15: 4.8e-7), so the file is not quite
// that; everywhere else <= 1e-9. LCC 1e-9 (lcc/dir-output has 12 digits), SSSP 1e-12; the rest exact.
double tolerance(const std::string& algo) { return algo == "PR" ? 1e-5 : algo == "LCC" ? 1e-9 : algo == "SSSP" ? 1e-12 : 0.0; }

}  // namespace

TEST_CASE_TEMPLATE("graphalytics: every validation graph and expected output", S, host_space, device_space) {
  for (const std::string algo : {"BFS", "CDLP", "LCC", "PR", "WCC", "SSSP"}) {
    std::string lower = algo;
    for (auto& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    for (const std::string dir : {"dir", "undir"}) {
      const bool directed = dir == "dir";
      CAPTURE(algo);
      CAPTURE(dir);
      const std::string base = app_data(ga + lower + "/" + dir);
      const edge_file f = algo == "SSSP" ? read_vertex_edge(base + "-input.e", base + "-input.v") : read_adjacency(base + "-input");
      const app_graph<S> g = app_graph_of<S>(f, algo == "SSSP" && !directed);
      const std::string props = app_data(props_dir + "test-" + lower + (directed ? "-directed" : "-undirected") + ".properties");
      check_values(run<S>(algo, g, props), g.ids, expected_values(base + "-output"), tolerance(algo), algo + " " + dir);
    }
  }
}

TEST_CASE_TEMPLATE("graphalytics: the example graphs, every algorithm", S, host_space, device_space) {
  for (const std::string kind : {"directed", "undirected"}) {
    const std::string base = app_data(ga + "example/example-" + kind);
    const app_graph<S> g = app_graph_of<S>(read_vertex_edge(base + ".e", base + ".v"), kind == "undirected");
    for (const std::string algo : {"BFS", "CDLP", "LCC", "PR", "WCC", "SSSP"}) {
      CAPTURE(algo);
      CAPTURE(kind);
      check_values(run<S>(algo, g, app_data(props_dir + "example-" + kind + ".properties")), g.ids,
                   expected_values(base + "-" + algo), tolerance(algo), algo + " example-" + kind);
    }
  }
}

TEST_CASE_TEMPLATE("triangles: LAGraph's expected counts; per vertex sums to 3x the total", S, host_space, device_space) {
  std::ifstream in(app_data("apps/triangle_counts.tsv"));
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string name, file;
    std::int64_t want = 0;
    ls >> name >> file >> want;
    const std::string local = app_data("apps/" + file.substr(file.find('/') + 1));
    const std::string path = std::ifstream(local).good() ? local : local + ".gz";
    CAPTURE(path);
    const app_graph<S> g = app_graph_of<S>(read_graph(path), false);
    const triangle_result r = triangles(g.out, true);
    CHECK(r.total == want);
    std::int64_t sum = 0;
    for (auto t : r.per_vertex) sum += t;
    CHECK(sum == 3 * want);
    ++checked;
  }
  CHECK(checked == 9);
}

TEST_CASE_TEMPLATE("wcc: LAGraph's and harp-lab's expected component counts", S, host_space, device_space) {
  std::ifstream in(app_data("apps/connected_components.tsv"));
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string name, file, kind;
    std::getline(ls, name, '\t'), std::getline(ls, file, '\t'), std::getline(ls, kind, '\t');
    std::int64_t want = 0;
    ls >> want;
    if (file.rfind("lagraph/", 0) != 0) continue;  // the large graphs are the benchmark's
    const std::string local = app_data("apps/" + file.substr(8));
    const std::string path = std::ifstream(local).good() ? local : local + ".gz";
    CAPTURE(path);
    const app_graph<S> g = app_graph_of<S>(read_graph(path), false);
    CHECK(wcc(g.out).components == want);
    ++checked;
  }
  CHECK(checked == 11);
}

TEST_CASE_TEMPLATE("bfs: LAGraph's levels on karate from vertex 30", S, host_space, device_space) {
  const app_graph<S> g = app_graph_of<S>(read_graph(app_data("apps/karate.mtx")), false);
  const dcsr_view<pattern> in = g.in.view();
  const bfs_result r = bfs(g.out, &in, true, 30);  // .mtx ids are 1-based: dense 30 is LAGraph's 30
  std::ifstream want(app_data("apps/lagraph_bfs_karate_src30.txt"));
  std::string line;
  int checked = 0;
  while (std::getline(want, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    int v = 0, level = 0;
    ls >> v >> level;
    CHECK(r.level[std::size_t(v)] == level);
    ++checked;
  }
  CHECK(checked == 34);
}
