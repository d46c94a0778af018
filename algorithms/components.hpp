// Weakly connected components (the LDBC Graphalytics WCC), from scratch and kept current under a
// stream of batches (docs/graph-apps.md).
#pragma once
#include <cstdint>
#include <vector>

#include "algorithms/traversal.hpp"
#include "core/array.hpp"
#include "storage/dcsr.hpp"

namespace fg {

struct wcc_result {
  std::vector<vertex_t> label;  ///< per dense vertex: the least dense id of its component
  std::int64_t components = 0;
  double seconds = 0;
};

/// @brief Union-find over every stored entry, directions ignored (ECL-CC's hooking: a root joins
///        only a smaller root), then one pass points every vertex at its root. Dense ids keep the
///        file's id order, so the least dense id is the component's least file id (Graphalytics).
template <class V, class S>
wcc_result wcc(const dcsr_matrix<V, S>& g);

/// @brief Components kept current: an insert batch only joins components, so its edges are hooked
///        into the kept forest (work: the batch, not the graph); labels() flattens on demand. A batch
///        that deleted an edge joining two vertices of one component recomputes from scratch
///        (`recomputed`): splitting a component needs the graph, not the forest.
template <class S>
class incremental_wcc {
 public:
  template <class V>
  void update(const dcsr_matrix<V, S>& g, const edge_batch<S>& inserted, const edge_batch<S>& deleted);
  /// The next update runs from scratch (a batch whose parts the rules do not cover).
  void reset() noexcept { started_ = false; }
  std::vector<vertex_t> labels();
  std::int64_t components() const noexcept { return components_; }
  bool recomputed() const noexcept { return recomputed_; }

 private:
  array<vertex_t, S> parent_;
  std::int64_t components_ = 0;
  bool started_ = false;
  bool recomputed_ = false;
};

}  // namespace fg
