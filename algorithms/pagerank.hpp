// PageRank by power iteration, stated as plus-times SpMV passes over the in-edge store.
// Agrees with networkx.pagerank(G, alpha=damping, weight=None) (see tests/unit/test_pagerank_expected.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "fluxgraph/options.hpp"
#include "fluxgraph/reports.hpp"

namespace fg {

template <class V, class Space>
class dcsr_matrix;

// A run's options and result: the public types (include/fluxgraph/options.hpp, reports.hpp).
using fluxgraph::pagerank_options;
using fluxgraph::pagerank_result;

/// @brief What a run starts from beside its options: what the engine knows that a caller's options
///        do not say.
struct pagerank_start {
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

/// @brief SpMVs a cold PageRank on n vertices needs a priori: the L1 change (at most 2) contracts by
///        at least d per iteration, so about ln(tol n / 2) / ln(d), within [1, max_iter].
double pagerank_expected_reads(const pagerank_options& opt, vertex_t n);

/// @brief PageRank over an in-edge store: row v lists the sources u of the edges u -> v (pattern:
///        each stored edge counts once; double: an edge counts by its value).
template <class V, class Space>
pagerank_result pagerank(const dcsr_matrix<V, Space>& in_edges, const pagerank_options& opt,
                         const pagerank_start& start = {});

/// @brief Personalized PageRank, one result per seed set (networkx.pagerank(G, alpha=damping,
///        personalization=p, weight=None or 'weight') with p uniform over the set and dangling mass
///        sent back to the seeds as networkx's dangling=None does): each set's vector starts at 1/n
///        and stops by itself when its L1 change < tol n. The sets are read together, up to 32 a
///        read: one read of the in-edges for k score vectors (spmv_view::run_k), not k reads.
///        seconds, read_seconds and the kernel are their group's.
/// @throws fg::invalid_argument for an empty set, a seed outside [0, rows), or bad options
template <class V, class Space>
std::vector<pagerank_result> personalized_pagerank(const dcsr_matrix<V, Space>& in_edges, const pagerank_options& opt,
                                                   const std::vector<std::vector<vertex_t>>& seeds,
                                                   const pagerank_start& start = {});

/// @brief Sorts (vertex, score) pairs best first (ties to the smaller vertex) and keeps the first k
///        and any tied with the k-th.
void best_first(std::vector<std::pair<vertex_t, double>>& scores, std::size_t k);

/// @brief Checks the options every PageRank entry point checks.
/// @throws fg::invalid_argument for damping outside [0, 1), tol <= 0 or not finite, max_iter < 1.
void validate(const pagerank_options& opt);


}  // namespace fg
