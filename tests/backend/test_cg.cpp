// Conjugate gradient (algorithms/cg.hpp) on the Q1 finite-element Poisson problem
// (algorithms/fem_poisson.hpp), both twins, CSR and SELL-C-sigma, float and double:
//  - the generator's matrix equals the Kronecker-product form of the assembled 1D Q1 matrices
//    (built here independently, densely) and has rows of 8, 12, 18 and 27 entries;
//  - a hand-checked 2x2 system;
//  - on N = 8, 16, 32 the nodal L2 error falls with the order Q1 promises (2), each format and
//    precision, and the SELL and CSR solutions agree; the device twin matches the host twin. (The
//    double errors also equal a SciPy solve of the same system: fem_poisson.hpp.)
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <vector>

#include "algorithms/cg.hpp"
#include "algorithms/fem_poisson.hpp"
#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/dcsr.hpp"
#include "storage/sell.hpp"

namespace {
using namespace fg;

// Dense (N-1)^3 matrix k⊗m⊗m + m⊗k⊗m + m⊗m⊗k from the assembled 1D Q1 stiffness k and mass m.
std::vector<double> kron_stiffness(int intervals) {
  const int m = intervals - 1, n = m * m * m;
  const double h = 1.0 / intervals;
  auto k1 = [&](int a, int b) { return a == b ? 2 / h : std::abs(a - b) == 1 ? -1 / h : 0.0; };
  auto m1 = [&](int a, int b) { return a == b ? 4 * h / 6 : std::abs(a - b) == 1 ? h / 6 : 0.0; };
  std::vector<double> A(std::size_t(n) * std::size_t(n));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const int ri = r % m, rj = r / m % m, rk = r / (m * m), ci = c % m, cj = c / m % m, ck = c / (m * m);
      A[std::size_t(r) * std::size_t(n) + std::size_t(c)] = k1(ri, ci) * m1(rj, cj) * m1(rk, ck) + m1(ri, ci) * k1(rj, cj) * m1(rk, ck) +
                                                         m1(ri, ci) * m1(rj, cj) * k1(rk, ck);
    }
  return A;
}

template <class T, class Space, class Matrix>
std::vector<T> solve(const Matrix& A, const std::vector<T>& b, const cg_options& opt, cg_result& res) {
  const array<T, Space> bd = to_space<Space>(b);
  array<T, Space> x(b.size());
  zero(x);
  res = cg(A, bd, x, opt);
  return to_vector(x);
}

// The errors on N = 8, 16, 32 for one format/precision/space; checks convergence and returns them.
template <class T, class Space, bool Sell>
std::vector<std::vector<T>> solutions(const std::vector<fem_poisson<T>>& problems, double tol) {
  std::vector<std::vector<T>> xs;
  for (const auto& p : problems) {
    const auto A = clone_csr<Space>(p.A);
    cg_options opt;
    opt.tolerance = tol;
    cg_result res;
    if constexpr (Sell) xs.push_back(solve<T, Space>(to_sell(A), p.b, opt, res));
    else xs.push_back(solve<T, Space>(A, p.b, opt, res));
    CAPTURE(p.intervals);
    CHECK(res.converged);
    CHECK(res.relative_residual <= tol);
    CHECK(res.iterations < 4 * p.intervals);  // CG's iterations grow like sqrt(cond) ~ N
  }
  return xs;
}

template <class T>
void check_orders(double tol, double agree) {
  std::vector<fem_poisson<T>> problems;
  for (vertex_t n : {8, 16, 32}) problems.push_back(fem_poisson_3d<T>(n));
  const auto csr_h = solutions<T, host_space, false>(problems, tol);
  const auto csr_d = solutions<T, device_space, false>(problems, tol);
  const auto sell_h = solutions<T, host_space, true>(problems, tol);
  const auto sell_d = solutions<T, device_space, true>(problems, tol);
  for (const auto* xs : {&csr_h, &csr_d, &sell_h, &sell_d}) {
    std::vector<double> err;
    for (std::size_t i = 0; i < problems.size(); ++i) err.push_back(fem_l2_error(problems[i], (*xs)[i]));
    for (std::size_t i = 1; i < err.size(); ++i) {
      const double order = std::log2(err[i - 1] / err[i]);
      CAPTURE(i);
      CHECK(order == doctest::Approx(fem_poisson<T>::order).epsilon(0.05));
    }
  }
  for (std::size_t i = 0; i < problems.size(); ++i)  // the formats and twins give one solution
    for (std::size_t j = 0; j < csr_h[i].size(); ++j) {
      REQUIRE(std::abs(double(sell_h[i][j]) - double(csr_h[i][j])) <= agree);
      REQUIRE(std::abs(double(csr_d[i][j]) - double(csr_h[i][j])) <= agree);
      REQUIRE(std::abs(double(sell_d[i][j]) - double(csr_h[i][j])) <= agree);
    }
}
}  // namespace

TEST_CASE("fem poisson: the Q1 matrix is the Kronecker form of the 1D matrices, rows of 8 to 27") {
  for (vertex_t n : {2, 3, 4, 5}) {
    const fem_poisson<double> p = fem_poisson_3d<double>(n);
    const std::vector<double> want = kron_stiffness(n);
    const vertex_t rows = p.A.rows;
    REQUIRE(std::size_t(rows) * std::size_t(rows) == want.size());
    std::vector<double> got(want.size(), 0.0);
    std::map<offset_t, int> lengths;
    for (vertex_t r = 0; r < rows; ++r) {
      ++lengths[p.A.row_ptr[std::size_t(r) + 1] - p.A.row_ptr[std::size_t(r)]];
      for (offset_t j = p.A.row_ptr[std::size_t(r)]; j < p.A.row_ptr[std::size_t(r) + 1]; ++j)
        got[std::size_t(r) * std::size_t(rows) + std::size_t(p.A.col[std::size_t(j)])] = p.A.val[std::size_t(j)];
    }
    for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-12));
    if (n == 2) CHECK(p.A.val[0] == doctest::Approx(4.0 / 3));  // 3 (2/h)(4h/6)^2 at h = 1/2
    if (n >= 4) CHECK(lengths == std::map<offset_t, int>{{8, 8}, {12, 12 * (n - 3)}, {18, 6 * (n - 3) * (n - 3)}, {27, (n - 3) * (n - 3) * (n - 3)}});
  }
  CHECK_THROWS_AS(fem_poisson_3d<double>(1), invalid_argument);
}

TEST_CASE("cg: a hand-checked 2x2 system, and sizes that do not match") {
  csr_matrix<double, host_space> A;  // [[4, 1], [1, 3]] x = [1, 2]: x = [1/11, 7/11]
  A.rows = A.cols = 2;
  A.row_ptr = to_space<host_space>(std::vector<offset_t>{0, 2, 4});
  A.col = to_space<host_space>(std::vector<vertex_t>{0, 1, 0, 1});
  A.val = to_space<host_space>(std::vector<double>{4, 1, 1, 3});
  cg_result res;
  const auto x = solve<double, host_space>(A, std::vector<double>{1, 2}, {}, res);
  CHECK(res.iterations == 2);  // exact in n steps
  CHECK(x[0] == doctest::Approx(1.0 / 11));
  CHECK(x[1] == doctest::Approx(7.0 / 11));
  array<double, host_space> b3(3), x2(2);
  CHECK_THROWS_AS(cg(A, b3, x2), invalid_argument);
  // preconditioned by the exact inverse (1/11)[[3, -1], [-1, 4]]: one step
  const linear_operator<double, host_space> inverse = [](const array<double, host_space>& r, array<double, host_space>& z) {
    z[0] = (3 * r[0] - r[1]) / 11, z[1] = (-r[0] + 4 * r[1]) / 11;
  };
  const linear_operator<double, host_space> op = [&A](const array<double, host_space>& v, array<double, host_space>& y) {
    spmv<plus_times<double>>(A, v, y);
  };
  array<double, host_space> b = to_space<host_space>(std::vector<double>{1, 2}), y(2);
  zero(y);
  res = cg(op, b, y, {}, inverse);
  CHECK(res.iterations == 1);
  CHECK(y[0] == doctest::Approx(1.0 / 11));
  CHECK(y[1] == doctest::Approx(7.0 / 11));
}

TEST_CASE("cg: Jacobi-preconditioned CG on Q1 Poisson gives the unpreconditioned solution (device twin)") {
  const fem_poisson<double> p = fem_poisson_3d<double>(12);
  const auto A = clone_csr<device_space>(p.A);
  std::vector<double> inv_diag(p.b.size());
  for (vertex_t r = 0; r < p.A.rows; ++r)
    for (offset_t j = p.A.row_ptr[std::size_t(r)]; j < p.A.row_ptr[std::size_t(r) + 1]; ++j)
      if (p.A.col[std::size_t(j)] == r) inv_diag[std::size_t(r)] = 1 / p.A.val[std::size_t(j)];
  const array<double, device_space> d = to_space<device_space>(inv_diag);
  const linear_operator<double, device_space> jacobi = [&d](const array<double, device_space>& r, array<double, device_space>& z) {
    std::vector<double> h = to_vector(r), s = to_vector(d);  // a test operator: plain host loops
    for (std::size_t i = 0; i < h.size(); ++i) h[i] *= s[i];
    z = to_space<device_space>(h);
  };
  const linear_operator<double, device_space> op = [&A](const array<double, device_space>& v, array<double, device_space>& y) {
    spmv<plus_times<double>>(A, v, y);
  };
  cg_options opt;
  opt.tolerance = 1e-11;
  cg_result plain, pre;
  const std::vector<double> x0 = solve<double, device_space>(A, p.b, opt, plain);
  const array<double, device_space> b = to_space<device_space>(p.b);
  array<double, device_space> x(p.b.size());
  zero(x);
  pre = cg(op, b, x, opt, jacobi);
  CHECK(pre.converged);
  const std::vector<double> x1 = to_vector(x);
  for (std::size_t i = 0; i < x0.size(); ++i) REQUIRE(x1[i] == doctest::Approx(x0[i]).epsilon(1e-8).scale(1e-6));
}

TEST_CASE("cg: Q1 Poisson converges with order 2 on CSR and SELL, both twins, double") { check_orders<double>(1e-10, 1e-8); }

TEST_CASE("cg: Q1 Poisson converges with order 2 on CSR and SELL, both twins, float") { check_orders<float>(1e-5, 1e-6); }
