// PageRank by power iteration, stated as plus-times SpMV passes over the in-edge store.
// Agrees with networkx.pagerank(G, alpha=damping, weight=None) (see tests/unit/test_pagerank_expected.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace fg {

template <class V, class Space>
class dcsr_matrix;

/// @brief Options of a PageRank run.
struct pagerank_options {
  double damping = 0.85;   ///< probability of following an edge
  double tol = 1e-10;      ///< stop when the L1 change of the score vector < tol * n
  int max_iter = 1000;     ///< stop after this many iterations even if not converged
  bool weighted = false;   ///< use edge weights (duplicates add up) instead of counting each edge once
  /// SpMV kernel: "auto" asks the engine's selector (read/cost_model.hpp), or a kernel name.
  std::string kernel = "auto";
  /// Called after every iteration with (iteration, L1 change); e.g. a progress line.
  std::function<void(int, double)> progress;
  /// Reads x (the scores over out-weights) as float with double sums where the kernel can
  /// (csr_merge) and the tolerance is far above the rounding: tol n >= 2^-16. Each read is then
  /// within 2^-24 (L1, of a total mass of 1) of the double read, 1/256 of the stopping threshold at
  /// most, so the result is within d/(1-d) (tol n + 2^-24) of the fixed point. The gather moves half
  /// the bytes (rmat-24: x is 67 MB instead of 134, against a 50 MB L2). false: double reads only.
  bool mixed_precision = true;
  /// Out-degrees the caller keeps (an out-edge store's row sizes, in the store's memory; n entries):
  /// an unweighted run takes them instead of counting the in-edges' columns (a pass with an atomic
  /// an entry: 5 ms of rmat-24's run on the H100). Null: counted. Ignored when weighted.
  const vertex_t* out_degree = nullptr;
  /// Warm start: begin the power iteration from these scores (e.g. the previous batch's result)
  /// instead of 1/n. Vertices past its end (new since) start at 1/n; the vector is then scaled to
  /// sum 1. Same stopping rule, so the result is within d/(1-d) tol n (L1) of the fixed point, as a
  /// cold start's is. Empty: cold start.
  std::vector<double> initial;
};

/// @brief Result of a PageRank run; score[v] is indexed by dense vertex id.
struct pagerank_result {
  std::vector<double> score;
  int iterations = 0;
  bool converged = false;
  double last_change = 0;  ///< L1 change of the last iteration
  double seconds = 0;      ///< wall time after the view: out-weights, first vector, iterations
  double read_seconds = 0; ///< the SpMVs' device time, summed (in seconds; CUDA events)
  int mixed_reads = 0;     ///< reads of float x with double sums (pagerank_options::mixed_precision)
  std::string kernel;      ///< the SpMV kernel that ran
  std::string kernel_reason;
  double view_seconds = 0; ///< building the kernel's view (profile, selection, conversion)
  double decide_seconds = 0; ///< host time of the selector's decisions (in view_seconds / seconds)
};

/// @brief SpMVs a cold PageRank on n vertices needs a priori: the L1 change (at most 2) contracts by
///        at least d per iteration, so about ln(tol n / 2) / ln(d), within [1, max_iter].
double pagerank_expected_reads(const pagerank_options& opt, vertex_t n);

/// @brief PageRank over an in-edge store: row v lists the sources u of the edges u -> v (pattern:
///        each stored edge counts once; double: an edge counts by its value).
template <class V, class Space>
pagerank_result pagerank(const dcsr_matrix<V, Space>& in_edges, const pagerank_options& opt);

/// @brief Sorts (vertex, score) pairs best first (ties to the smaller vertex) and keeps the first k
///        and any tied with the k-th.
void best_first(std::vector<std::pair<vertex_t, double>>& scores, std::size_t k);

/// @brief Checks the options every PageRank entry point checks.
/// @throws fg::invalid_argument for damping outside [0, 1), tol <= 0 or not finite, max_iter < 1.
void validate(const pagerank_options& opt);


}  // namespace fg
