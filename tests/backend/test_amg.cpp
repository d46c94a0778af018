// Smoothed-aggregation AMG (algorithms/amg.hpp), both twins, on the Q1 finite-element problem:
//  - P_0 equals (I - w/rho D^-1 A) T built here densely from the aggregates, and A_1 equals the
//    dense triple product R A P of the hierarchy's own A_0 and P_0 (R = P^T);
//  - the aggregation is deterministic, covers every node, and the host and device twins build the
//    same hierarchy;
//  - AMG-preconditioned CG gives plain CG's solution, in iterations that stay nearly flat as the
//    grid is refined (and far fewer than plain CG's).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/amg.hpp"
#include "algorithms/fem_poisson.hpp"
#include "core/semiring.hpp"
#include "storage/dcsr.hpp"

namespace {
using namespace fg;
using dense = std::vector<double>;  // row-major

dense to_dense(const csr_matrix<double, host_space>& A) {
  dense d(std::size_t(A.rows) * std::size_t(A.cols), 0.0);
  for (vertex_t i = 0; i < A.rows; ++i)
    for (offset_t j = A.row_ptr[std::size_t(i)]; j < A.row_ptr[std::size_t(i) + 1]; ++j)
      d[std::size_t(i) * std::size_t(A.cols) + std::size_t(A.col[std::size_t(j)])] += A.val[std::size_t(j)];
  return d;
}
dense multiply(const dense& a, const dense& b, std::size_t n, std::size_t m, std::size_t k) {  // (n x m)(m x k)
  dense c(n * k, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j)
      if (a[i * m + j] != 0)
        for (std::size_t l = 0; l < k; ++l) c[i * k + l] += a[i * m + j] * b[j * k + l];
  return c;
}

template <class Space>
void check_against_dense() {
  const fem_poisson<double> p = fem_poisson_3d<double>(7);  // 216 rows: two levels with coarse_size 8
  amg_options opt;
  opt.coarse_size = 8;
  amg<Space> m(clone_csr<Space>(p.A), opt);
  REQUIRE(m.levels() >= 2);
  const auto A0 = clone_csr<host_space>(m.A(0)), P0 = clone_csr<host_space>(m.P(0)), A1 = clone_csr<host_space>(m.A(1));
  const std::size_t n = std::size_t(A0.rows), c = std::size_t(P0.cols);
  const std::vector<vertex_t>& agg = m.aggregates(0);
  std::vector<double> size(c, 0.0), diag(n, 0.0), rowsum(n, 0.0);
  for (vertex_t a : agg) size[std::size_t(a)] += 1;
  const dense A = to_dense(A0);
  for (std::size_t i = 0; i < n; ++i) {
    diag[i] = A[i * n + i];
    for (std::size_t j = 0; j < n; ++j) rowsum[i] += std::abs(A[i * n + j]);
  }
  double rho = 0;
  for (std::size_t i = 0; i < n; ++i) rho = std::max(rho, rowsum[i] / diag[i]);
  dense T(n * c, 0.0);
  for (std::size_t i = 0; i < n; ++i) T[i * c + std::size_t(agg[i])] = 1 / std::sqrt(size[std::size_t(agg[i])]);
  const dense AT = multiply(A, T, n, n, c);
  dense P(n * c);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < c; ++j) P[i * c + j] = T[i * c + j] - opt.prolongator_omega / rho / diag[i] * AT[i * c + j];
  const dense got_P = to_dense(P0);
  for (std::size_t k = 0; k < P.size(); ++k) REQUIRE(got_P[k] == doctest::Approx(P[k]).scale(1e-3));
  dense R(c * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < c; ++j) R[j * n + i] = P[i * c + j];
  const dense RAP = multiply(R, multiply(A, P, n, n, c), c, n, c);
  const dense got = to_dense(A1);
  REQUIRE(got.size() == RAP.size());
  for (std::size_t k = 0; k < RAP.size(); ++k) REQUIRE(got[k] == doctest::Approx(RAP[k]).scale(1e-3));
}

template <class Space>
std::vector<int> pcg_iterations(double& worst_error_gap) {
  std::vector<int> its;
  worst_error_gap = 0;
  for (vertex_t n : {8, 16, 32}) {
    const fem_poisson<double> p = fem_poisson_3d<double>(n);
    const csr_matrix<double, Space> A = clone_csr<Space>(p.A);
    amg<Space> m(A);
    const linear_operator<double, Space> op = [&A](const array<double, Space>& v, array<double, Space>& y) {
      spmv<plus_times<double>>(A, v, y);
    };
    const array<double, Space> b = to_space<Space>(p.b);
    array<double, Space> x(p.b.size()), y(p.b.size());
    zero(x), zero(y);
    cg_options opt;
    opt.tolerance = 1e-10;
    const cg_result pre = cg(op, b, x, opt, m.preconditioner());
    const cg_result plain = cg(op, b, y, opt);
    CAPTURE(n);
    CHECK(pre.converged);
    CHECK(pre.iterations * 3 < plain.iterations + (n < 32 ? 100 : 0));  // at 32^3: 3x fewer at least
    worst_error_gap = std::max(worst_error_gap, std::abs(fem_l2_error(p, to_vector(x)) - fem_l2_error(p, to_vector(y))));
    its.push_back(pre.iterations);
  }
  return its;
}
}  // namespace

TEST_CASE("amg: P and the Galerkin product R A P equal dense products (host twin)") { check_against_dense<host_space>(); }
TEST_CASE("amg: P and the Galerkin product R A P equal dense products (device twin)") { check_against_dense<device_space>(); }

TEST_CASE("amg: the aggregation is deterministic, covers every node, and both twins build one hierarchy") {
  const fem_poisson<double> p = fem_poisson_3d<double>(16);
  amg<host_space> h(clone_csr<host_space>(p.A)), h2(clone_csr<host_space>(p.A));
  amg<device_space> d(clone_csr<device_space>(p.A));
  REQUIRE(h.levels() == d.levels());
  REQUIRE(h.levels() >= 2);
  for (std::size_t k = 0; k + 1 < h.levels(); ++k) {
    CHECK(h.aggregates(k) == h2.aggregates(k));
    CHECK(h.aggregates(k) == d.aggregates(k));
    const auto& agg = h.aggregates(k);
    const vertex_t count = h.P(k).cols;
    std::vector<int> members(std::size_t(count), 0);
    for (vertex_t a : agg) {
      REQUIRE(a >= 0);
      REQUIRE(a < count);
      ++members[std::size_t(a)];
    }
    CHECK(std::count(members.begin(), members.end(), 0) == 0);
    const auto ha = clone_csr<host_space>(h.A(k + 1)), da = clone_csr<host_space>(d.A(k + 1));
    REQUIRE(ha.nnz() == da.nnz());
    for (std::size_t j = 0; j < ha.col.size(); ++j) {
      REQUIRE(ha.col[j] == da.col[j]);
      REQUIRE(ha.val[j] == doctest::Approx(da.val[j]).scale(1e-3));
    }
  }
}

TEST_CASE("amg: preconditioned CG keeps plain CG's solution in nearly flat iterations") {
  double gap_h = 0, gap_d = 0;
  const std::vector<int> h = pcg_iterations<host_space>(gap_h), d = pcg_iterations<device_space>(gap_d);
  MESSAGE("AMG-PCG iterations at 8^3, 16^3, 32^3: " << h[0] << ", " << h[1] << ", " << h[2]);
  for (std::size_t i = 0; i < h.size(); ++i) CHECK(std::abs(h[i] - d[i]) <= 1);  // the twins' sums differ in order
  CHECK(gap_h < 1e-9);
  CHECK(gap_d < 1e-9);
  CHECK(*std::max_element(h.begin(), h.end()) <= 20);
  CHECK(h.back() - h.front() <= 6);
}
