// Conjugate gradient for a symmetric positive definite A, in float or double, in either space:
// on CSR or SELL-C-sigma (their plus_times SpMVs), or on any operator y = A x (an engine view, a
// multigrid cycle), optionally preconditioned by an SPD operator z = M r. The vector steps are
// fused kernels with host and device twins (algorithms/detail/cg_kernels.hpp), their sums
// accumulated in double.
#pragma once
#include <cstdint>
#include <functional>

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
  double seconds = 0;            ///< wall time of the solve, the device synchronised at the end
};

/// y = A x (or z = M r); y has x's size and may hold anything before.
template <class T, class Space>
using linear_operator = std::function<void(const array<T, Space>&, array<T, Space>&)>;

/// @brief Solves A x = b from the given x (zero it for the usual start); `precondition`, when set,
///        applies M^-1 (SPD) to a residual.
/// @throws fg::invalid_argument when b and x differ in size.
template <class T, class Space>
cg_result cg(const linear_operator<T, Space>& A, const array<T, Space>& b, array<T, Space>& x, const cg_options& opt = {},
             const linear_operator<T, Space>& precondition = {});

/// @brief The same with A a csr_matrix or sell_matrix of T in Space (its plus_times SpMV).
/// @throws fg::invalid_argument when A is not square or b, x are not of its size.
template <class Matrix, class T, class Space>
cg_result cg(const Matrix& A, const array<T, Space>& b, array<T, Space>& x, const cg_options& opt = {});

}  // namespace fg
