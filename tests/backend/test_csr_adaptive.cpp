// CSR-Adaptive against the reference CSR SpMV in both twins, and its row-block cut against the rule
// (identical in both twins; every block < 2 * block_nnz products unless it is one long row).
#include <doctest/doctest.h>

#include "storage/csr_adaptive.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {
template <class V>
void check_matrix(const char* name, const csr_matrix<V, H>& A, offset_t block_nnz) {
  CAPTURE(name);
  CAPTURE(block_nnz);
  csr_adaptive_options o;
  o.block_nnz = block_nnz;
  const auto ref = to_csr_adaptive(A, o);
  const auto dev = to_csr_adaptive(test::csr_in<D>(A), o);
  REQUIRE(to_vector(dev.row_blocks) == to_vector(ref.row_blocks));
  const auto rb = to_vector(ref.row_blocks);
  REQUIRE(rb.front() == 0);
  REQUIRE(rb.back() == A.rows);
  for (std::size_t b = 0; b + 1 < rb.size(); ++b) {
    const offset_t nnz = A.row_ptr[std::size_t(rb[b + 1])] - A.row_ptr[std::size_t(rb[b])];
    REQUIRE(rb[b] < rb[b + 1]);
    REQUIRE((nnz < 2 * block_nnz || rb[b + 1] - rb[b] == 1));
  }
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    using T = typename Sr::value_type;
    const auto xs = test::random_x<Sr>(std::size_t(A.cols), 9);
    array<T, H> yh(std::size_t(A.rows));
    spmv<Sr>(ref, to_space<H>(xs), yh);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yh), "reference twin");
    array<T, D> yd(std::size_t(A.rows));
    spmv<Sr>(dev, to_space<D>(xs), yd);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yd), "device");
  });
}
}  // namespace

TEST_CASE_TEMPLATE("CSR-Adaptive equals the reference on every test matrix", V, float, double, pattern) {
  test::for_each_test_matrix<V>([](const char* name, const csr_matrix<V, H>& A) { check_matrix<V>(name, A, 1024); });
}

TEST_CASE("CSR-Adaptive block sizes: tiny buckets, long rows alone, and bad options") {
  const auto A = test::random_csr<float>(3, 3000, 3000, 60000, test::shape::one_huge_row);
  for (offset_t b : {32, 33, 100, 1024, 2048}) check_matrix<float>("huge row", A, b);
  CHECK_THROWS_AS(to_csr_adaptive(A, csr_adaptive_options{8}), invalid_argument);
  CHECK_THROWS_AS(to_csr_adaptive(A, csr_adaptive_options{4096}), invalid_argument);  // shared memory
}
