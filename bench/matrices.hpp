// The SpMV benchmark's matrix set: real graphs (any file the loaders read) and generated ones
// (R-MAT, uniform random, 2D/3D Poisson stencils), as host edge lists.
#pragma once
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fg::bench {

struct edge_list {
  std::string name, kind;  ///< kind: "real", "rmat", "uniform", "poisson"
  vertex_t n = 0;
  std::vector<vertex_t> src, dst;
};

/// spec: a file path, "rmat:SCALE", "uniform:SCALE:MU", "poisson2d:SIDE" or "poisson3d:SIDE".
edge_list make_matrix(const std::string& spec);

}  // namespace fg::bench
