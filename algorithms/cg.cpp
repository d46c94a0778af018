// Conjugate gradient (algorithms/cg.hpp), once for both twins: Hestenes & Stiefel's recurrence with
// one SpMV and three fused vector passes an iteration.
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

template <class Matrix, class T, class Space>
cg_result cg(const Matrix& A, const array<T, Space>& b, array<T, Space>& x, const cg_options& opt) {
  using K = detail::cg_kernels<Space>;
  using clock = std::chrono::steady_clock;
  const auto n = std::int64_t(A.rows);
  FG_EXPECTS(A.rows == A.cols && b.size() == std::size_t(n) && x.size() == std::size_t(n), "cg: A must be square and b, x of its size");
  const auto t0 = clock::now();
  cg_result res;
  array<T, Space> r(b.size()), p(b.size()), q(b.size());
  double spmv_s = 0;
  auto apply = [&](const array<T, Space>& v, array<T, Space>& out) {
    memory::synchronize();
    const auto s = clock::now();
    spmv<plus_times<T>>(A, v, out);
    memory::synchronize();
    spmv_s += std::chrono::duration<double>(clock::now() - s).count();
  };
  const double bb = K::dot(b.data(), b.data(), n);
  apply(x, q);
  double rr = K::residual(b.data(), q.data(), r.data(), p.data(), n);
  const double stop = opt.tolerance * opt.tolerance * bb;
  while (rr > stop && res.iterations < opt.max_iterations) {
    apply(p, q);
    const double pq = K::dot(p.data(), q.data(), n);
    if (!(pq > 0)) break;  // A not positive definite along p (or p = 0): no progress possible
    const double rr_next = K::update_xr(x.data(), r.data(), p.data(), q.data(), rr / pq, n);
    K::update_p(p.data(), r.data(), rr_next / rr, n);
    rr = rr_next;
    ++res.iterations;
  }
  memory::synchronize();
  res.converged = rr <= stop;
  res.relative_residual = bb > 0 ? std::sqrt(rr / bb) : 0;
  res.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  res.spmv_seconds = spmv_s;
  return res;
}

#define FG_CG_OF(M, T, S) template cg_result cg<M<T, S>, T, S>(const M<T, S>&, const array<T, S>&, array<T, S>&, const cg_options&);
#define FG_CG_OF_SPACE(T, S) FG_CG_OF(csr_matrix, T, S) FG_CG_OF(sell_matrix, T, S)
FG_CG_OF_SPACE(float, host_space)
FG_CG_OF_SPACE(double, host_space)
FG_CG_OF_SPACE(float, device_space)
FG_CG_OF_SPACE(double, device_space)
#undef FG_CG_OF_SPACE
#undef FG_CG_OF

}  // namespace fg
