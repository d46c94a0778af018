// Results of the graph applications (fluxgraph::graph::bfs, sssp, wcc, cdlp, lcc, triangles): the
// LDBC Graphalytics kernels and triangle counting (docs/graph-apps.md). Values are per vertex id.
#pragma once
#include <cstdint>
#include <vector>

namespace fluxgraph {

struct bfs_result {
  std::vector<std::int32_t> level;  ///< hops from the source; -1 unreached
  std::int32_t depth = 0;           ///< the largest level
  std::int64_t reached = 0;         ///< vertices with a level
  std::int64_t edges = 0;           ///< out-edges of the reached vertices (what TEPS counts)
  int push_steps = 0, pull_steps = 0;
  double seconds = 0;
};

struct sssp_result {
  std::vector<double> dist;  ///< +inf unreached
  std::int64_t reached = 0;
  std::int64_t edges = 0;
  double delta = 0;          ///< the bucket width used
  double seconds = 0;
};

struct wcc_result {
  std::vector<std::int64_t> label;  ///< the least vertex id of the component
  std::int64_t components = 0;
  double seconds = 0;
};

struct cdlp_result {
  std::vector<std::int64_t> label;  ///< a vertex id: the community's label
  int iterations = 0;
  double seconds = 0;
};

struct lcc_result {
  std::vector<double> lcc;
  double seconds = 0;
};

struct triangle_result {
  std::int64_t total = 0;                ///< triangles of the undirected simple graph underneath
  std::vector<std::int64_t> per_vertex;  ///< when asked for
  double seconds = 0;
};

}  // namespace fluxgraph
