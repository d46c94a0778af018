// PageRank by power iteration, stated as plus-times SpMV passes over the in-edge store.
// Agrees with networkx.pagerank(G, alpha=damping, weight=None) (see tests/unit/test_pagerank_expected.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fg {

struct edge_file;
template <class V, class Space>
class dcsr_matrix;

/// @brief Options of a PageRank run.
struct pagerank_options {
  double damping = 0.85;   ///< probability of following an edge
  double tol = 1e-10;      ///< stop when the L1 change of the score vector < tol * n
  int max_iter = 1000;     ///< stop after this many iterations even if not converged
  bool weighted = false;   ///< use edge weights (duplicates add up) instead of counting each edge once
  /// SpMV kernel: "auto" asks the engine's selector (engine/cost_model.hpp), or a kernel name.
  std::string kernel = "auto";
  /// Called after every iteration with (iteration, L1 change); e.g. a progress line.
  std::function<void(int, double)> progress;
};

/// @brief Result of a PageRank run; score[v] is indexed by dense vertex id.
struct pagerank_result {
  std::vector<double> score;
  int iterations = 0;
  bool converged = false;
  double last_change = 0;  ///< L1 change of the last iteration
  double seconds = 0;      ///< wall time of the iterations (store already built)
  std::string kernel;      ///< the SpMV kernel that ran
  std::string kernel_reason;
  double view_seconds = 0; ///< building the kernel's view (profile, selection, conversion)
};

/// @brief PageRank over an in-edge store: row v lists the sources u of the edges u -> v (pattern:
///        each stored edge counts once; double: an edge counts by its value).
template <class V, class Space>
pagerank_result pagerank(const dcsr_matrix<V, Space>& in_edges, const pagerank_options& opt);

/// @brief Load-to-result convenience used by the CLI and tests: builds the in-edge store from the
///        file's edges on the given twin, defragments it and runs PageRank.
/// @throws fg::invalid_argument for damping outside [0, 1), tol <= 0, max_iter < 1, or negative
///         weights when weighted.
pagerank_result pagerank(const edge_file& file, const pagerank_options& opt, exec where = exec::device);

}  // namespace fg
