// Column-sorted row partitions against the reference CSR SpMV in both twins for every semiring; the
// twins' layouts against each other and against an independent check of the partition rules; the
// CUDA kernel's tile order against a recomputation; and the shapes that break it: rows longer than a
// partition (pieces and their fix-up), runs of empty rows, more rows than one partition holds.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>

#include "storage/colsort.hpp"
#include "storage/detail/colsort_kernels.hpp"
#include "tests/backend/long_rows_support.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {

// Every partition: at most colsort_rows rows, its entries those of its rows (or a long row's piece of
// at most entries_cap), sorted by column, holding exactly A's (row, column, value) entries.
template <class V>
void require_layout(const csr_matrix<V, H>& A, const colsort_matrix<V, H>& m) {
  const auto parts = to_vector(m.parts);
  const offset_t cap = m.entries_cap;
  REQUIRE(cap == colsort_entries_cap(A.nnz()));
  vertex_t next_row = 0, most = 0;
  bool ok = true;
  std::vector<std::tuple<vertex_t, vertex_t, double>> got, want;
  for (std::size_t p = 0; p < parts.size() && ok; ++p) {
    const colsort_part& q = parts[p];
    most = std::max(most, q.rows);
    const bool piece = q.piece >= 0;
    ok = ok && q.rows >= 1 && q.rows <= colsort_rows && q.begin <= q.end;
    if (piece) {  // pieces of one long row: consecutive, cap entries each but the last
      ok = ok && q.rows == 1 && A.row_ptr[q.row0 + 1] - A.row_ptr[q.row0] > cap && q.end - q.begin <= cap &&
           q.begin == A.row_ptr[q.row0] + offset_t(q.piece) * cap;
      if (q.end == A.row_ptr[q.row0 + 1]) next_row = q.row0 + 1;
    } else {
      ok = ok && q.row0 == next_row && q.begin == A.row_ptr[q.row0] && q.end == A.row_ptr[q.row0 + q.rows];
      next_row = q.row0 + q.rows;
    }
    for (offset_t j = q.begin; ok && j < q.end; ++j) {
      ok = j == q.begin || m.col[j - 1] <= m.col[j];
      const vertex_t r = q.row0 + (piece ? 0 : vertex_t(m.lrow[j]));
      got.emplace_back(r, m.col[j], double(value_or<V>(m.val.data(), j, 1.0f)));
    }
  }
  REQUIRE(ok);
  REQUIRE(next_row == A.rows);
  REQUIRE(m.max_rows == most);
  for (vertex_t r = 0; r < A.rows; ++r)
    for (offset_t j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j)
      want.emplace_back(r, A.col[j], double(value_or<V>(A.val.data(), j, 1.0f)));
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  REQUIRE(got == want);
}

#if defined(FG_WITH_CUDA)
// The CUDA layout: each tile's entries are the column-sorted tile's, stably sorted by row.
template <class V>
void require_row_tiles(const colsort_matrix<V, H>& ref, const colsort_matrix<V, D>& rt) {
  const auto parts = to_vector(ref.parts);
  const auto col = to_vector(ref.col), rcol = to_vector(rt.col);
  const auto val = to_vector(ref.val), rval = to_vector(rt.val);
  const auto lrow = to_vector(ref.lrow), rlrow = to_vector(rt.lrow);
  REQUIRE(rcol.size() == col.size());
  REQUIRE(rlrow.size() == lrow.size());
  REQUIRE(rval.size() == val.size());
  bool ok = true;
  for (const colsort_part& q : parts)
    for (offset_t t0 = q.begin; ok && t0 < q.end; t0 += colsort_tile) {
      const std::size_t b = std::size_t(t0), n = std::size_t(std::min(colsort_tile, q.end - t0));
      std::vector<std::size_t> order(n);
      for (std::size_t i = 0; i < n; ++i) order[i] = b + i;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t u, std::size_t v) { return lrow[u] < lrow[v]; });
      for (std::size_t i = 0; ok && i < n; ++i)
        ok = rcol[b + i] == col[order[i]] && rlrow[b + i] == lrow[order[i]] && (val.empty() || rval[b + i] == val[order[i]]);
    }
  REQUIRE(ok);
}
#endif

// SpMV of a device layout against the CSR oracle, every semiring, and twice: the same bits again.
template <class V>
void require_spmv(const csr_matrix<V, H>& A, const colsort_matrix<V, D>& dev, const char* what) {
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    using T = typename Sr::value_type;
    const auto xs = test::random_x<Sr>(std::size_t(A.cols), 9);
    const auto xd = to_space<D>(xs);
    auto yd = to_space<D>(test::sentinel<T>(std::size_t(A.rows)));
    spmv<Sr>(dev, xd, yd);
    const auto first = to_vector(yd);
    test::require_spmv_equal<Sr>(A, xs, first, what);
    spmv<Sr>(dev, xd, yd);  // again: the same bits (the order of the sums is fixed), carries reused
    REQUIRE(to_vector(yd) == first);
  });
}

template <class V>
void check_matrix(const char* name, const csr_matrix<V, H>& A) {
  CAPTURE(name);
  const auto ref = to_colsort(A);
  const auto dev = to_colsort(test::csr_in<D>(A));
  require_layout(A, ref);
  REQUIRE(to_vector(dev.parts) == to_vector(ref.parts));
  REQUIRE(to_vector(dev.runs) == to_vector(ref.runs));
  REQUIRE(dev.max_rows == ref.max_rows);
  REQUIRE(dev.carry.size() == ref.parts.size());
#if defined(FG_WITH_CUDA)
  require_row_tiles(ref, dev);  // the reference's entries, each tile in row order
#else
  REQUIRE(to_vector(dev.col) == to_vector(ref.col));
  REQUIRE(to_vector(dev.val) == to_vector(ref.val));
  REQUIRE(to_vector(dev.lrow) == to_vector(ref.lrow));
#endif
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    using T = typename Sr::value_type;
    const auto xs = test::random_x<Sr>(std::size_t(A.cols), 9);
    auto yh = to_space<H>(test::sentinel<T>(std::size_t(A.rows)));
    spmv<Sr>(ref, to_space<H>(xs), yh);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yh), "reference twin");
  });
  require_spmv(A, dev, "device");
}

}  // namespace

TEST_CASE_TEMPLATE("colsort equals the reference on every test matrix", V, float, double, pattern) {
  test::for_each_test_matrix<V>([](const char* name, const csr_matrix<V, H>& A) { check_matrix<V>(name, A); });
}

TEST_CASE_TEMPLATE("colsort: long rows cut into pieces, empty runs, more rows than a partition", V, float, double, pattern) {
  test::for_each_long_row_matrix<V>([](const char* name, const csr_matrix<V, H>& A) { check_matrix<V>(name, A); });
  // two long rows side by side and one at the end, among empty rows: pieces, runs, empty partitions
  std::vector<offset_t> len(3 * std::size_t(colsort_rows) + 11, 0);
  len[5] = 40000, len[6] = 16385, len.back() = 70001;
  for (std::size_t r = 100; r < 200; ++r) len[r] = 3;
  check_matrix<V>("long rows among empty ones", test::csr_from_lengths<V>(len, 50000, 7));
  // one partition of 4000 rows: with 8-byte sums its tile and rows need 48 KB of shared memory,
  // which with the scan's own storage is past the default 48 KB (the opt-in must be asked for)
  check_matrix<V>("4000 rows of one entry", test::csr_from_lengths<V>(std::vector<offset_t>(4000, 1), 4000, 8));
}

TEST_CASE("colsort: the partition rules") {
  CHECK(colsort_entries_cap(0) == 16384);
  CHECK(colsort_entries_cap(offset_t(512) << 15) == offset_t(1) << 15);
  CHECK(colsort_entries_cap(offset_t(1) << 40) == offset_t(1) << 18);
  // rows of 3 entries, 20000 of them: groups cut every colsort_rows rows and at multiples of the cap
  const auto A = test::csr_from_lengths<float>(std::vector<offset_t>(20000, 3), 100, 3);
  const auto m = to_colsort(A);
  const auto parts = to_vector(m.parts);
  REQUIRE(parts.size() == 5);  // 60000 entries: cuts at rows 5462, 8192, 10923, 16384
  CHECK(parts[0].row0 == 0);
  CHECK(parts[0].rows == 5462);
  CHECK(parts[1].row0 == 5462);
  CHECK(parts[2].row0 == 8192);
  CHECK(parts[4].row0 == 16384);
  CHECK(m.runs.size() == 0);
  // one row of 40000 entries: three pieces and one run
  const auto L = to_colsort(test::csr_from_lengths<float>({2, 40000, 2}, 1000, 4));
  const auto lp = to_vector(L.parts);
  REQUIRE(lp.size() == 5);
  CHECK(lp[1] == colsort_part{2, 2 + 16384, 1, 1, 0});
  CHECK(lp[3] == colsort_part{2 + 32768, 40002, 1, 1, 2});
  REQUIRE(L.runs.size() == 1);
  CHECK(to_vector(L.runs)[0] == merge_run{1, 3, 1});
}

TEST_CASE("colsort rejects short vectors") {
  const auto m = to_colsort(test::random_csr<float>(3, 10, 12, 30, test::shape::uniform));
  array<float, H> x(11), y(10), x_short(5), y_short(9);
  CHECK_THROWS_AS(spmv<plus_times<float>>(m, x_short, y), invalid_argument);
  CHECK_THROWS_AS(spmv<plus_times<float>>(m, x, y_short), invalid_argument);
}
