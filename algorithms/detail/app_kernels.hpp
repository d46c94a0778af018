// Kernels of the graph applications (BFS, SSSP, WCC, triangles, LCC, CDLP); the orchestration is
// written once in algorithms/{traversal,components,triangles,cdlp}.cpp. Twins:
//   app_kernels<host_space>   algorithms/reference/*_steps.cpp (sequential loops: the oracle)
//   app_kernels<device_space> algorithms/device/*_steps.cpp (OpenMP threads or the GPU)
// Every kernel's result is deterministic (levels, distances, labels, counts), whatever the order in
// which threads find it, so the twins agree exactly.
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "storage/coo.hpp"
#include "storage/dcsr.hpp"

namespace fg::detail {

/// The undirected simple graph under a store (directions dropped, self-loops and repeats gone) as
/// a DAG by degree order: u -> v for each edge {u, v} with (deg u, u) < (deg v, v); rows sorted.
/// mult[e] = how many directions of the edge the store holds (1 or 2); deg[v] = v's undirected
/// degree. The orientation bounds every row by O(sqrt(m)) (Schank & Wagner; LAGraph's sort).
template <class Space>
struct simple_dag {
  vertex_t n = 0;
  array<offset_t, Space> offsets;  ///< n + 1
  array<vertex_t, Space> row;      ///< source of each entry (the thread-per-edge count needs it)
  array<vertex_t, Space> col;
  array<std::uint8_t, Space> mult;
  array<vertex_t, Space> deg;
  offset_t edges() const noexcept { return offset_t(col.size()); }
};

/// A row-sorted multiset of neighbours in both directions (CDLP's label sources): row v holds u once
/// for each of the edges u -> v and v -> u the store holds (self-loops left out).
template <class Space>
struct both_ways {
  vertex_t n = 0;
  array<offset_t, Space> offsets;  ///< n + 1
  array<vertex_t, Space> row;      ///< the row of each entry
  array<vertex_t, Space> col;
};

struct weight_summary {
  double min = 0;
  vertex_t min_row = -1;  ///< -1: no entries
  double sum = 0;
};

template <class Space>
struct app_kernels;

#define FG_APP_KERNELS(Space)                                                                                       \
  /* level[v] = -1, level[source] = 0 (source -1: none) */                                                                       \
  static void bfs_init(std::int32_t* level, vertex_t n, vertex_t source);                                      \
  /* push: every unvisited out-neighbour of the frontier gets depth + 1 and joins next; returns its size and   \
     adds the out-degrees of next to *next_edges */                                                            \
  static vertex_t bfs_push(const dcsr_view<pattern>& out, const vertex_t* frontier, vertex_t nf,               \
                           std::int32_t* level, std::int32_t depth, vertex_t* next, offset_t* next_edges);     \
  /* pull: every unvisited vertex with an in-neighbour at depth gets depth + 1; returns how many, and adds     \
     their out-degrees (out_sizes) to *next_edges */                                                           \
  static vertex_t bfs_pull(const dcsr_view<pattern>& in, const vertex_t* out_sizes, std::int32_t* level,       \
                           std::int32_t depth, offset_t* next_edges);                                          \
  /* the vertices at level depth, in id order; returns how many */                                            \
  static vertex_t bfs_frontier(const std::int32_t* level, vertex_t n, std::int32_t depth, vertex_t* list);     \
  /* lower level[] along the edges (u, v) of a batch whose level[u] + 1 beats level[v] (incremental);         \
     those v go to list, once each (mark[v] = stamp: a stamp above every mark, so nothing is cleared);        \
     returns how many */                                                                                       \
  static vertex_t bfs_seed(const vertex_t* u, const vertex_t* v, std::size_t m, std::int32_t* level,           \
                           vertex_t* list, std::int32_t* mark, std::int32_t stamp);                            \
  /* push that lowers levels (incremental): out-neighbours w with level[u] + 1 < level[w] (or unvisited),      \
     listed once each as in bfs_seed */                                                                        \
  static vertex_t bfs_lower(const dcsr_view<pattern>& out, const vertex_t* frontier, vertex_t nf,              \
                            std::int32_t* level, vertex_t* next, std::int32_t* mark, std::int32_t stamp);     \
  /* SSSP: relax the out-edges of the frontier (weights: values, 1 for a pattern); a lowered vertex is marked  \
     pending */                                                                                                \
  template <class V>                                                                                           \
  static void sssp_relax(const dcsr_view<V>& out, const vertex_t* frontier, vertex_t nf, double* dist,         \
                         std::uint8_t* pending);                                                               \
  /* the pending vertices with dist < bound, in id order, unmarked; returns how many */                       \
  static vertex_t sssp_take(const double* dist, std::uint8_t* pending, vertex_t n, double bound, vertex_t* list); \
  /* the least dist of a pending vertex (+inf when none) */                                                   \
  static double sssp_min_pending(const double* dist, const std::uint8_t* pending, vertex_t n);                 \
  /* the least stored weight, the least row holding it, and the sum of the weights (pattern: 1 each) */      \
  template <class V>                                                                                           \
  static weight_summary weights(const dcsr_view<V>& g);                                                        \
  /* whether a deleted edge (u, v) may have been on a shortest path: level[v] == level[u] + 1 (BFS), or      \
     dist[u] finite and dist[v] >= dist[u] (SSSP; the deleted weight is gone); ids >= n (absent) never */    \
  static bool any_tight(const vertex_t* u, const vertex_t* v, std::size_t m, const std::int32_t* level, vertex_t n); \
  static bool any_tight(const vertex_t* u, const vertex_t* v, std::size_t m, const double* dist, vertex_t n);  \
  /* relax single edges (u, v, w) of a batch (incremental SSSP); lowered v are marked */                       \
  static void sssp_relax_pairs(const vertex_t* u, const vertex_t* v, const double* w, std::size_t m,           \
                               double* dist, std::uint8_t* pending);                                           \
  /* vertices with level >= 0 (level given) or a finite distance (dist given) */                           \
  static std::int64_t count_reached(const std::int32_t* level, const double* dist, vertex_t n);                \
  /* dist[v] = +inf for v in [0, n), dist[source] = 0 (source -1: none) */                                  \
  static void sssp_init(double* dist, vertex_t n, vertex_t source);                                            \
  /* WCC: parent[v] = v for v in [first, n) */                                                                 \
  static void wcc_init(vertex_t* parent, vertex_t first, vertex_t n);                                          \
  /* union of the endpoints of each pair: the larger root hooks under the smaller, so a tree's root is its    \
     least vertex; returns how many hooks joined two trees (components lost) */                               \
  static std::int64_t wcc_hook(const dcsr_view<pattern>& g, vertex_t* parent);                                 \
  static std::int64_t wcc_hook_pairs(const vertex_t* u, const vertex_t* v, std::size_t m, vertex_t* parent);   \
  /* parent[v] = the root of v's tree */                                                                       \
  static void wcc_flatten(vertex_t* parent, vertex_t n);                                                       \
  /* the degree-ordered DAG of the pairs (row[i], col[i]) */                                                   \
  static simple_dag<Space> dag(const vertex_t* row, const vertex_t* col, std::size_t nnz, vertex_t n);         \
  /* triangles of the DAG; per_vertex (may be null) gets, for each triangle, 1 per corner (weighted: the mult  \
     of the opposite edge, LCC's directed count) */                                                            \
  static std::int64_t triangles(const simple_dag<Space>& g, std::int64_t* per_vertex, bool weighted);          \
  /* incremental triangles: the sorted distinct keys (min << 32 | max) of the pairs, self-loops dropped */    \
  static array<std::uint64_t, Space> canonical_keys(const vertex_t* u, const vertex_t* v, std::size_t m);      \
  /* found[i] = whether the store holds the entry (row, col) of key[i] (keys sorted, distinct) */             \
  static void contains(const dcsr_view<pattern>& g, const std::uint64_t* key, std::size_t k, std::uint8_t* found); \
  /* the keys whose flag equals want, in order */                                                              \
  static array<std::uint64_t, Space> select(const std::uint64_t* key, const std::uint8_t* flag, std::size_t k, bool want); \
  /* each key (a, b) as the two entries (a, b) and (b, a) */                                                  \
  static coo_matrix<pattern, Space> symmetric_pairs(const std::uint64_t* key, std::size_t k);                        \
  /* triangles that edge i = key[i] closes in the symmetric store U when the edges of the list are taken one   \
     at a time: an edge {x, w} of U that is also key[r] counts for i only when r >= i (removal: U still holds  \
     the later ones) or r < i (addition: U holds all, the later ones not yet). Adds 1 per triangle to each    \
     corner in per_vertex (may be null; removal: subtracts 1); returns the number of triangles */              \
  static std::int64_t closing(const dcsr_view<pattern>& U, const std::uint64_t* key, std::size_t k, bool removal, \
                              std::int64_t* per_vertex);                                                       \
  /* CDLP */                                                                                                   \
  static both_ways<Space> neighbours(const vertex_t* row, const vertex_t* col, std::size_t nnz, vertex_t n);   \
  /* next[v] = the most frequent label among v's neighbours (ties: the least); label[v] when none */           \
  static void cdlp_step(const both_ways<Space>& g, const vertex_t* label, vertex_t* next);

template <>
struct app_kernels<host_space> {
  FG_APP_KERNELS(host_space)
};
template <>
struct app_kernels<device_space> {
  FG_APP_KERNELS(device_space)
};
#undef FG_APP_KERNELS

/// Walks row r of a DCSR view: f(position) for each live entry, in segment order; stops early when
/// f returns false. Returns whether it ran to the end.
template <class V, class F>
FG_HD inline bool for_each_entry(const dcsr_view<V>& g, vertex_t r, F&& f) {
  offset_t left = g.sizes[r];
  for (int s = 0; s < g.nseg[r] && left > 0; ++s) {
    const offset_t b = g.seg[s * g.pitch + 2 * offset_t(r)];
    const offset_t e = g.seg[s * g.pitch + 2 * offset_t(r) + 1];
    for (offset_t j = b; j < e && left > 0; ++j, --left)
      if (!f(j)) return false;
  }
  return true;
}

/// The same store read as a pattern (no values): BFS, WCC and triangles ignore weights.
template <class V>
dcsr_view<pattern> pattern_view(const dcsr_view<V>& g) {
  dcsr_view<pattern> p;
  p.rows = g.rows, p.cols = g.cols, p.k = g.k, p.pitch = g.pitch;
  p.sizes = g.sizes, p.nseg = g.nseg, p.seg = g.seg, p.col = g.col;
  p.mean_row = g.mean_row, p.single_segment = g.single_segment;
  return p;
}

}  // namespace fg::detail
