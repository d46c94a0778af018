// The graph applications a stream keeps current (docs/graph-apps.md): BFS levels, SSSP distances
// (hops: a stream's store keeps no weights), WCC labels and the triangle count, each updated from
// the batch by the incremental classes of algorithms/, or checked against a from-scratch run.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "stream/graph.hpp"
#include "fluxgraph/stream.hpp"

namespace fg {

using edge_list = fluxgraph::edge_list;  // a batch's edges in host memory (include/fluxgraph/stream.hpp)

struct stream_app_options {
  std::int64_t bfs_source = -1;   ///< an input id (the stream's ids; dense when it has none); -1: off
  std::int64_t sssp_source = -1;
  bool wcc = false;
  bool triangles = false;
  bool any() const noexcept { return bfs_source >= 0 || sssp_source >= 0 || wcc || triangles; }
};

/// What the applications say after a batch.
struct stream_app_report {
  std::int64_t bfs_reached = 0, sssp_reached = 0;  ///< 0 while the source has not arrived
  std::int64_t components = 0, triangles = 0;
  bool recomputed = false;  ///< some application ran from scratch (a deletion on a path, ...)
  double seconds = 0;
  double scratch_seconds = 0;  ///< with compare: the from-scratch runs they were checked against
};

template <class S>
class stream_apps {
 public:
  explicit stream_apps(const stream_app_options& opt);
  ~stream_apps();
  /// After the store `g` and its twin in the other orientation (`other`, the session's: one copy
  /// for every analysis) took the batch (ins, del in the file's direction; `separate`: the deletes
  /// were a store batch after the inserts, so an edge in both is gone). `ids`: the stream's input
  /// ids. compare: also from scratch, fg::error naming the batch when they differ.
  stream_app_report update(const graph<pattern, S>& g, const graph<pattern, S>& other, const edge_list& ins,
                           const edge_list& del, bool separate, const std::vector<std::int64_t>& ids, std::int64_t batch,
                           bool compare);
  /// The store changed without update() (a batch failed half-way, or update() threw): the next
  /// update starts every application from scratch.
  void invalidate();

 private:
  stream_app_report run(const graph<pattern, S>& g, const graph<pattern, S>& other, const edge_list& ins,
                        const edge_list& del, bool separate, const std::vector<std::int64_t>& ids, std::int64_t batch,
                        bool compare);
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace fg
