// Merge-path CSR against the reference CSR SpMV in both twins, for every semiring; its tiles and fix-up
// runs against an independent recomputation of the merge path (identical in both twins); and the
// shapes that break merge-based kernels: empty rows, a row cut by many tiles, tiles ending exactly at
// row ends, item counts just past a tile.
#include <doctest/doctest.h>

#include <algorithm>

#include "storage/csr_merge.hpp"
#include "tests/backend/long_rows_support.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {

// Every coordinate is the path point on its diagonal; runs group the tiles that carry a partial row.
template <class V>
void require_structure(const csr_matrix<V, H>& A, const csr_merge_matrix<V, H>& m) {
  const offset_t tile = csr_merge_tile_items<V>, items = offset_t(A.rows) + A.nnz();
  REQUIRE(m.tile_items == tile);
  REQUIRE(m.tiles == (items + tile - 1) / tile);
  if (m.tiles == 0) {
    REQUIRE(m.runs.size() == 0);
    return;
  }
  const auto c = to_vector(m.coords);
  REQUIRE(c.size() == std::size_t(m.tiles + 1));
  REQUIRE(c.back() == merge_coord{A.rows, A.nnz()});
  bool on_path = true;
  std::vector<merge_run> runs;
  for (offset_t t = 0; t <= m.tiles; ++t) {
    const merge_coord p = c[std::size_t(t)];
    const auto i = std::size_t(p.row);
    on_path = on_path && p.row + p.nz == std::min(t * tile, items) && p.row >= 0 && p.row <= A.rows &&
              (i == 0 || A.row_ptr[i] <= p.nz) && (p.row == A.rows || p.nz <= A.row_ptr[i + 1]);
    if (t == m.tiles || !on_path) continue;
    // tile t carries when it ends inside a row and holds some of that row's nonzeros
    const offset_t r = c[std::size_t(t) + 1].row;
    if (r == A.rows || c[std::size_t(t) + 1].nz <= std::max(p.nz, A.row_ptr[std::size_t(r)])) continue;
    if (!runs.empty() && runs.back().row == r && runs.back().first + runs.back().count == t) ++runs.back().count;
    else runs.push_back({vertex_t(r), 1, t});
  }
  REQUIRE(on_path);
  REQUIRE(to_vector(m.runs) == runs);
}

template <class V>
void check_matrix(const char* name, const csr_matrix<V, H>& A) {
  CAPTURE(name);
  const auto ref = to_csr_merge(A);
  const auto dev = to_csr_merge(test::csr_in<D>(A));
  require_structure(A, ref);
  REQUIRE(dev.tiles == ref.tiles);
  REQUIRE(to_vector(dev.coords) == to_vector(ref.coords));
  REQUIRE(to_vector(dev.runs) == to_vector(ref.runs));
  REQUIRE(dev.carry.size() == std::size_t(dev.tiles));  // the device kernel's scratch, allocated once
  // the device kernel's 32-bit row ends: row_ptr[1..rows] narrowed (nnz < 2^31 here)
  REQUIRE(dev.row_end32.size() == std::size_t(A.rows));
  {
    const auto r32 = to_vector(dev.row_end32);
    bool same = true;
    for (std::size_t i = 0; i < r32.size() && same; ++i) same = offset_t(r32[i]) == A.row_ptr[i + 1];
    REQUIRE(same);
  }
  REQUIRE(dev.bytes() == ref.bytes() + dev.carry.bytes() + dev.row_end32.bytes());
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    using T = typename Sr::value_type;
    const auto xs = test::random_x<Sr>(std::size_t(A.cols), 9);
    auto yh = to_space<H>(test::sentinel<T>(std::size_t(A.rows)));
    spmv<Sr>(ref, to_space<H>(xs), yh);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yh), "reference twin");
    const auto xd = to_space<D>(xs);
    auto yd = to_space<D>(test::sentinel<T>(std::size_t(A.rows)));
    spmv<Sr>(dev, xd, yd);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yd), "device");
    spmv<Sr>(dev, xd, yd);  // again: the carry slots are reused, nothing accumulates across calls
    test::require_spmv_equal<Sr>(A, xs, to_vector(yd), "device, second call");
  });
}

// Shapes placed against the tile size of V.
template <class V, class F>
void for_each_tile_edge_matrix(F&& f) {
  const auto tile = std::size_t(csr_merge_tile_items<V>), ipt = std::size_t(csr_merge_items_per_thread<V>);
  f("one tile of empty rows", test::csr_from_lengths<V>(std::vector<offset_t>(tile, 0), 10, 1));
  f("one item past a tile", test::csr_from_lengths<V>(std::vector<offset_t>(tile + 1, 0), 10, 2));
  f("a single row over many tiles", test::csr_from_lengths<V>({offset_t(5 * tile + 3)}, 1000, 3));
  // rows of ipt - 1 nonzeros: every thread and every tile ends exactly at a row end (no carries)
  f("tiles ending at row ends", test::csr_from_lengths<V>(std::vector<offset_t>(3 * tile / ipt, offset_t(ipt) - 1), 50, 4));
  std::vector<offset_t> hub(3 * tile + 5, 0);
  hub[1] = 3;
  hub[tile] = 40 * offset_t(tile);  // one row holding almost all nonzeros, among empty rows
  hub.back() = 2;
  f("one row holding almost all nonzeros", test::csr_from_lengths<V>(hub, 4000, 5));
  std::vector<offset_t> mixed;
  for (std::size_t r = 0; r < 4 * tile; ++r) mixed.push_back(r % 97 == 0 ? offset_t(tile) + offset_t(r % 5) : offset_t(r % 3));
  f("rows of about a tile among short ones", test::csr_from_lengths<V>(mixed, 9000, 6));
}

}  // namespace

TEST_CASE_TEMPLATE("merge-path CSR equals the reference on every test matrix", V, float, double, pattern) {
  test::for_each_test_matrix<V>([](const char* name, const csr_matrix<V, H>& A) { check_matrix<V>(name, A); });
}

TEST_CASE_TEMPLATE("merge-path CSR: long rows, rows cut by many tiles, tile edges", V, float, double, pattern) {
  test::for_each_long_row_matrix<V>([](const char* name, const csr_matrix<V, H>& A) { check_matrix<V>(name, A); });
  for_each_tile_edge_matrix<V>([](const char* name, const csr_matrix<V, H>& A) { check_matrix<V>(name, A); });
}

TEST_CASE("merge-path CSR: the tile-edge shapes have the carries they are meant to have") {
  const auto tile = std::size_t(csr_merge_tile_items<float>);
  const auto exact = to_csr_merge(test::csr_from_lengths<float>(std::vector<offset_t>(3 * tile / 7, 6), 50, 4));
  CHECK(exact.tiles == 3);
  CHECK(exact.runs.size() == 0);
  const auto one = to_csr_merge(test::csr_from_lengths<float>({offset_t(5 * tile + 3)}, 1000, 3));
  CHECK(one.tiles == 6);
  REQUIRE(one.runs.size() == 1);  // the row is cut by five tile ends: one run of five carries
  CHECK(one.runs[0] == merge_run{0, 5, 0});
  CHECK(to_csr_merge(test::csr_from_lengths<double>({offset_t(5 * tile + 3)}, 1000, 3)).tile_items == 1280);
}

TEST_CASE("merge-path CSR rejects short vectors") {
  const auto m = to_csr_merge(test::random_csr<float>(3, 10, 12, 30, test::shape::uniform));
  array<float, H> x(11), y(10), x_short(5), y_short(9);
  CHECK_THROWS_AS(spmv<plus_times<float>>(m, x_short, y), invalid_argument);
  CHECK_THROWS_AS(spmv<plus_times<float>>(m, x, y_short), invalid_argument);
}
