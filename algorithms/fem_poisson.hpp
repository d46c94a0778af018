// A 3D finite-element test problem with a known solution, for conjugate gradient and multigrid
// (issue 21; the SELL-C-sigma project's problem): -Δu = f on the unit cube, u = 0 on its boundary,
// trilinear (Q1) elements on a grid of N^3 cubes (h = 1/N). The unknowns are the (N - 1)^3
// interior nodes, numbered x fastest. A row holds the node's 3x3x3 neighbourhood: 27 entries
// inside, 18, 12 or 8 next to the boundary (the face neighbours' entries are stored as an FE
// assembly stores them, although Q1 makes them 0 for this operator). The load vector is the
// consistent mass matrix times f at the nodes (the boundary's included); u = g(x) p(y) p(z) with
// p(t) = t - t^2, g(x) = p(x) e^x, f = -Δu, and the nodal L2 error falls as h^2 (a SciPy solve of
// the same system: 2.790e-5, 6.966e-6, 1.741e-6 at N = 8, 16, 32, orders 2.002 and 2.001).
#pragma once
#include <vector>

#include "storage/csr.hpp"

namespace fg {

template <class T>
struct fem_poisson {
  vertex_t intervals = 0;           ///< N
  double h = 0;                     ///< 1 / N
  csr_matrix<T, host_space> A;      ///< stiffness, SPD
  std::vector<T> b;                 ///< load vector
  std::vector<double> exact;        ///< u at the unknowns' nodes
  static constexpr int order = 2;   ///< the nodal L2 error's theoretical order in h
};

/// @brief The problem on N^3 cubes (N >= 2: (N - 1)^3 unknowns).
/// @throws fg::invalid_argument for N < 2 or (N - 1)^3 past the vertex_t range.
template <class T>
fem_poisson<T> fem_poisson_3d(vertex_t intervals);

/// @brief sqrt(h^3 Σ (x_i - u_i)^2): the discrete L2 error of a solution against the exact one.
template <class T>
double fem_l2_error(const fem_poisson<T>& p, const std::vector<T>& x);

}  // namespace fg
