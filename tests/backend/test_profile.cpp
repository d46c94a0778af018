// The matrix profile: device pass equals its reference twin exactly, and a hand-checked case.
#include <doctest/doctest.h>

#include "read/profile.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {
void require_same(const matrix_profile& a, const matrix_profile& b) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.nnz == b.nnz);
  REQUIRE(a.max_row == b.max_row);
  REQUIRE(a.empty_rows == b.empty_rows);
  REQUIRE(a.histogram == b.histogram);
  REQUIRE(a.mu == doctest::Approx(b.mu));
  REQUIRE(a.sigma == doctest::Approx(b.sigma));
  REQUIRE(a.segments_per_row == doctest::Approx(b.segments_per_row));
  REQUIRE(a.gap_fraction == doctest::Approx(b.gap_fraction));
}
}  // namespace

TEST_CASE("profile of a hand-checked 5-row matrix") {
  // row lengths 0, 1, 2, 3, 10 -> bins 0, 1, 2, 2, 4
  const std::array<int, 5> lengths = {0, 1, 2, 3, 10};
  std::vector<vertex_t> r, c;
  for (vertex_t row = 0; row < 5; ++row)
    for (int j = 0; j < lengths[std::size_t(row)]; ++j) r.push_back(row), c.push_back(j);
  dcsr_config rect;
  rect.square = false;
  const auto A = dcsr_matrix<pattern, H>::from_coo(make_coo<pattern, H>(r, c), 5, 16, rect);
  const matrix_profile p = profile(A.to_csr());
  CHECK(p.nnz == 16);
  CHECK(p.mu == doctest::Approx(3.2));
  CHECK(p.sigma == doctest::Approx(std::sqrt((0 + 1 + 4 + 9 + 100) / 5.0 - 3.2 * 3.2)));
  CHECK(p.max_row == 10);
  CHECK(p.empty_rows == 1);
  CHECK(p.histogram[0] == 1);
  CHECK(p.histogram[1] == 1);
  CHECK(p.histogram[2] == 2);
  CHECK(p.histogram[4] == 1);
  CHECK(rows_at_least(p, 8) == doctest::Approx(1.0));
  CHECK(rows_at_least(p, 2) == doctest::Approx(3.0));
  CHECK(p.value_type == "pattern");
}

TEST_CASE_TEMPLATE("device profile equals the reference twin on every test matrix", V, float, double, pattern) {
  test::for_each_test_matrix<V>([](const char* name, const csr_matrix<V, H>& A) {
    CAPTURE(name);
    require_same(profile(test::csr_in<D>(A)), profile(A));
  });
}

TEST_CASE("DCSR fragmentation: segments per row and gap fraction, device equals reference") {
  dcsr_config cfg;
  cfg.alpha = 4;
  cfg.row_growth = 0;
  dcsr_matrix<pattern, H> ref(cfg);
  dcsr_matrix<pattern, D> dev(cfg);
  for (int b = 0; b < 3; ++b) {
    std::vector<vertex_t> r, c;
    for (vertex_t i = 0; i < 100; ++i) r.push_back(i % 10), c.push_back(b * 100 + i);
    ref.insert_batch(make_coo<pattern, H>(r, c));
    dev.insert_batch(make_coo<pattern, D>(r, c));
  }
  const matrix_profile p = profile(dev);
  require_same(p, profile(ref));
  // 10 rows x 30 entries; each batch of 10 per row: segment of 10 + 4, the next 10 need 6 more + 4
  CHECK(p.segments_per_row > 1.0);
  CHECK(p.gap_fraction > 0.0);
  dev.defragment();
  const matrix_profile packed = profile(dev);
  CHECK(packed.segments_per_row == 1.0);
  CHECK(packed.gap_fraction == 0.0);
}
