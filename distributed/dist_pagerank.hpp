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
#include "fluxgraph/reports.hpp"

namespace fg {

/// A rank's result (the public type, include/fluxgraph/reports.hpp): score in local order
/// (dist_graph::partition().global); seconds is the whole run, set-up included.
using dist_pagerank_result = fluxgraph::distributed_pagerank;

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
