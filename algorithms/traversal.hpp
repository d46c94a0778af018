// BFS and single-source shortest paths over an out-edge store, from scratch and kept current under
// a stream of batches (the LDBC Graphalytics BFS and SSSP; docs/graph-apps.md).
#pragma once
#include <cstdint>
#include <vector>

#include "core/array.hpp"
#include "core/types.hpp"
#include "storage/dcsr.hpp"

namespace fg {

/// @brief Direction-optimizing BFS (Beamer, Asanović & Patterson, SC'12): push from a sparse
///        frontier (each frontier vertex claims its unvisited out-neighbours), pull when the
///        frontier's out-edges outnumber the unvisited vertices' edges / alpha (each unvisited vertex
///        looks for an in-neighbour in the frontier: the or-and SpMV masked by the unvisited set,
///        stopping at the first hit), back to push when the frontier falls below n / beta.
struct bfs_options {
  bool direction_optimizing = true;  ///< false: push only
  double alpha = 15, beta = 18;      ///< Beamer's switch points
};

struct bfs_result {
  std::vector<std::int32_t> level;  ///< per dense vertex; -1 unreached
  std::int32_t depth = 0;           ///< the largest level
  std::int64_t reached = 0;         ///< vertices with a level
  std::int64_t edges = 0;           ///< out-edges of the reached vertices (what TEPS counts)
  int push_steps = 0, pull_steps = 0;
  double seconds = 0;               ///< the traversal (store already built)
};

/// @brief Levels from `source` following out-edges. `in` is the in-edge store's view (row v lists
///        v's predecessors) for the pull steps; null: the graph is symmetric when `symmetric` (pull
///        reads `out`), else push only.
/// @throws fg::invalid_argument when source is not a vertex
template <class V, class S>
bfs_result bfs(const dcsr_matrix<V, S>& out, const dcsr_view<pattern>* in, bool symmetric, vertex_t source,
               const bfs_options& opt = {});

/// @brief Delta-stepping in the near/far form (Davidson et al., IPDPS'14): the vertices lowered
///        below the current bound are relaxed in rounds (a thread per frontier vertex), the rest wait
///        in a far pile until the bound moves up by delta. Weights must be >= 0 (pattern: 1).
struct sssp_options {
  double delta = 0;  ///< bucket width; 0: 32 x the mean weight / the mean out-degree, at least the mean weight
};

struct sssp_result {
  std::vector<double> dist;  ///< per dense vertex; +inf unreached
  std::int64_t reached = 0;
  std::int64_t edges = 0;    ///< out-edges of the reached vertices
  int rounds = 0;            ///< relaxation rounds
  double delta = 0;
  double seconds = 0;
};

/// @throws fg::invalid_argument naming a vertex with a negative out-edge weight, or a bad source
template <class V, class S>
sssp_result sssp(const dcsr_matrix<V, S>& out, vertex_t source, const sssp_options& opt = {});

/// @brief The edges of one batch in the store's orientation (u -> v, weight w or none), in the
///        store's memory: what the incremental analyses read after the store took the batch.
template <class S>
struct edge_batch {
  array<vertex_t, S> u, v;
  array<double, S> w;  ///< empty: unweighted
  std::size_t size() const noexcept { return u.size(); }
};

/// @brief BFS levels kept current: an insert batch can only lower levels, so the batch's edges
///        (u, v) with level[u] + 1 < level[v] seed a push that lowers what they reach; a deletion
///        that removed an edge on a shortest path (level[v] = level[u] + 1) recomputes from scratch
///        (stated in `recomputed`), any other deletion changes nothing.
template <class S>
class incremental_bfs {
 public:
  /// @throws fg::invalid_argument for a negative source
  explicit incremental_bfs(vertex_t source, bfs_options opt = {});
  /// The store after a batch of `inserted` and `deleted` edges (either may be empty). The first
  /// call runs from scratch.
  template <class V>
  void update(const dcsr_matrix<V, S>& out, const dcsr_view<pattern>* in, bool symmetric,
              const edge_batch<S>& inserted, const edge_batch<S>& deleted);
  /// The next update runs from scratch (a batch whose parts the rules do not cover).
  void reset() noexcept { started_ = false; }
  std::vector<std::int32_t> levels() const;
  std::int64_t reached() const;  ///< vertices with a level (counted where they are)
  bool recomputed() const noexcept { return recomputed_; }  ///< the last update ran from scratch

 private:
  vertex_t source_;
  bfs_options opt_;
  array<std::int32_t, S> level_;
  array<std::int32_t, S> mark_;  ///< the lowering's dedup marks: stamps below stamp_
  std::int32_t stamp_ = 0;       ///< the last stamp a seed or lowering round used
  bool started_ = false;         ///< a from-scratch run happened (the source had arrived)
  bool recomputed_ = false;
};

/// @brief SSSP distances kept current the same way: inserted edges relax their targets and the
///        near/far loop runs from what they lowered; a deletion of an edge (u, v) with dist[u] finite
///        and dist[v] >= dist[u] (it may have been on a shortest path) recomputes from scratch.
template <class S>
class incremental_sssp {
 public:
  /// @throws fg::invalid_argument for a negative source
  explicit incremental_sssp(vertex_t source, sssp_options opt = {});
  template <class V>
  void update(const dcsr_matrix<V, S>& out, const edge_batch<S>& inserted, const edge_batch<S>& deleted);
  /// The next update runs from scratch (a batch whose parts the rules do not cover).
  void reset() noexcept { started_ = false; }
  std::vector<double> distances() const;
  std::int64_t reached() const;
  bool recomputed() const noexcept { return recomputed_; }

 private:
  vertex_t source_;
  sssp_options opt_;
  array<double, S> dist_;
  array<std::uint8_t, S> pending_;  ///< the near/far flags, all 0 between calls
  double delta_ = 0;
  bool started_ = false;
  bool recomputed_ = false;
};

}  // namespace fg
