// Conjugate gradient (algorithms/cg.hpp), once for both twins: Hestenes & Stiefel's recurrence,
// preconditioned or not, with one application of A and three fused vector passes an iteration
// (two more, M and r.z, with a preconditioner).
#include "algorithms/cg.hpp"

#include <chrono>
#include <cmath>

#include "algorithms/detail/cg_kernels.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "storage/dcsr.hpp"  // spmv on csr_matrix
#include "storage/sell.hpp"

namespace fg {

template <class T, class Space>
cg_result cg(const linear_operator<T, Space>& A, const array<T, Space>& b, array<T, Space>& x, const cg_options& opt,
             const linear_operator<T, Space>& precondition) {
  using K = detail::cg_kernels<Space>;
  using clock = std::chrono::steady_clock;
  FG_EXPECTS(b.size() == x.size(), "cg: b and x of one size");
  const auto n = std::int64_t(b.size());
  const auto t0 = clock::now();
  cg_result res;
  array<T, Space> r(b.size()), p(b.size()), q(b.size()), z(precondition ? b.size() : 0);
  // rz = r.z with z = M r (p = z), or r.r (p = r) without M
  auto precondition_r = [&](double rr) {
    if (!precondition) return rr;
    precondition(r, z);
    return K::dot(r.data(), z.data(), n);
  };
  const double bb = K::dot(b.data(), b.data(), n);
  A(x, q);
  double rr = K::residual(b.data(), q.data(), r.data(), p.data(), n);
  double rz = precondition_r(rr);
  if (precondition) K::update_p(p.data(), z.data(), 0.0, n);
  const double stop = opt.tolerance * opt.tolerance * bb;
  while (rr > stop && res.iterations < opt.max_iterations) {
    A(p, q);
    const double pq = K::dot(p.data(), q.data(), n);
    if (!(pq > 0)) break;  // A not positive definite along p (or p = 0): no progress possible
    rr = K::update_xr(x.data(), r.data(), p.data(), q.data(), rz / pq, n);
    const double rz_next = precondition_r(rr);
    K::update_p(p.data(), precondition ? z.data() : r.data(), rz_next / rz, n);
    rz = rz_next;
    ++res.iterations;
  }
  memory::synchronize();
  res.converged = rr <= stop;
  res.relative_residual = bb > 0 ? std::sqrt(rr / bb) : 0;
  res.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  return res;
}

template <class Matrix, class T, class Space>
cg_result cg(const Matrix& A, const array<T, Space>& b, array<T, Space>& x, const cg_options& opt) {
  FG_EXPECTS(A.rows == A.cols && b.size() == std::size_t(A.rows) && x.size() == std::size_t(A.rows),
             "cg: A must be square and b, x of its size");
  const linear_operator<T, Space> op = [&A](const array<T, Space>& v, array<T, Space>& y) { spmv<plus_times<T>>(A, v, y); };
  return cg(op, b, x, opt);
}

#define FG_CG_OF(M, T, S) template cg_result cg<M<T, S>, T, S>(const M<T, S>&, const array<T, S>&, array<T, S>&, const cg_options&);
#define FG_CG_OF_SPACE(T, S)                                                                                               \
  template cg_result cg<T, S>(const linear_operator<T, S>&, const array<T, S>&, array<T, S>&, const cg_options&,           \
                              const linear_operator<T, S>&);                                                               \
  FG_CG_OF(csr_matrix, T, S) FG_CG_OF(sell_matrix, T, S)
FG_CG_OF_SPACE(float, host_space)
FG_CG_OF_SPACE(double, host_space)
FG_CG_OF_SPACE(float, device_space)
FG_CG_OF_SPACE(double, device_space)
#undef FG_CG_OF_SPACE
#undef FG_CG_OF

}  // namespace fg
