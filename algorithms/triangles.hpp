// Triangle counting and the local clustering coefficient (LDBC Graphalytics LCC), both on the
// undirected simple graph under a store: directions dropped, self-loops and repeats ignored (as
// networkx and LAGraph count). docs/graph-apps.md.
#pragma once
#include <cstdint>
#include <vector>

#include "storage/dcsr.hpp"

namespace fg {

struct triangle_result {
  std::int64_t total = 0;
  std::vector<std::int64_t> per_vertex;  ///< triangles through each dense vertex (when asked)
  std::int64_t wedges_checked = 0;       ///< edges of the degree-ordered DAG (one merge each)
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

}  // namespace fg
