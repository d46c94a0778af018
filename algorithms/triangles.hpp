// Triangle counting and the local clustering coefficient (LDBC Graphalytics LCC), both on the
// undirected simple graph under a store: directions dropped, self-loops and repeats ignored (as
// networkx and LAGraph count). docs/graph-apps.md.
#pragma once
#include <cstdint>
#include <vector>

#include "algorithms/traversal.hpp"
#include "storage/dcsr.hpp"

namespace fg {

struct triangle_result {
  std::int64_t total = 0;
  std::vector<std::int64_t> per_vertex;  ///< triangles through each dense vertex (when asked)
  double seconds = 0;
};

/// @brief The masked product (L·L) ∘ L of LAGraph / Sandia, with L the degree-ordered DAG: each
///        DAG edge u -> v merges the sorted rows of u and v; every common w is one triangle, found
///        once. The orientation bounds rows by O(sqrt m), which is what makes power-law graphs fast.
template <class V, class S>
triangle_result triangles(const dcsr_matrix<V, S>& g, bool per_vertex = false);

struct lcc_result {
  std::vector<double> lcc;  ///< per dense vertex
  double seconds = 0;
};

/// @brief LCC(v) = |{(u, w) stored : u, w in N(v), u != w}| / (d (d - 1)), N(v) = v's in- and
///        out-neighbours (a set, v left out), d = |N(v)|; 0 when d < 2. On a symmetric store (an
///        undirected graph) that is triangles(v) / (d (d - 1) / 2). Counted on the same DAG: each
///        triangle {v, u, w} gives v the number of directions its opposite edge u-w is stored in.
template <class V, class S>
lcc_result lcc(const dcsr_matrix<V, S>& g);

/// @brief The triangle count kept current under batches, inserts and deletes alike, from the rows
///        the batch touches only. It keeps U, the undirected simple graph as a symmetric store. A
///        batch's undirected changes: {u, v} is new when an inserted (u, v) finds it absent from U,
///        gone when a deleted (u, v) finds it in U and neither (u, v) nor (v, u) in the store after
///        the batch. Taking the changes one at a time, edge i closes the triangles on its two rows
///        whose other edges are in U and, if batch edges, came before it: for the removed ones on U
///        before the batch (the later ones still there), for the new ones on U after it (the later
///        ones not yet). Exact: the count equals a from-scratch count after every batch.
template <class S>
class incremental_triangles {
 public:
  explicit incremental_triangles(bool per_vertex = false) : want_per_vertex_(per_vertex) {}
  /// The store after a batch; `in` its in-edge store (null when the store is symmetric: (v, u) is
  /// then looked up in `out`). The first call counts from scratch.
  template <class V>
  void update(const dcsr_matrix<V, S>& out, const dcsr_view<pattern>* in, const edge_batch<S>& inserted,
              const edge_batch<S>& deleted);
  /// The next update runs from scratch (a batch whose parts the rules do not cover).
  void reset() noexcept { started_ = false; }
  std::int64_t total() const noexcept { return total_; }
  std::vector<std::int64_t> per_vertex() const;  ///< empty unless asked for
  std::int64_t new_edges() const noexcept { return added_; }    ///< undirected edges the last batch added
  std::int64_t gone_edges() const noexcept { return removed_; }  ///< and removed

 private:
  bool want_per_vertex_;
  bool started_ = false;
  dcsr_matrix<pattern, S> U_;
  array<std::int64_t, S> pv_;
  std::int64_t total_ = 0, added_ = 0, removed_ = 0;
};

}  // namespace fg
