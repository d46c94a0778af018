// Community detection by label propagation (the LDBC Graphalytics CDLP): docs/graph-apps.md.
#pragma once
#include <vector>

#include "storage/dcsr.hpp"

namespace fg {

struct cdlp_result {
  std::vector<vertex_t> label;  ///< per dense vertex: a dense id (the community's label)
  int iterations = 0;
  double seconds = 0;
};

/// @brief Graphalytics' deterministic rules: every vertex starts with its own id; each iteration,
///        synchronously, takes the label most frequent among its neighbours, counting an in- and an
///        out-edge to the same neighbour twice; ties go to the least label; a vertex with no
///        neighbours keeps its label. Dense ids keep the file's id order, so "least" agrees.
/// @throws fg::invalid_argument for iterations < 0
template <class V, class S>
cdlp_result cdlp(const dcsr_matrix<V, S>& g, int iterations);

}  // namespace fg
