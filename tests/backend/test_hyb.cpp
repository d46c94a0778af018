// HYB: the reference and device conversions build identical arrays with the documented layout and
// the same K (Bell & Garland's rule, checked against a brute-force count), and both twins' SpMV
// equal the reference CSR SpMV for every semiring (tests/format_support.hpp), for K chosen by the
// rule (with CUSP's 4096-row threshold and without it), K = 0 (all tail), small K, and K >= the
// longest row (no tail); the tail's segments (rows, offsets, row blocks) are checked against the
// layout, and SpMV allocates nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/hyb.hpp"
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
template <class V>
offset_t row_len(const csr_matrix<V, H>& A, vertex_t r) {
  return A.row_ptr[std::size_t(r) + 1] - A.row_ptr[std::size_t(r)];
}

template <class V>
offset_t max_row(const csr_matrix<V, H>& A) {
  offset_t m = 0;
  for (vertex_t r = 0; r < A.rows; ++r) m = std::max(m, row_len(A, r));
  return m;
}

/// The rule stated in storage/hyb.hpp, by direct counting: the largest K such that at least
/// max(breakeven, ceil(rows / speed)) rows have length >= K (a binary search, as the count falls with K).
template <class V>
vertex_t expected_width(const csr_matrix<V, H>& A, const hyb_options& o) {
  if (A.rows == 0) return 0;
  const offset_t need = std::max<offset_t>({o.breakeven_rows, (A.rows + o.relative_speed - 1) / o.relative_speed, 1});
  auto rows_at_least = [&](offset_t k) {
    offset_t n = 0;
    for (vertex_t r = 0; r < A.rows; ++r) n += row_len(A, r) >= k;
    return n;
  };
  offset_t lo = 0, hi = max_row(A) + 1;  // the count falls as k grows: rows_at_least(lo) >= need > rows_at_least(hi)
  while (hi - lo > 1) {
    const offset_t mid = lo + (hi - lo) / 2;
    (rows_at_least(mid) >= need ? lo : hi) = mid;
  }
  return vertex_t(lo);
}

/// The layout of storage/hyb.hpp, checked independently of both conversions.
template <class V>
void require_layout(const csr_matrix<V, H>& A, const hyb_matrix<V, H>& m) {
  LAYOUT(m.rows == A.rows);
  LAYOUT(m.cols == A.cols);
  LAYOUT(m.nnz() == A.nnz());
  const offset_t K = m.ell_width;
  LAYOUT(m.pitch % 32 == 0);
  LAYOUT(m.pitch >= A.rows);
  LAYOUT(m.pitch < offset_t(A.rows) + 32);
  LAYOUT(m.padded() == m.pitch * K);
  offset_t tail = 0, real = 0;
  vertex_t tail_rows = 0;
  std::vector<vertex_t> keys;  // the tail's segments, as storage/hyb.hpp defines them
  std::vector<offset_t> ptr;
  for (offset_t r = 0; r < m.pitch; ++r) {
    const offset_t n = r < A.rows ? row_len(A, vertex_t(r)) : 0;
    for (offset_t k = 0; k < K; ++k) {
      const auto t = std::size_t(k * m.pitch + r);
      if (k < n) {
        const auto j = std::size_t(A.row_ptr[std::size_t(r)] + k);
        LAYOUT(m.ell_col[t] == A.col[j]);
        if constexpr (!is_pattern_v<V>) LAYOUT(m.ell_val[t] == A.val[j]);
        ++real;
      } else {
        LAYOUT(m.ell_col[t] == hyb_padding);
      }
    }
    // The tail holds this row's entries K.. in order, right after the previous rows' tails.
    tail_rows += n > K;
    if (n > K) {
      keys.push_back(vertex_t(r));
      ptr.push_back(tail);
    }
    for (offset_t k = K; k < n; ++k, ++tail) {
      const auto j = std::size_t(A.row_ptr[std::size_t(r)] + k);
      LAYOUT(tail < m.tail_nnz());
      LAYOUT(m.tail_row[std::size_t(tail)] == r);
      LAYOUT(m.tail_col[std::size_t(tail)] == A.col[j]);
      if constexpr (!is_pattern_v<V>) LAYOUT(m.tail_val[std::size_t(tail)] == A.val[j]);
    }
  }
  LAYOUT(tail == m.tail_nnz());
  LAYOUT(real + tail == A.nnz());
  LAYOUT(m.tail_rows == tail_rows);
  LAYOUT(m.tail_row.size() == std::size_t(tail));
  // Segments: one per tail row, ascending, offsets into the tail closed by tail_nnz (none without a tail).
  if (tail_rows > 0) ptr.push_back(tail);
  REQUIRE(to_vector(m.tail_row_key) == keys);
  REQUIRE(to_vector(m.tail_row_ptr) == ptr);
  // Row blocks over the tail rows: CSR-Adaptive's cut (< 2 x hyb_tail_block_nnz entries, or one row).
  const auto blocks = to_vector(m.tail_blocks);
  if (tail_rows == 0) {
    LAYOUT(blocks.empty());
    LAYOUT(m.tail_block_count == 0);
  } else {
    LAYOUT(blocks.size() == std::size_t(m.tail_block_count) + 1);
    LAYOUT(blocks.front() == 0);
    LAYOUT(blocks.back() == tail_rows);
    for (std::size_t b = 0; b + 1 < blocks.size(); ++b) {
      LAYOUT(blocks[b] < blocks[b + 1]);
      const offset_t entries = ptr[std::size_t(blocks[b + 1])] - ptr[std::size_t(blocks[b])];
      const bool one_row = blocks[b + 1] - blocks[b] == 1;
      LAYOUT((one_row || entries < 2 * hyb_tail_block_nnz));
    }
  }
  LAYOUT(m.bytes() == m.ell_col.bytes() + m.ell_val.bytes() + m.tail_row.bytes() + m.tail_col.bytes() +
                           m.tail_val.bytes() + m.tail_row_ptr.bytes() + m.tail_row_key.bytes() +
                           m.tail_blocks.bytes());
}

template <class V, class S1, class S2>
void require_identical(const hyb_matrix<V, S1>& a, const hyb_matrix<V, S2>& b) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.cols == b.cols);
  REQUIRE(a.ell_width == b.ell_width);
  REQUIRE(a.pitch == b.pitch);
  REQUIRE(a.nnz() == b.nnz());
  REQUIRE(a.tail_rows == b.tail_rows);
  REQUIRE(a.padded() == b.padded());
  REQUIRE(a.tail_nnz() == b.tail_nnz());
  REQUIRE(a.bytes() == b.bytes());
  REQUIRE(to_vector(a.ell_col) == to_vector(b.ell_col));
  REQUIRE(to_vector(a.ell_val) == to_vector(b.ell_val));
  REQUIRE(to_vector(a.tail_row) == to_vector(b.tail_row));
  REQUIRE(to_vector(a.tail_col) == to_vector(b.tail_col));
  REQUIRE(to_vector(a.tail_val) == to_vector(b.tail_val));
  REQUIRE(a.tail_block_count == b.tail_block_count);
  REQUIRE(to_vector(a.tail_row_ptr) == to_vector(b.tail_row_ptr));
  REQUIRE(to_vector(a.tail_row_key) == to_vector(b.tail_row_key));
  REQUIRE(to_vector(a.tail_blocks) == to_vector(b.tail_blocks));
}

/// y starts as a value no row sums to, so a row the kernels forget to write fails the comparison.
template <class Sr, class V, class S>
std::vector<typename Sr::value_type> run_spmv(const hyb_matrix<V, S>& m, const std::vector<typename Sr::value_type>& x) {
  using T = typename Sr::value_type;
  const auto xs = to_space<S>(x);
  auto y = to_space<S>(std::vector<T>(std::size_t(m.rows), T(77)));
  spmv<Sr>(m, xs, y);
  return to_vector(y);
}

template <class V>
void check(const char* name, const csr_matrix<V, H>& A, const hyb_options& o) {
  CAPTURE(name);
  CAPTURE(o.ell_width);
  CAPTURE(o.breakeven_rows);
  const auto Ad = test::csr_in<D>(A);
  const auto ref = to_hyb(A, o);
  const auto dev = to_hyb(Ad, o);
  if (o.ell_width < 0) {
    const vertex_t want = expected_width(A, o);
    REQUIRE(hyb_auto_width(A, o) == want);
    REQUIRE(hyb_auto_width(Ad, o) == want);
    REQUIRE(ref.ell_width == want);
  } else if (A.rows > 0) {
    REQUIRE(ref.ell_width == o.ell_width);
  }
  require_layout(A, ref);
  require_identical(ref, dev);
  std::uint64_t seed = 200;
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    const auto x = test::random_x<Sr>(std::size_t(A.cols), ++seed);
    test::require_spmv_equal<Sr>(A, x, run_spmv<Sr>(ref, x), "reference hyb");
    test::require_spmv_equal<Sr>(A, x, run_spmv<Sr>(dev, x), "device hyb");
  });
}

hyb_options width(vertex_t k) {
  hyb_options o;
  o.ell_width = k;
  return o;
}

template <class V>
void check_all_matrices() {
  test::for_each_test_matrix<V>([](const char* name, const csr_matrix<V, H>& A) {
    hyb_options no_threshold;
    no_threshold.breakeven_rows = 0;
    for (const hyb_options& o : {hyb_options{}, no_threshold, width(0), width(1), width(3)}) check(name, A, o);
    // K >= the longest row: no tail. Only where the padded ELL part stays small.
    const offset_t longest = max_row(A);
    if ((offset_t(A.rows) + 32) * (longest + 1) <= (offset_t(1) << 22)) {
      for (offset_t k : {longest, longest + 1}) {
        check(name, A, width(vertex_t(k)));
        REQUIRE(to_hyb(A, width(vertex_t(k))).tail_nnz() == 0);
      }
    }
  });
}

}  // namespace

TEST_CASE("hyb: twins agree and equal CSR SpMV on every test matrix (float)") { check_all_matrices<float>(); }
TEST_CASE("hyb: twins agree and equal CSR SpMV on every test matrix (double)") { check_all_matrices<double>(); }
TEST_CASE("hyb: twins agree and equal CSR SpMV on every test matrix (pattern)") { check_all_matrices<pattern>(); }

TEST_CASE("hyb: the K rule") {
  // 9000 rows: 5000 of length 4, 4000 of length 2. need = max(4096, 3000) = 4096 rows: K = 4.
  std::vector<std::vector<vertex_t>> rows(9000);
  for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = r < 5000 ? std::vector<vertex_t>{0, 1, 2, 3} : std::vector<vertex_t>{0, 1};
  auto A = test::csr_from_rows<float>(4, rows);
  REQUIRE(hyb_auto_width(A) == 4);
  // Make only 4095 rows long: they no longer reach the 4096-row threshold, K drops to 2.
  for (std::size_t r = 4095; r < 5000; ++r) rows[r] = {0, 1};
  A = test::csr_from_rows<float>(4, rows);
  REQUIRE(hyb_auto_width(A) == 2);
  REQUIRE(hyb_auto_width(test::csr_in<D>(A)) == 2);
  hyb_options o;
  o.breakeven_rows = 0;  // a third of 9000 = 3000 rows: the 4095 long rows qualify again
  REQUIRE(hyb_auto_width(A, o) == 4);
  REQUIRE(hyb_auto_width(test::csr_in<D>(A), o) == 4);
  // Fewer than 4096 rows: K = 0, all tail.
  const auto small = test::random_csr<double>(5, 1000, 1000, 20000, test::shape::uniform);
  const auto m = to_hyb(small);
  REQUIRE(m.ell_width == 0);
  REQUIRE(m.padded() == 0);
  REQUIRE(m.tail_nnz() == small.nnz());
}

TEST_CASE("hyb: exact layout, empty rows and one row holding most entries") {
  // Rows of length 1, 3, 0, 2 with K = 2: the tail is row 1's third entry.
  const auto A = test::csr_from_rows<double>(5, {{4}, {0, 2, 3}, {}, {1, 4}});
  const auto m = to_hyb(A, width(2));
  REQUIRE(m.pitch == 32);
  REQUIRE(m.padded() == 64);
  REQUIRE(m.ell_col[0] == 4);
  REQUIRE(m.ell_col[1] == 0);
  REQUIRE(m.ell_col[2] == hyb_padding);
  REQUIRE(m.ell_col[32 + 1] == 2);
  REQUIRE(m.ell_col[32 + 3] == 4);
  REQUIRE(to_vector(m.tail_row) == std::vector<vertex_t>{1});
  REQUIRE(to_vector(m.tail_col) == std::vector<vertex_t>{3});
  REQUIRE(to_vector(m.tail_val) == std::vector<double>{4.0});
  REQUIRE(to_vector(m.tail_row_key) == std::vector<vertex_t>{1});
  REQUIRE(to_vector(m.tail_row_ptr) == std::vector<offset_t>{0, 1});
  REQUIRE(to_vector(m.tail_blocks) == std::vector<vertex_t>{0, 1});
  require_identical(m, to_hyb(test::csr_in<D>(A), width(2)));
  // min-plus with x = 0: the empty row reads +inf, never a padded 0.
  const auto y = run_spmv<min_plus<double>>(to_hyb(test::csr_in<D>(A), width(2)), std::vector<double>(5, 0.0));
  REQUIRE(y[2] == min_plus<double>::zero());
  REQUIRE(y[1] == 2.0);

  // 6000 rows of 2 entries and a hub of 50000: K = 2 by the rule, the tail is the hub alone.
  std::vector<std::vector<vertex_t>> rows(6000, std::vector<vertex_t>{3, 9});
  for (vertex_t k = 0; k < 50000; ++k) rows[4321].push_back(k % 7000);
  const auto hub = test::csr_from_rows<float>(7000, rows);
  const auto h = to_hyb(hub);
  REQUIRE(h.ell_width == 2);
  REQUIRE(h.tail_nnz() == 50000);
  REQUIRE(h.tail_rows == 1);
  REQUIRE(to_vector(h.tail_row_ptr) == std::vector<offset_t>{0, 50000});
  REQUIRE(h.tail_block_count == 1);  // a long tail row is a block of its own
  check("hub", hub, hyb_options{});
  check("hub all tail", hub, width(0));
  check("hub pattern", test::csr_from_rows<pattern>(7000, rows), hyb_options{});
}

TEST_CASE("hyb: SpMV allocates nothing; a second call on the same matrix gives the same y") {
  // 3000 rows: under the 4096-row threshold, so K = 0 and the whole matrix is the tail.
  const auto A = test::random_csr<double>(7, 3000, 3000, 60000, test::shape::power_law);
  const auto m = to_hyb(test::csr_in<D>(A));
  REQUIRE(m.tail_rows > 0);
  REQUIRE(m.tail_block_count > 1);
  using Sr = plus_times<double>;
  const auto xs = test::random_x<Sr>(3000, 5);
  const auto x = to_space<D>(xs);
  array<double, D> y(3000);
  const std::size_t before = memory::bytes_in_use();
  memory::reset_peak();
  spmv<Sr>(m, x, y);
  memory::synchronize();
  CHECK(memory::peak_bytes() == before);
  const auto first = to_vector(y);
  test::require_spmv_equal<Sr>(A, xs, first, "device hyb, first call");
  spmv<Sr>(m, x, y);
  CHECK(to_vector(y) == first);
}

TEST_CASE("hyb: argument checks") {
  const auto A = test::random_csr<double>(3, 40, 50, 200, test::shape::uniform);
  hyb_options bad;
  bad.relative_speed = 0;
  CHECK_THROWS_AS(to_hyb(A, bad), invalid_argument);
  bad = {};
  bad.breakeven_rows = -1;
  CHECK_THROWS_AS(to_hyb(test::csr_in<D>(A), bad), invalid_argument);
  const auto m = to_hyb(A);
  array<double, H> x_short(49), x(50), y_short(39), y(40);
  CHECK_THROWS_AS(spmv<plus_times<double>>(m, x_short, y), invalid_argument);
  CHECK_THROWS_AS(spmv<plus_times<double>>(m, x, y_short), invalid_argument);
}
