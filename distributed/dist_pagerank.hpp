// PageRank over a distributed in-edge store (distributed/dist_graph.hpp; issue 24): the same power
// iteration as algorithms/pagerank.hpp, each rank updating the scores of its own vertices. Per
// iteration: one all-gather of the scaled scores (n values), the local rows' SpMV, one all-reduce
// of the L1 change and the dangling mass. Equal to one rank's result within the stopping tolerance
// (the sums are added in another order).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/pagerank.hpp"
#include "distributed/dist_graph.hpp"

namespace fg {

struct dist_pagerank_result {
  std::vector<double> score;  ///< this rank's vertices, in local order (dist_graph::partition().global)
  int iterations = 0;
  bool converged = false;
  double last_change = 0;
  double seconds = 0;            ///< the whole run, set-up included
  double setup_seconds = 0;      ///< of which before the first iteration (out-weights, their all-reduce, the view)
  double iterate_seconds = 0;    ///< of which the iterations (the scores' copy to the host after them excluded)
  std::string kernel;            ///< the view this rank read its rows with (read/views.hpp)
  std::string kernel_reason;     ///< the selector's reason, or the forced kernel's estimate
  double view_seconds = 0;       ///< profiling, selecting and building it (in setup_seconds)
  std::uint64_t bytes_sent = 0;  ///< by this rank over the run (all-gathers and all-reduces)
  std::uint64_t setup_bytes = 0; ///< of which before the first iteration (the out-weights' all-reduce)
};

/// @brief Collective: PageRank of the graph whose in-edge store is `in_edges`. from.initial, when
///        given, is this rank's previous scores in local order (a warm start: vertices past it
///        start at 1/n, then the whole vector is scaled to sum 1). opt.kernel: each rank reads its
///        rows through the view the engine's selector picks for the expected iterations ("auto")
///        or the one named; ranks may pick differently (their rows differ). opt.progress is called on
///        every rank after each iteration with the global L1 change.
/// @throws fg::invalid_argument for bad options or an out-edge store.
template <class V, class Space>
dist_pagerank_result pagerank(const dist_graph<V, Space>& in_edges, const pagerank_options& opt,
                              const pagerank_start& from = {});

}  // namespace fg
