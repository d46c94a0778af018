// PageRank kept current over a changing graph at the cost of the change: residual pushes seeded by
// the batch alone (docs/dynamic-pagerank.md has the derivation and the figures).
//
// PageRank with uniform teleport and dangling mass spread uniformly (networkx's) is y / sum(y) for
// the solution y of (I - dP) y = 1, P[w][u] = 1/deg(u) per edge u -> w and dangling columns zero
// (the two teleports are the same vector). The engine keeps y and its residual r = 1 - y + dPy
// exactly:
//  - a push moves r[v] into y[v] and d r[v] / deg(v) onto each out-neighbour's residual (a queue of
//    the vertices over a threshold, first in first out, a vertex pushed with all that reached it
//    while queued; on the GPU one launch over a device-wide queue). The threshold falls by levels
//    until the bound below holds, so no push is made past the target;
//  - a batch changes r only along the edges it added or removed: each edge of u carries
//    q = y[u] / deg(u); a new edge adds d q at its target, a removed one takes it, and y[u] is
//    rescaled to the new degree so that the edges u kept carry q still (the rescale is a residual at u
//    itself). No row of the graph is read: a hub gaining one edge costs O(1), not O(deg) (the idea of
//    Zhang, Lofgren & Goel, KDD'16, for personalized PageRank; DF-P, Sahu et al. 2024, marks every
//    out-neighbour of a changed source instead).
// Bound: pi = y / sum(y) is within ||G pi - pi||_1 / (1 - d) of the exact scores (L1; G the Google
// matrix, which contracts differences of probability vectors by d), and G pi - pi is the residual r
// less a uniform shift, over sum(y): one pass over r. The pushes run until that is at most d/(1-d)
// tol n, the bound a from-scratch run's stopping rule gives.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/pagerank.hpp"
#include "core/types.hpp"

namespace fg {

template <class V, class Space>
struct coo_matrix;

/// What one update did.
struct dynamic_pagerank_stats {
  bool cold = false;          ///< recomputed by a from-scratch PageRank, then certified by pushes
  bool pulled = false;        ///< recomputed by power iterations from the last scores (pulls over the
                              ///< in-edges), then certified: the cost model put them under the pushes
  std::string reason;         ///< why it pushed, pulled or started over
  std::int64_t changed = 0;   ///< edges the batches since the last update added or removed
  int levels = 0;             ///< threshold levels pushed, one pass each (docs/dynamic-pagerank.md)
  std::int64_t pushes = 0;    ///< vertices over the threshold at the start of each level
  std::int64_t edges = 0;     ///< out-edges the pushes read
  int cold_iterations = 0;    ///< the power iterations (cold or pulled)
  double residual = 0;        ///< sum |r| after
  double seeded_bound = 0;    ///< the bound before any push: where the batches left the last scores
  double bound = 0;           ///< the scores are within this (L1) of the exact PageRank
  double target = 0;          ///< the bound the tolerance asks for: d/(1-d) tol n
  double seconds = 0;
};

/// How update() brings the scores back within the bound: by the times measured in this run (the
/// default), or always one way (tests, and benchmarks that show both).
enum class update_path { measured, push, pull };

/// @brief PageRank (pagerank_options' damping and tol; unweighted) kept current over an out-edge
///        store and, where one is kept, its in-edge twin, both changed by the same batches. Per batch:
///        before() while the stores hold the graph before it, after() once both took it, then
///        update() (or several batches, then update()). Without the in-edge store (`in` null: a
///        graph kept in one orientation, fluxgraph::footprint::compact) the sweeps and the runs from
///        scratch read P y along the out-edges, one atomic an entry, instead of pulling it.
template <class Space>
class dynamic_pagerank {
 public:
  explicit dynamic_pagerank(const pagerank_options& opt);
  ~dynamic_pagerank();
  dynamic_pagerank(dynamic_pagerank&&) noexcept;
  dynamic_pagerank& operator=(dynamic_pagerank&&) noexcept;

  /// @brief A batch is about to reach `out` (inserts and deletes as out-edge batches: row = source;
  ///        either may be null): its distinct pairs and which of them `out` holds now.
  void before(const dcsr_matrix<pattern, Space>& out, const coo_matrix<pattern, Space>* ins,
              const coo_matrix<pattern, Space>* del);
  /// @brief The batch of before() is in `out`: the pairs it added or removed move the residuals.
  void after(const dcsr_matrix<pattern, Space>& out);
  /// @brief The scores within the bound for the graph now: pushes from what the batches seeded, or a
  ///        from-scratch run (over `in`, or sweeps along `out` when in is null) when the batches
  ///        changed too much (or nothing is known yet).
  const dynamic_pagerank_stats& update(const dcsr_matrix<pattern, Space>& out, const dcsr_matrix<pattern, Space>* in);
  /// @brief Starts from given scores of the graph as the stores hold it now (a from-scratch run's:
  ///        the caller ran PageRank before any batch reached this object), so that the next batches
  ///        push from them. One SpMV over `in` (or along `out`, in null) makes their residual.
  void adopt(const dcsr_matrix<pattern, Space>& out, const dcsr_matrix<pattern, Space>* in, const std::vector<double>& scores);
  /// @brief The scores of the last update, on the host (sum 1), with its counts and times.
  pagerank_result result() const;
  /// @brief The k best (vertex, score) of the last update, best first, ties to the smaller id, then
  ///        any tied with the k-th: selected where the scores are, only the candidates gathered.
  std::vector<std::pair<vertex_t, double>> top(std::size_t k) const;
  const dynamic_pagerank_stats& stats() const noexcept;
  /// Bytes of the state it keeps between batches (scores, residuals, queue, the batch's pairs).
  std::size_t bytes() const noexcept;
  /// The stores changed without before()/after() (a failed batch): the next update starts over.
  void invalidate() noexcept;
  /// How the next updates bring the scores back within the bound (update_path::measured by default).
  void prefer(update_path p) noexcept;
  /// For tests: the largest |r[v] - (1 - y[v] + d (P y)[v])| with P y pulled over `in` now (or read
  ///        along `out`, in null).
  double residual_drift(const dcsr_matrix<pattern, Space>& out, const dcsr_matrix<pattern, Space>* in) const;

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace fg
