// Analyses of a whole graph file, load to result: the store built from the file's edges on the
// chosen twin, then the algorithm. The CLI's `pagerank`, `closure` and `reach` and the tests use
// them; they live above algorithms/ so that the algorithms never depend on a file format.
#pragma once
#include <vector>

#include "algorithms/closure.hpp"
#include "algorithms/pagerank.hpp"
#include "core/types.hpp"

namespace fluxgraph {
struct edge_file;
}  // namespace fluxgraph

namespace fg {

using edge_file = fluxgraph::edge_file;  // loaders/graph_file.hpp

/// @brief Load-to-result convenience used by the CLI and tests: builds the in-edge store from the
///        file's edges on the given twin, defragments it and runs PageRank.
/// @throws fg::invalid_argument for damping outside [0, 1), tol <= 0, max_iter < 1, or negative
///         weights when weighted.
pagerank_result pagerank(const edge_file& file, const pagerank_options& opt, exec where = exec::device);

/// Result of a run from a file: statistics and, when asked for, the pairs as a host CSR in dense ids
/// (row i: the closure's row of vertex i, or of sources[i]; columns sorted).
struct closure_run {
  closure_stats stats;
  std::vector<offset_t> row_ptr;
  std::vector<vertex_t> col;
};

/// @brief R from the file's edges as directed pairs (src, dst), duplicates collapsed, on the given
///        twin; then transitive_closure, or reachable when `sources` (dense ids) is not null.
closure_run closure_of_file(const edge_file& f, const std::vector<vertex_t>* sources, const closure_options& opt,
                            exec where, bool want_pairs);

}  // namespace fg
