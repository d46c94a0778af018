// CSR-scalar SpMV (storage/csr_scalar.hpp), both twins, against the reference CSR SpMV for every
// test matrix and every semiring it is built for.
#include <doctest/doctest.h>

#include "core/semiring.hpp"
#include "storage/csr_scalar.hpp"
#include "tests/backend/long_rows_support.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {
template <class V>
void check(const char* name, const csr_matrix<V, H>& A) {
  CAPTURE(name);
  const auto Ad = test::csr_in<D>(A);
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    using T = typename Sr::value_type;
    const auto xs = test::random_x<Sr>(std::size_t(A.cols), 11);
    auto yh = to_space<H>(test::sentinel<T>(std::size_t(A.rows)));
    spmv_scalar<Sr>(A, to_space<H>(xs), yh);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yh), "reference csr_scalar");
    auto yd = to_space<D>(test::sentinel<T>(std::size_t(A.rows)));
    spmv_scalar<Sr>(Ad, to_space<D>(xs), yd);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yd), "device csr_scalar");
  });
}
template <class V>
void check_all() {
  test::for_each_test_matrix<V>([](const char* name, const auto& A) { check<V>(name, A); });
  test::for_each_long_row_matrix<V>([](const char* name, const auto& A) { check<V>(name, A); });
}
}  // namespace

TEST_CASE("csr_scalar SpMV of both twins equals the reference CSR SpMV") {
  SUBCASE("float") { check_all<float>(); }
  SUBCASE("double") { check_all<double>(); }
  SUBCASE("pattern") { check_all<pattern>(); }
}

TEST_CASE("csr_scalar SpMV rejects short vectors") {
  const auto A = test::random_csr<float>(3, 10, 12, 30, test::shape::uniform);
  array<float, H> x(11), y(10), x_ok(12), y_short(9);
  CHECK_THROWS_AS(spmv_scalar<plus_times<float>>(A, x, y), invalid_argument);
  CHECK_THROWS_AS(spmv_scalar<plus_times<float>>(A, x_ok, y_short), invalid_argument);
}
