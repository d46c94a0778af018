// The graph applications a stream keeps current (docs/graph-apps.md): BFS levels, SSSP distances
// (hops: a stream's store keeps no weights), WCC labels and the triangle count, each updated from
// the batch by the incremental classes of algorithms/, or checked against a from-scratch run.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "stream/graph.hpp"
#include "fluxgraph/options.hpp"
#include "fluxgraph/reports.hpp"
#include "fluxgraph/types.hpp"

namespace fg {

using edge_list = fluxgraph::edge_list;  // a batch's edges in host memory (include/fluxgraph/types.hpp)

using fluxgraph::batch_report;    // include/fluxgraph/reports.hpp
using fluxgraph::stream_options;  // include/fluxgraph/options.hpp: bfs_source, sssp_source, wcc, triangles

/// Whether the stream keeps an application current.
inline bool keeps_apps(const stream_options& o) noexcept {
  return o.bfs_source >= 0 || o.sssp_source >= 0 || o.wcc || o.triangles;
}

template <class S>
class stream_apps {
 public:
  explicit stream_apps(const stream_options& opt);
  ~stream_apps();
  /// After the store `g` and its twin in the other orientation (`other`, the session's: one copy
  /// for every analysis) took the batch (ins, del in the file's direction; `separate`: the deletes
  /// were a store batch after the inserts, so an edge in both is gone). `ids`: the stream's input
  /// ids. Fills the applications' fields of `r`. compare: also from scratch, fg::error naming the
  /// batch when they differ.
  void update(batch_report& r, const graph<pattern, S>& g, const graph<pattern, S>& other, const edge_list& ins,
                           const edge_list& del, bool separate, const std::vector<std::int64_t>& ids, std::int64_t batch,
                           bool compare);
  /// The store changed without update() (a batch failed half-way, or update() threw): the next
  /// update starts every application from scratch.
  void invalidate();

 private:
  void run(batch_report& r, const graph<pattern, S>& g, const graph<pattern, S>& other, const edge_list& ins,
                        const edge_list& del, bool separate, const std::vector<std::int64_t>& ids, std::int64_t batch,
                        bool compare);
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace fg
