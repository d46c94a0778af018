// Shared harness for the read-optimized formats: matrices with the shapes that break SpMV kernels,
// and a check of a format's SpMV against the reference CSR SpMV for every semiring it is built for.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/semiring.hpp"
#include "loaders/graph_file.hpp"
#include "storage/csr.hpp"
#include "storage/dcsr.hpp"

namespace fg::test {

enum class shape { uniform, power_law, empty_rows, one_huge_row };

/// rows x cols with about nnz entries (duplicates kept: matrix semantics), in a given shape.
template <class V>
csr_matrix<V, host_space> random_csr(std::uint64_t seed, vertex_t rows, vertex_t cols, std::size_t nnz, shape s) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<vertex_t> r, c;
  std::vector<stored_t<V>> v;
  for (std::size_t i = 0; rows > 0 && cols > 0 && i < nnz; ++i) {
    vertex_t row = vertex_t(u(g) * rows) % rows;
    if (s == shape::power_law) row = vertex_t(rows * std::pow(u(g), 4.0)) % rows;
    if (s == shape::empty_rows) row = (row / 3) * 3;
    if (s == shape::one_huge_row && i % 10 != 0) row = rows / 2;
    r.push_back(row);
    c.push_back(vertex_t(u(g) * cols) % cols);
    if constexpr (!is_pattern_v<V>) v.push_back(stored_t<V>(u(g) * 2 - 1));
  }
  dcsr_config cfg;
  cfg.dups = duplicates::accumulate;
  cfg.square = false;
  return dcsr_matrix<V, host_space>::from_coo(make_coo<V, host_space>(r, c, v), rows, cols, cfg).to_csr();
}

/// rows x cols from explicit rows of columns (values 1, 2, 3, ... in entry order).
template <class V>
csr_matrix<V, host_space> csr_from_rows(vertex_t cols, const std::vector<std::vector<vertex_t>>& rows) {
  std::vector<offset_t> ptr{0};
  std::vector<vertex_t> col;
  std::vector<stored_t<V>> val;
  for (const auto& r : rows) {
    for (vertex_t c : r) {
      col.push_back(c);
      if constexpr (!is_pattern_v<V>) val.push_back(V(val.size() + 1));
    }
    ptr.push_back(offset_t(col.size()));
  }
  csr_matrix<V, host_space> A;
  A.rows = vertex_t(rows.size());
  A.cols = cols;
  A.row_ptr = to_space<host_space>(ptr);
  A.col = to_space<host_space>(col);
  if constexpr (!is_pattern_v<V>) A.val = to_space<host_space>(val);
  return A;
}

/// A real graph as a pattern/weighted CSR (rows = sources).
template <class V>
csr_matrix<V, host_space> graph_csr(const std::string& path) {
  const edge_file f = read_graph(path);
  std::vector<stored_t<V>> w;
  if constexpr (!is_pattern_v<V>) {
    std::mt19937_64 g(5);
    for (std::size_t i = 0; i < f.src.size(); ++i) w.push_back(stored_t<V>(std::uniform_real_distribution<double>(-1, 1)(g)));
  }
  const auto n = vertex_t(f.num_vertices);
  return dcsr_matrix<V, host_space>::from_coo(make_coo<V, host_space>(f.src, f.dst, w), n, n).to_csr();
}

/// A copy of a CSR in another (or the same) memory space.
template <class Space, class V, class From>
csr_matrix<V, Space> csr_in(const csr_matrix<V, From>& h) {
  return clone_csr<Space>(h);
}

template <class Sr>
std::vector<typename Sr::value_type> random_x(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<typename Sr::value_type> x(n);
  for (auto& e : x) {
    if constexpr (std::is_same_v<Sr, or_and>) e = std::uint8_t(g() % 3 == 0);
    else e = typename Sr::value_type(std::uniform_real_distribution<double>(-2, 2)(g));
  }
  return x;
}

/// REQUIREs got == reference CSR SpMV of A on x: exact for or-and and min-plus, and for plus-times
/// within eps x (sum over the row of |a| |x|), which bounds rounding in any summation order.
template <class Sr, class V>
void require_spmv_equal(const csr_matrix<V, host_space>& A, const std::vector<typename Sr::value_type>& x,
                        const std::vector<typename Sr::value_type>& got, const char* what) {
  using T = typename Sr::value_type;
  CAPTURE(what);
  CAPTURE(Sr::name);
  array<T, host_space> yr(std::size_t(A.rows));
  const auto xh = to_space<host_space>(x);
  spmv<Sr>(A, xh, yr);
  REQUIRE(got.size() >= std::size_t(A.rows));
  constexpr bool rounding = std::is_floating_point_v<T> && std::is_same_v<Sr, plus_times<T>>;
  const double eps = std::is_same_v<T, float> ? 2e-5 : 1e-12;
  for (vertex_t r = 0; r < A.rows; ++r) {
    if constexpr (rounding) {
      double bound = 0;
      for (offset_t j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j)
        bound += std::fabs(double(value_or<V>(A.val.data(), j, T(1)))) * std::fabs(double(x[std::size_t(A.col[j])]));
      REQUIRE(std::fabs(double(got[std::size_t(r)]) - double(yr[std::size_t(r)])) <= eps * bound + 1e-30);
    } else {
      REQUIRE(got[std::size_t(r)] == yr[std::size_t(r)]);
    }
  }
}

/// Calls check(Sr{}) for every (semiring, V) pair SpMV is built for with this V.
template <class V, class F>
void for_each_semiring(F&& check) {
  if constexpr (std::is_same_v<V, float>) {
    check(plus_times<float>{});
    check(min_plus<float>{});
  } else if constexpr (std::is_same_v<V, double>) {
    check(plus_times<double>{});
    check(min_plus<double>{});
  } else {
    check(plus_times<float>{});
    check(plus_times<double>{});
    check(or_and{});
    check(min_plus<float>{});
    check(min_plus<double>{});
  }
}

/// Matrices every format is tested on: random shapes at sizes 1, 31, 33, 257, 1025, 1e5 rows, the
/// empty matrix, and the real graphs in tests/data/pagerank/graphs. f(name, csr_host).
template <class V, class F>
void for_each_test_matrix(F&& f) {
  f("empty 0x0", random_csr<V>(1, 0, 0, 0, shape::uniform));
  f("5x7 no entries", random_csr<V>(1, 5, 7, 0, shape::uniform));
  std::uint64_t seed = 10;
  for (vertex_t n : {1, 31, 33, 257, 1025, 100000})
    for (shape s : {shape::uniform, shape::power_law, shape::empty_rows, shape::one_huge_row}) {
      const std::string name = "random n=" + std::to_string(n) + " shape=" + std::to_string(int(s));
      f(name.c_str(), random_csr<V>(++seed, n, n + 3, std::size_t(n) * 9, s));
    }
  for (const char* g : {"wiki-Vote.txt.gz", "bips98_606.mtx.gz", "west0067.mtx", "TG.cedge.data_23874.txt"})
    f(g, graph_csr<V>(std::string(FG_TEST_DATA_DIR) + "/pagerank/graphs/" + g));
}

}  // namespace fg::test
