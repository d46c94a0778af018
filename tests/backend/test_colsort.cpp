// Column-sorted row partitions against the reference CSR SpMV in both twins for every semiring; the
// twins' layouts against each other and against an independent check of the partition rules; the
// CUDA layout's tiles (row order, packed words) against a recomputation; and the shapes that break it: rows longer than a
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
// The CUDA layout: each tile's entries are the column-sorted tile's, stably sorted by row, and the
// rows of each tile follow the last one's in lrow; with colsort_options::packed, exactly the tiles
// whose columns span < 2^colsort_col_bits are packed words instead (row, offset from the tile's
// first column) with no rows in lrow. Decoded here independently of the kernel.
template <class V>
void require_row_tiles(const colsort_matrix<V, H>& ref, const colsort_matrix<V, D>& rt, bool pack) {
  const auto parts = to_vector(ref.parts);
  const auto col = to_vector(ref.col), rcol = to_vector(rt.col);
  const auto val = to_vector(ref.val), rval = to_vector(rt.val);
  const auto lrow = to_vector(ref.lrow), rlrow = to_vector(rt.lrow);
  const auto tile0 = to_vector(rt.tile0);
  const auto info = to_vector(rt.tile_info);
  REQUIRE(rcol.size() == col.size());
  REQUIRE(rval.size() == val.size());
  REQUIRE(tile0.size() == (parts.empty() ? 0 : parts.size() + 1));
  REQUIRE(info.size() == std::size_t(tile0.empty() ? 0 : tile0.back()));
  bool ok = true;
  for (std::size_t p = 0; p < parts.size(); ++p)  // ceil(entries / colsort_tile) tiles a partition
    ok = ok && tile0[p + 1] - tile0[p] == (parts[p].end - parts[p].begin + colsort_tile - 1) / colsort_tile;
  REQUIRE(ok);
  std::size_t at = 0;  // where the next unpacked tile's rows start
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const colsort_part& q = parts[p];
    std::size_t tile = std::size_t(tile0[p]);
    for (offset_t t0 = q.begin; ok && t0 < q.end; t0 += colsort_tile, ++tile) {
      const std::size_t b = std::size_t(t0), n = std::size_t(std::min(colsort_tile, q.end - t0));
      const std::uint32_t first = std::uint32_t(col[b]);
      const bool packed = pack && std::uint32_t(col[b + n - 1]) - first < (1u << colsort_col_bits);
      ok = info[tile] == (packed ? colsort_packed_tile | first : std::uint64_t(at)) && (packed || at + n <= rlrow.size());
      std::vector<std::size_t> order(n);
      for (std::size_t i = 0; i < n; ++i) order[i] = b + i;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t u, std::size_t v) { return lrow[u] < lrow[v]; });
      for (std::size_t i = 0; ok && i < n; ++i) {
        const std::uint32_t w = std::uint32_t(rcol[b + i]);
        const vertex_t c = packed ? vertex_t(first + (w & ((1u << colsort_col_bits) - 1))) : rcol[b + i];
        const std::uint32_t r = packed ? w >> colsort_col_bits : rlrow[at + i];
        ok = c == col[order[i]] && r == lrow[order[i]] && (val.empty() || rval[b + i] == val[order[i]]);
      }
      if (!packed) at += n;
    }
  }
  REQUIRE(ok);
  REQUIRE(rlrow.size() == at);
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
  require_row_tiles(ref, dev, false);  // the reference's entries, each tile in row order
  const auto packed = to_colsort(test::csr_in<D>(A), colsort_options{true});
  require_row_tiles(ref, packed, true);
  require_spmv(A, packed, "device, packed tiles");
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

#if defined(FG_WITH_CUDA)
// `groups` partitions of 8 rows (one 8192-row group each), each with 2048 entries of columns
// base..base+2047 and 2048 more: `tail` entries spread by `step` from base + 2048 (a tile of span
// 2047 + tail * step, with the last of those tiles partial when tail < 2048) after them.
template <class V>
csr_matrix<V, host_space> narrow_then_wide(int groups, vertex_t tail, vertex_t step) {
  const vertex_t cols = 2048 + step * tail + 1;
  std::vector<std::vector<vertex_t>> in(std::size_t(groups) * colsort_rows);
  for (int g = 0; g < groups; ++g) {
    auto* r = &in[std::size_t(g) * colsort_rows];
    for (vertex_t k = 0; k < 2048; ++k) r[k % 8].push_back(k);
    for (vertex_t k = 0; k < tail; ++k) r[(k * 3) % 8].push_back(2048 + step * k);
  }
  for (auto& r : in) std::sort(r.begin(), r.end());
  return test::csr_from_rows<V>(cols, in);
}

TEST_CASE_TEMPLATE("colsort packed tiles: narrow tiles packed, wide ones beside them not", V, float, double, pattern) {
  // one partition: columns 0..2047 (span 2047) and 2048 + 977 k, k < 2048 (span 977 * 2047 > 2^19)
  const auto A = narrow_then_wide<V>(1, 2048, 977);
  const auto m = to_colsort(test::csr_in<D>(A), colsort_options{true});
  REQUIRE(m.parts.size() == 1);
  CHECK(to_vector(m.tile_info) == std::vector<std::uint64_t>{colsort_packed_tile | 0u, 0u});
  CHECK(m.lrow.size() == 2048);  // the wide tile's rows only
  check_matrix<V>("a narrow tile and a wide one", A);
  // the bound: a second tile of columns 2048 + step k spans step * 2047: 255 -> 521,985 < 2^19
  // (packed, its first column 2048); 257 -> 526,079 >= 2^19 (not)
  const auto in = to_colsort(test::csr_in<D>(narrow_then_wide<V>(1, 2048, 255)), colsort_options{true});
  CHECK(to_vector(in.tile_info)[1] == (colsort_packed_tile | 2048u));
  const auto out = to_colsort(test::csr_in<D>(narrow_then_wide<V>(1, 2048, 257)), colsort_options{true});
  CHECK(to_vector(out.tile_info)[1] == 0u);
  // three partitions, each a packed tile then a partial unpacked one of 700 entries: rows at 0, 700, 1400
  const auto B = narrow_then_wide<V>(3, 700, 5000);
  const auto mb = to_colsort(test::csr_in<D>(B), colsort_options{true});
  REQUIRE(mb.parts.size() == 3);
  CHECK(to_vector(mb.tile_info) == std::vector<std::uint64_t>{colsort_packed_tile, 0, colsort_packed_tile, 700,
                                                              colsort_packed_tile, 1400});
  CHECK(mb.lrow.size() == 2100);
  check_matrix<V>("three partitions of a packed tile and a partial wide one", B);
}
#endif

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
