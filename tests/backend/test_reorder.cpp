// The locality layer's renumbering (storage/reorder.hpp): the DBG order and P A Pᵀ checked against
// their definitions (independently of both twins), the twins identical, a hand-checked order, and
// SpMV through a renumbered format equal to the reference CSR SpMV in every semiring, in the
// caller's order and in the renumbered one.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/csr_merge.hpp"
#include "storage/reorder.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {
int bit_width(offset_t c) {
  int w = 0;
  for (; c > 0; c >>= 1) ++w;
  return w;
}

/// The order of storage/reorder.hpp from its definition: a permutation, groups by the bit width of
/// the column count, the widest first, ids ascending inside a group; new_of_old its inverse.
template <class V>
void require_order(const csr_matrix<V, H>& A, const vertex_order<H>& o) {
  const vertex_t n = A.rows;
  REQUIRE(o.size() == n);
  std::vector<offset_t> count(std::size_t(n), 0);
  for (offset_t j = 0; j < A.nnz(); ++j) ++count[std::size_t(A.col[std::size_t(j)])];
  std::vector<char> seen(std::size_t(n), 0);
  for (vertex_t p = 0; p < n; ++p) {
    const vertex_t v = o.old_of_new[std::size_t(p)];
    REQUIRE((v >= 0 && v < n && !seen[std::size_t(v)]));
    seen[std::size_t(v)] = 1;
    REQUIRE(o.new_of_old[std::size_t(v)] == p);
    if (p > 0) {
      const vertex_t u = o.old_of_new[std::size_t(p) - 1];
      const int wu = bit_width(count[std::size_t(u)]), wv = bit_width(count[std::size_t(v)]);
      REQUIRE((wu > wv || (wu == wv && u < v)));
    }
  }
}

/// P A Pᵀ from its definition: row p is row old_of_new[p], entries in order, columns renamed.
template <class V>
void require_permuted(const csr_matrix<V, H>& A, const vertex_order<H>& o, const csr_matrix<V, H>& P) {
  REQUIRE(P.rows == A.rows);
  REQUIRE(P.cols == A.cols);
  REQUIRE(P.nnz() == A.nnz());
  REQUIRE(P.row_ptr[0] == 0);
  for (vertex_t p = 0; p < A.rows; ++p) {
    const auto r = std::size_t(o.old_of_new[std::size_t(p)]);
    const offset_t len = A.row_ptr[r + 1] - A.row_ptr[r];
    REQUIRE(P.row_ptr[std::size_t(p) + 1] - P.row_ptr[std::size_t(p)] == len);
    for (offset_t k = 0; k < len; ++k) {
      const auto i = std::size_t(A.row_ptr[r] + k), j = std::size_t(P.row_ptr[std::size_t(p)] + k);
      if (P.col[j] != o.new_of_old[std::size_t(A.col[i])]) REQUIRE(P.col[j] == o.new_of_old[std::size_t(A.col[i])]);
      if constexpr (!is_pattern_v<V>)
        if (P.val[j] != A.val[i]) REQUIRE(P.val[j] == A.val[i]);
    }
  }
}

template <class Sr, class F, class S>
std::vector<typename Sr::value_type> run_spmv(const reordered_matrix<F, S>& m, const std::vector<typename Sr::value_type>& x) {
  using T = typename Sr::value_type;
  auto y = to_space<S>(std::vector<T>(x.size(), T(77)));  // a value no row sums to: a missed row fails
  spmv<Sr>(m, to_space<S>(x), y);
  return to_vector(y);
}

// The same product with the vectors kept in the renumbered order (PageRank's way), mapped back.
template <class Sr, class F, class S>
std::vector<typename Sr::value_type> run_ordered(const reordered_matrix<F, S>& m, const std::vector<typename Sr::value_type>& x) {
  using T = typename Sr::value_type;
  array<T, S> xp, yp(x.size()), y;
  to_order(*m.order, to_space<S>(x), xp);
  spmv<Sr>(m.inner, xp, yp);
  from_order(*m.order, yp, y);
  return to_vector(y);
}

template <class V>
void check(const char* name, const csr_matrix<V, H>& A) {
  CAPTURE(name);
  const auto ref = degree_grouped_order(A);
  const auto Ad = test::csr_in<D>(A);
  const auto dev = degree_grouped_order(Ad);
  require_order(A, ref);
  REQUIRE(to_vector(ref.old_of_new) == to_vector(dev.old_of_new));
  REQUIRE(to_vector(ref.new_of_old) == to_vector(dev.new_of_old));
  const auto P = permute(A, ref);
  const auto Pd = permute(Ad, dev);
  require_permuted(A, ref, P);
  REQUIRE(to_vector(P.row_ptr) == to_vector(Pd.row_ptr));
  REQUIRE(to_vector(P.col) == to_vector(Pd.col));
  REQUIRE(to_vector(P.val) == to_vector(Pd.val));

  auto oh = std::make_shared<const vertex_order<H>>(degree_grouped_order(A));
  auto od = std::make_shared<const vertex_order<D>>(degree_grouped_order(Ad));
  const reordered_matrix<csr_matrix<V, H>, H> plain_h{oh, permute(A, *oh)};
  const reordered_matrix<csr_merge_matrix<V, D>, D> merge_d{od, to_csr_merge(permute(Ad, *od))};
  const reordered_matrix<csr_matrix<V, D>, D> plain_d{od, permute(Ad, *od)};
  std::uint64_t seed = 300;
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    const auto x = test::random_x<Sr>(std::size_t(A.cols), ++seed);
    test::require_spmv_equal<Sr>(A, x, run_spmv<Sr>(plain_h, x), "reference, caller's order");
    test::require_spmv_equal<Sr>(A, x, run_spmv<Sr>(merge_d, x), "device merge path, caller's order");
    test::require_spmv_equal<Sr>(A, x, run_ordered<Sr>(merge_d, x), "device merge path, renumbered order");
    test::require_spmv_equal<Sr>(A, x, run_spmv<Sr>(plain_d, x), "device CSR, caller's order");
  });
}

template <class V>
void check_all_square() {
  check("empty 0x0", test::random_csr<V>(1, 0, 0, 0, test::shape::uniform));
  check("5x5 no entries", test::random_csr<V>(1, 5, 5, 0, test::shape::uniform));
  std::uint64_t seed = 40;
  for (vertex_t n : {1, 33, 1025, 60000})
    for (auto s : {test::shape::uniform, test::shape::power_law, test::shape::empty_rows, test::shape::one_huge_row}) {
      const std::string name = "random n=" + std::to_string(n) + " shape=" + std::to_string(int(s));
      check(name.c_str(), test::random_csr<V>(++seed, n, n, std::size_t(n) * 9, s));
    }
  for (const char* g : {"wiki-Vote.txt.gz", "west0067.mtx", "TG.cedge.data_23874.txt"})
    check(g, test::graph_csr<V>(std::string(FG_TEST_DATA_DIR) + "/pagerank/graphs/" + g));
}
}  // namespace

TEST_CASE_TEMPLATE("DBG renumbering: both twins build the defined order and P A Pt; SpMV through it is exact", V,
                   pattern, float, double) {
  check_all_square<V>();
}

TEST_CASE_TEMPLATE("DBG renumbering of a hand-checked graph", S, host_space, device_space) {
  // Column counts 0, 2, 1, 3: bit widths 0, 2, 1, 2, so vertices 1 and 3 (width 2, id order) lead,
  // then 2, then 0, which no entry names.
  csr_matrix<pattern, H> A;
  A.rows = A.cols = 4;
  A.row_ptr = to_space<H>(std::vector<offset_t>{0, 2, 3, 5, 6});
  A.col = to_space<H>(std::vector<vertex_t>{1, 3, 3, 2, 3, 1});
  const auto o = degree_grouped_order(test::csr_in<S>(A));
  CHECK(to_vector(o.old_of_new) == std::vector<vertex_t>{1, 3, 2, 0});
  CHECK(to_vector(o.new_of_old) == std::vector<vertex_t>{3, 0, 2, 1});
  const auto P = permute(test::csr_in<S>(A), o);
  // rows 1, 3, 2, 0 of A: {3}, {1}, {2, 3}, {1, 3}, renamed 1->0, 3->1, 2->2
  CHECK(to_vector(P.row_ptr) == std::vector<offset_t>{0, 1, 2, 4, 6});
  CHECK(to_vector(P.col) == std::vector<vertex_t>{1, 0, 2, 1, 0, 1});
  array<double, S> x = to_space<S>(std::vector<double>{10, 11, 12, 13}), xp, back;
  to_order(o, x, xp);
  CHECK(to_vector(xp) == std::vector<double>{11, 13, 12, 10});
  from_order(o, xp, back);
  CHECK(to_vector(back) == to_vector(x));
}

TEST_CASE("a renumbering needs a square matrix and vectors of its size") {
  const auto A = test::random_csr<float>(3, 10, 12, 40, test::shape::uniform);
  CHECK_THROWS_AS(degree_grouped_order(A), invalid_argument);
  const auto B = test::random_csr<float>(3, 10, 10, 40, test::shape::uniform);
  const auto o = degree_grouped_order(B);
  CHECK_THROWS_AS(permute(A, o), invalid_argument);
  array<float, H> x(9), y;
  CHECK_THROWS_AS(to_order(o, x, y), invalid_argument);
  CHECK_THROWS_AS(from_order(o, x, y), invalid_argument);
}
