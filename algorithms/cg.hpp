// Conjugate gradient for a symmetric positive definite A, on CSR or SELL-C-sigma (their plus_times
// SpMVs), in float or double, in either space. The
// SpMV is the format's own; the vector steps are fused kernels with host and device twins
// (algorithms/detail/cg_kernels.hpp), their sums accumulated in double. Unpreconditioned (a
// multigrid preconditioner is issue 21's amg_setup).
#pragma once
#include <cstdint>

#include "core/array.hpp"

namespace fg {

struct cg_options {
  double tolerance = 1e-8;      ///< stop when ||r|| <= tolerance * ||b||
  int max_iterations = 10000;
};

struct cg_result {
  int iterations = 0;
  double relative_residual = 0;  ///< ||r|| / ||b|| of the recurrence at the end (||b|| = 0: 0)
  bool converged = false;
  double seconds = 0;            ///< wall time of the solve, the device synchronised
  double spmv_seconds = 0;       ///< of which in the SpMV (synchronised around each)
};

/// @brief Solves A x = b from the given x (zero it for the usual start). Matrix: csr_matrix or
///        sell_matrix of T in Space.
/// @throws fg::invalid_argument when the sizes do not match A.
template <class Matrix, class T, class Space>
cg_result cg(const Matrix& A, const array<T, Space>& b, array<T, Space>& x, const cg_options& opt = {});

}  // namespace fg
