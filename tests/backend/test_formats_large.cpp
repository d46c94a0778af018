// Every read-optimized format on a matrix past 2^24 nonzeros (where 32-bit float indexing and
// 24-bit tricks break), against the reference CSR SpMV. GPU only: on OpenMP it would only repeat
// the random-matrix tests at a size CI cannot afford.
#include <doctest/doctest.h>

#include <cstring>

#include "storage/adcsr.hpp"
#include "storage/cmrs.hpp"
#include "storage/csr_adaptive.hpp"
#include "storage/csr_merge.hpp"
#include "storage/csr_scalar.hpp"
#include "storage/hyb.hpp"
#include "storage/sell.hpp"
#include "storage/suraa.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using D = device_space;

TEST_CASE("every format computes the same SpMV as the reference past 2^24 nonzeros (GPU)") {
  if (std::strcmp(device_backend_name(), "cuda") != 0) {
    MESSAGE("skipped: the >2^24-nonzero case runs in the CUDA build");
    return;
  }
  const vertex_t n = 1 << 21;
  const auto host = test::random_csr<float>(99, n, n, std::size_t(9) << 21, test::shape::power_law);  // 18.9 M
  REQUIRE(host.nnz() > (offset_t(1) << 24));
  const auto A = test::csr_in<D>(host);
  using Sr = plus_times<float>;
  const auto xs = test::random_x<Sr>(std::size_t(n), 4);
  const auto x = to_space<D>(xs);
  array<float, D> y(static_cast<std::size_t>(n));
  auto check = [&](const char* what, auto&& run) {
    memory::zero_on_device(y.data(), y.bytes());
    run();
    test::require_spmv_equal<Sr>(host, xs, to_vector(y), what);
  };
  check("csr vector", [&] { spmv<Sr>(A, x, y); });
  check("csr scalar", [&] { spmv_scalar<Sr>(A, x, y); });
  check("csr adaptive", [&] { spmv<Sr>(to_csr_adaptive(A), x, y); });
  check("csr merge", [&] { spmv<Sr>(to_csr_merge(A), x, y); });
  check("dcsr", [&] { spmv<Sr>(dcsr_matrix<float, D>::from_csr(A), x, y); });
  check("sell", [&] { spmv<Sr>(to_sell(A), x, y); });
  check("hyb", [&] { spmv<Sr>(to_hyb(A), x, y); });
  check("cmrs", [&] { spmv<Sr>(to_cmrs(A), x, y); });
  cmrs_options mod;
  mod.variant = cmrs_variant::modified;
  check("cmrs modified", [&] { spmv<Sr>(to_cmrs(A, mod), x, y); });
  check("adcsr", [&] { spmv<Sr>(to_adcsr(A), x, y); });
  for (bool dp : {true, false}) {
    suraa_options o;
    o.dynamic_parallelism = dp;
    check(dp ? "suraa dp" : "suraa once", [&] { spmv<Sr>(to_suraa(A, o), x, y); });
  }
}
