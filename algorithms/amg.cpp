// Smoothed-aggregation AMG (algorithms/amg.hpp), once for both twins.
#include "algorithms/amg.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "algorithms/detail/amg_kernels.hpp"
#include "algorithms/detail/amg_setup.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "storage/spmm.hpp"

namespace fg {

namespace {
using clock = std::chrono::steady_clock;
double since(clock::time_point t0) {
  memory::synchronize();
  return std::chrono::duration<double>(clock::now() - t0).count();
}
dcsr_config rect(const csr_matrix<double, host_space>& m) {
  dcsr_config c;
  c.square = m.rows == m.cols;
  return c;
}
}  // namespace

template <class Space>
amg<Space>::amg(const csr_matrix<double, Space>& A0, const amg_options& opt) : opt_(opt) {
  FG_EXPECTS(A0.rows == A0.cols, "amg: A must be square");
  const auto t0 = clock::now();
  csr_matrix<double, host_space> A = clone_csr<host_space>(A0);
  std::vector<double> B(std::size_t(A.rows), 1.0);  // the near-null space: constants
  for (;;) {
    level& L = levels_.emplace_back();
    L.A = clone_csr<Space>(A);
    amg_level_stats& st = stats_.levels.emplace_back();
    st.rows = A.rows, st.nnz = A.nnz();
    std::vector<double> dinv(std::size_t(A.rows), 0.0);
    double rho = 0;  // Gershgorin: max_i sum_j |a_ij| / a_ii
    for (vertex_t i = 0; i < A.rows; ++i) {
      double d = 0, s = 0;
      for (offset_t j = A.row_ptr[std::size_t(i)]; j < A.row_ptr[std::size_t(i) + 1]; ++j) {
        s += std::abs(A.val[std::size_t(j)]);
        if (A.col[std::size_t(j)] == i) d += A.val[std::size_t(j)];
      }
      FG_EXPECTS(d > 0, "amg: a diagonal entry is not positive");
      dinv[std::size_t(i)] = 1 / d, rho = std::max(rho, s / d);
    }
    L.dinv = to_space<Space>(dinv);
    L.w = opt.smoother_omega / rho;
    L.q = array<double, Space>(std::size_t(A.rows)), L.r = array<double, Space>(std::size_t(A.rows));
    if (levels_.size() > 1) L.b = array<double, Space>(std::size_t(A.rows)), L.x = array<double, Space>(std::size_t(A.rows));
    if (A.rows <= opt.coarse_size || int(levels_.size()) >= opt.max_levels) break;
    vertex_t count = 0;
    L.agg = detail::aggregate(detail::strength(A, opt.strength * std::pow(0.5, double(levels_.size() - 1))), count);  // Vaněk: theta / 2^k
    st.aggregates = count;
    if (count >= A.rows) break;  // nothing merged: coarsening has stalled
    std::vector<double> B_next;
    const csr_matrix<double, host_space> T = detail::tentative(L.agg, count, B, B_next);
    const auto Ad = dcsr_matrix<double, Space>::from_csr(L.A, rect(A));
    const auto AT = spmm<plus_times<double>>(Ad, dcsr_matrix<double, Space>::from_csr(clone_csr<Space>(T), rect(T))).to_csr();
    const csr_matrix<double, host_space> P = detail::smoothed(clone_csr<host_space>(AT), T, dinv, opt.prolongator_omega / rho);
    const csr_matrix<double, host_space> R = detail::transposed(P);
    L.P = clone_csr<Space>(P), L.R = clone_csr<Space>(R);
    const auto Pd = dcsr_matrix<double, Space>::from_csr(L.P, rect(P));
    const auto Rd = dcsr_matrix<double, Space>::from_csr(L.R, rect(R));
    memory::synchronize();
    auto t = clock::now();  // the Galerkin product: A P, then R (A P)
    const auto AP = spmm<plus_times<double>>(Ad, Pd);
    st.ap_seconds = since(t);
    t = clock::now();
    const auto RAP = spmm<plus_times<double>>(Rd, AP);
    st.rap_seconds = since(t);
    stats_.galerkin_seconds += st.ap_seconds + st.rap_seconds;
    A = clone_csr<host_space>(RAP.to_csr());
    B = std::move(B_next);
  }
  if (A.rows <= opt.dense_limit) coarse_L_ = detail::cholesky(A);
  double nnz = 0;
  for (const amg_level_stats& s : stats_.levels) nnz += double(s.nnz);
  stats_.operator_complexity = nnz / double(std::max<offset_t>(1, stats_.levels[0].nnz));
  stats_.setup_seconds = since(t0);
}

template <class Space>
void amg<Space>::cycle(std::size_t k, const array<double, Space>& b, array<double, Space>& x) {
  using K = detail::amg_kernels<Space>;
  level& L = levels_[k];
  const auto n = std::int64_t(L.A.rows);
  auto smooth = [&](int times) {
    for (int s = 0; s < times; ++s) {
      spmv<plus_times<double>>(L.A, x, L.q);
      K::smooth(x.data(), b.data(), L.q.data(), L.dinv.data(), L.w, n);
    }
  };
  if (k + 1 == levels_.size() && !coarse_L_.empty()) {  // coarsest: dense solve on the host
    std::vector<double> v = to_vector(b);
    detail::cholesky_solve(coarse_L_, v);
    copy(x, to_space<host_space>(v));
    return;
  }
  zero(x);
  if (k + 1 == levels_.size()) return smooth(opt_.coarse_sweeps);
  smooth(opt_.pre_smooth);
  spmv<plus_times<double>>(L.A, x, L.q);
  K::residual(b.data(), L.q.data(), L.r.data(), n);
  level& C = levels_[k + 1];
  spmv<plus_times<double>>(L.R, L.r, C.b);
  cycle(k + 1, C.b, C.x);
  spmv<plus_times<double>>(L.P, C.x, L.q);
  K::add(x.data(), L.q.data(), n);
  smooth(opt_.post_smooth);
}

template <class Space>
void amg<Space>::vcycle(const array<double, Space>& b, array<double, Space>& x) {
  FG_EXPECTS(b.size() == std::size_t(levels_[0].A.rows) && x.size() == b.size(), "amg: b and x must have A's rows");
  cycle(0, b, x);
}

template <class Space>
linear_operator<double, Space> amg<Space>::preconditioner() {
  return [this](const array<double, Space>& r, array<double, Space>& z) { vcycle(r, z); };
}

template class amg<host_space>;
template class amg<device_space>;

}  // namespace fg
