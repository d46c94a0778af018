// SELL-C-sigma: the reference and device conversions build identical arrays with the documented
// layout, and both twins' SpMV equal the reference CSR SpMV for every semiring
// (tests/format_support.hpp), for sigma = 256 (default), 1 (no sorting), 7 (windows that cut chunks)
// and sigma > rows (one global sort), with chunk-boundary sizes and a hub row.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/sell.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {
// Per-slot layout checks run hundreds of millions of times: test them plainly and hand only a
// failing one to doctest, which then reports the expression.
#define LAYOUT(...)                       \
  do {                                    \
    if (!(__VA_ARGS__)) REQUIRE(__VA_ARGS__); \
  } while (0)
constexpr vertex_t C = sell_chunk_rows;

/// The layout of storage/sell.hpp, checked independently of both conversions.
template <class V>
void require_layout(const csr_matrix<V, H>& A, const sell_matrix<V, H>& m, vertex_t sigma) {
  LAYOUT(m.rows == A.rows);
  LAYOUT(m.cols == A.cols);
  LAYOUT(m.nnz() == A.nnz());
  LAYOUT(m.chunk_ptr.size() == std::size_t(m.chunks()) + 1);
  LAYOUT(m.perm.size() == std::size_t(A.rows));
  LAYOUT(m.chunk_ptr[0] == 0);
  LAYOUT(m.chunk_ptr[std::size_t(m.chunks())] == m.padded());
  auto len = [&](vertex_t r) { return A.row_ptr[std::size_t(r) + 1] - A.row_ptr[std::size_t(r)]; };
  // perm: a permutation that keeps every row in its sigma-window, sorted by length (descending),
  // ties in row order.
  std::vector<char> seen(std::size_t(A.rows), 0);
  for (vertex_t s = 0; s < A.rows; ++s) {
    const vertex_t r = m.perm[std::size_t(s)];
    LAYOUT(r >= 0);
    LAYOUT(r < A.rows);
    LAYOUT(!seen[std::size_t(r)]);
    seen[std::size_t(r)] = 1;
    LAYOUT(r / sigma == s / sigma);
    if (sigma > 1 && s % sigma != 0) {
      const vertex_t q = m.perm[std::size_t(s) - 1];
      LAYOUT((len(q) > len(r) || (len(q) == len(r) && q < r)));
    }
    if (sigma == 1) LAYOUT(r == s);
  }
  // Every chunk is as wide as its longest row; slots hold the row's entries in order, then padding.
  offset_t real = 0;
  for (vertex_t c = 0; c < m.chunks(); ++c) {
    const offset_t base = m.chunk_ptr[std::size_t(c)];
    const offset_t span = m.chunk_ptr[std::size_t(c) + 1] - base;
    LAYOUT(span % C == 0);
    const offset_t width = span / C;
    offset_t widest = 0;
    for (vertex_t i = 0; i < C; ++i) {
      const offset_t s = offset_t(c) * C + i;
      const vertex_t r = s < A.rows ? m.perm[std::size_t(s)] : -1;
      const offset_t n = r >= 0 ? len(r) : 0;
      widest = std::max(widest, n);
      for (offset_t k = 0; k < width; ++k) {
        const auto t = std::size_t(base + k * C + i);
        if (k < n) {
          const auto j = std::size_t(A.row_ptr[std::size_t(r)] + k);
          LAYOUT(m.col[t] == A.col[j]);
          if constexpr (!is_pattern_v<V>) LAYOUT(m.val[t] == A.val[j]);
          ++real;
        } else {
          LAYOUT(m.col[t] == sell_padding);
        }
      }
    }
    LAYOUT(width == widest);
  }
  LAYOUT(real == A.nnz());
  LAYOUT(m.bytes() == m.chunk_ptr.bytes() + m.perm.bytes() + m.col.bytes() + m.val.bytes());
  if constexpr (is_pattern_v<V>) LAYOUT(m.val.empty());
  else LAYOUT(m.val.size() == std::size_t(m.padded()));
}

template <class V, class S1, class S2>
void require_identical(const sell_matrix<V, S1>& a, const sell_matrix<V, S2>& b) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.cols == b.cols);
  REQUIRE(a.sigma == b.sigma);
  REQUIRE(a.nnz() == b.nnz());
  REQUIRE(a.padded() == b.padded());
  REQUIRE(a.bytes() == b.bytes());
  REQUIRE(to_vector(a.chunk_ptr) == to_vector(b.chunk_ptr));
  REQUIRE(to_vector(a.perm) == to_vector(b.perm));
  REQUIRE(to_vector(a.col) == to_vector(b.col));
  REQUIRE(to_vector(a.val) == to_vector(b.val));
}

/// y starts as a value no row sums to, so a row the kernel forgets to write fails the comparison.
template <class Sr, class V, class S>
std::vector<typename Sr::value_type> run_spmv(const sell_matrix<V, S>& m, const std::vector<typename Sr::value_type>& x) {
  using T = typename Sr::value_type;
  const auto xs = to_space<S>(x);
  auto y = to_space<S>(std::vector<T>(std::size_t(m.rows), T(77)));
  spmv<Sr>(m, xs, y);
  return to_vector(y);
}

template <class V>
void check(const char* name, const csr_matrix<V, H>& A, vertex_t sigma) {
  CAPTURE(name);
  CAPTURE(sigma);
  sell_options o;
  o.sigma = sigma;
  const auto ref = to_sell(A, o);
  const auto dev = to_sell(test::csr_in<D>(A), o);
  require_layout(A, ref, sigma);
  require_identical(ref, dev);
  std::uint64_t seed = 100;
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    const auto x = test::random_x<Sr>(std::size_t(A.cols), ++seed);
    test::require_spmv_equal<Sr>(A, x, run_spmv<Sr>(ref, x), "reference sell");
    test::require_spmv_equal<Sr>(A, x, run_spmv<Sr>(dev, x), "device sell");
  });
}

template <class V>
void check_all_matrices() {
  test::for_each_test_matrix<V>([](const char* name, const csr_matrix<V, H>& A) {
    check(name, A, 256);
    check(name, A, 1);
    // The 1e5-row hub matrix pads to 26M slots; the sigma extremes run on the smaller ones (and on
    // every size in "chunk edges" below) to keep the suite quick on the CPU build.
    if (A.rows < 50000) {
      check(name, A, 7);
      check(name, A, 1 << 30);
    }
  });
}

}  // namespace

TEST_CASE("sell: twins agree and equal CSR SpMV on every test matrix (float)") { check_all_matrices<float>(); }
TEST_CASE("sell: twins agree and equal CSR SpMV on every test matrix (double)") { check_all_matrices<double>(); }
TEST_CASE("sell: twins agree and equal CSR SpMV on every test matrix (pattern)") { check_all_matrices<pattern>(); }

TEST_CASE("sell: exact layout of a small matrix, sorted and unsorted") {
  // Rows of length 1, 3, 0, 2; 4 rows < C: one chunk of width 3, 3 * 32 slots.
  const auto A = test::csr_from_rows<double>(5, {{4}, {0, 2, 3}, {}, {1, 4}});
  const auto unsorted = to_sell(A, sell_options{1});
  REQUIRE(unsorted.padded() == 3 * C);
  REQUIRE(to_vector(unsorted.perm) == std::vector<vertex_t>{0, 1, 2, 3});
  REQUIRE(unsorted.col[0] == 4);  // k = 0: rows 0, 1, 2 (padding), 3
  REQUIRE(unsorted.col[1] == 0);
  REQUIRE(unsorted.col[2] == sell_padding);
  REQUIRE(unsorted.col[3] == 1);
  REQUIRE(unsorted.col[std::size_t(C) + 1] == 2);  // k = 1 of row 1
  REQUIRE(unsorted.col[std::size_t(C) + 3] == 4);  // k = 1 of row 3
  REQUIRE(unsorted.col[std::size_t(2 * C) + 1] == 3);
  REQUIRE(unsorted.val[std::size_t(2 * C) + 1] == 4.0);
  const auto sorted = to_sell(A, sell_options{4});
  REQUIRE(to_vector(sorted.perm) == std::vector<vertex_t>{1, 3, 0, 2});
  REQUIRE(sorted.col[0] == 0);
  REQUIRE(sorted.col[1] == 1);
  REQUIRE(sorted.col[2] == 4);
  REQUIRE(sorted.col[3] == sell_padding);
  const auto dev = to_sell(test::csr_in<D>(A), sell_options{4});
  require_identical(sorted, dev);
  // min-plus with x = 0: the empty row must read +inf (the semiring zero), never a padded 0.
  const std::vector<double> x(5, 0.0);
  const auto y = run_spmv<min_plus<double>>(dev, x);
  REQUIRE(y[2] == min_plus<double>::zero());
  REQUIRE(y[0] == 1.0);
}

TEST_CASE("sell: chunk edges, sigma extremes, one row holding most entries") {
  for (vertex_t n : {1, 31, 32, 33, 64, 65, 95}) {
    CAPTURE(n);
    const auto A = test::random_csr<float>(std::uint64_t(n), n, n, std::size_t(n) * 5, test::shape::power_law);
    for (vertex_t sigma : {1, 2, 32, 33, n, n + 1, 1 << 30}) check("chunk edge", A, sigma);
  }
  // One hub row of 5000 entries among 1-entry rows: only the hub's chunk is wide.
  std::vector<std::vector<vertex_t>> rows(200, std::vector<vertex_t>{1});
  rows[70].clear();
  for (vertex_t k = 0; k < 5000; ++k) rows[70].push_back(k % 300);
  const auto A = test::csr_from_rows<float>(300, rows);
  for (vertex_t sigma : {1, 256}) {
    check("hub row", A, sigma);
    const auto m = to_sell(A, sell_options{sigma});
    REQUIRE(m.padded() == 5000 * C + 6 * C);  // 7 chunks: one of width 5000, six of width 1
  }
  check("hub row pattern", test::csr_from_rows<pattern>(300, rows), 256);
}

TEST_CASE("sell: argument checks") {
  const auto A = test::random_csr<double>(3, 40, 50, 200, test::shape::uniform);
  CHECK_THROWS_AS(to_sell(A, sell_options{0}), invalid_argument);
  CHECK_THROWS_AS(to_sell(test::csr_in<D>(A), sell_options{-3}), invalid_argument);
  const auto m = to_sell(A);
  REQUIRE(m.sigma == 256);
  array<double, H> x_short(49), x(50), y_short(39);
  array<double, H> y(40);
  CHECK_THROWS_AS(spmv<plus_times<double>>(m, x_short, y), invalid_argument);
  CHECK_THROWS_AS(spmv<plus_times<double>>(m, x, y_short), invalid_argument);
}
