// ADCSR (storage/adcsr.hpp): the reference and device twins bin identically (same permutation and
// bin starts, rows of each bin in original order), every row sits in the bin its length names, and
// SpMV of both twins equals the reference CSR SpMV for every test matrix and semiring, also when
// built from a fragmented and a defragmented DCSR store.
#include <doctest/doctest.h>

#include "core/semiring.hpp"
#include <algorithm>

#include "storage/adcsr.hpp"
#include "tests/backend/long_rows_support.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {

template <class V>
void require_bins(const csr_matrix<V, H>& A, const adcsr_matrix<V, H>& m) {
  REQUIRE(m.bin_ptr[0] == 0);
  REQUIRE(m.bin_ptr[adcsr_bins] == A.rows);
  std::vector<bool> seen(static_cast<std::size_t>(A.rows), false);
  for (int b = 0; b < adcsr_bins; ++b) {
    CAPTURE(b);
    const auto first = m.bin_ptr[std::size_t(b)], last = m.bin_ptr[std::size_t(b) + 1];
    REQUIRE(first <= last);
    // Bin b holds lengths [lo, hi]: 0-1, 2-3, 4-8, then (2^b, 2^(b+1)], the last bin unbounded.
    const offset_t lo = b == 0 ? 0 : b == 1 ? 2 : b == 2 ? 4 : (offset_t(1) << b) + 1;
    const offset_t hi = b == 0 ? 1 : b == 1 ? 3 : b == 2 ? 8 : b == adcsr_bins - 1 ? offset_t(1) << 62 : offset_t(1) << (b + 1);
    bool fresh = true, fits = true, stable = true;  // one REQUIRE per property, not per row
    for (vertex_t k = first; k < last && fresh; ++k) {
      const vertex_t r = m.perm[std::size_t(k)];
      fresh = r >= 0 && r < A.rows && !seen[std::size_t(r)];
      if (!fresh) break;
      seen[std::size_t(r)] = true;
      const offset_t n = A.row_ptr[std::size_t(r) + 1] - A.row_ptr[std::size_t(r)];
      fits = fits && n >= lo && n <= hi;
      stable = stable && (k == first || m.perm[std::size_t(k) - 1] < r);
    }
    REQUIRE(fresh);
    REQUIRE(fits);
    REQUIRE(stable);
  }
}

template <class V, class M>
void check_spmv(const csr_matrix<V, H>& A, const adcsr_matrix<V, H>& ref, const M& dev, const char* what) {
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    using T = typename Sr::value_type;
    const auto xs = test::random_x<Sr>(std::size_t(A.cols), 17);
    auto yh = to_space<H>(test::sentinel<T>(std::size_t(A.rows)));
    spmv<Sr>(ref, to_space<H>(xs), yh);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yh), "reference adcsr");
    auto yd = to_space<D>(test::sentinel<T>(std::size_t(A.rows)));
    spmv<Sr>(dev, to_space<D>(xs), yd);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yd), what);
  });
}

template <class V>
void check(const char* name, const csr_matrix<V, H>& A) {
  CAPTURE(name);
  const auto ref = to_adcsr(A);
  const auto dev = to_adcsr(test::csr_in<D>(A));
  REQUIRE(to_vector(ref.perm) == to_vector(dev.perm));
  REQUIRE(ref.bin_ptr == dev.bin_ptr);
  // the rows are stored in bin order (§IV-B), identically in both twins: row k is row perm[k] of A
  REQUIRE(to_vector(ref.row_ptr) == to_vector(dev.row_ptr));
  REQUIRE(to_vector(ref.col) == to_vector(dev.col));
  REQUIRE(to_vector(ref.val) == to_vector(dev.val));
  {
    const auto rp = to_vector(ref.row_ptr), prp = to_vector(A.row_ptr);
    const auto col = to_vector(ref.col), acol = to_vector(A.col);
    const auto perm = to_vector(ref.perm);
    bool same = rp.size() == prp.size();
    for (std::size_t k = 0; same && k < perm.size(); ++k) {
      const auto r = std::size_t(perm[k]);
      same = rp[k + 1] - rp[k] == prp[r + 1] - prp[r] &&
             std::equal(col.begin() + rp[k], col.begin() + rp[k + 1], acol.begin() + prp[r]);
    }
    REQUIRE(same);
  }
  require_bins(A, ref);
  check_spmv(A, ref, dev, "device adcsr");
}

template <class V>
void check_all() {
  test::for_each_test_matrix<V>([](const char* name, const auto& A) { check<V>(name, A); });
  test::for_each_long_row_matrix<V>([](const char* name, const auto& A) { check<V>(name, A); });
}

}  // namespace

TEST_CASE("adcsr binning of both twins agrees and SpMV equals the reference CSR SpMV") {
  SUBCASE("float") { check_all<float>(); }
  SUBCASE("double") { check_all<double>(); }
  SUBCASE("pattern") { check_all<pattern>(); }
}

TEST_CASE("adcsr bins follow the paper's lengths") {
  CHECK(adcsr_bin(0) == 0);
  CHECK(adcsr_bin(1) == 0);
  CHECK(adcsr_bin(2) == 1);
  CHECK(adcsr_bin(3) == 1);
  CHECK(adcsr_bin(4) == 2);
  CHECK(adcsr_bin(8) == 2);
  CHECK(adcsr_bin(9) == 3);
  CHECK(adcsr_bin(16) == 3);
  CHECK(adcsr_bin(17) == 4);
  CHECK(adcsr_bin(32) == 4);
  CHECK(adcsr_bin(33) == 5);
  CHECK(adcsr_bin(64) == 5);
  CHECK(adcsr_bin(65) == 6);
  CHECK(adcsr_bin(1024) == 9);
  CHECK(adcsr_bin(1025) == 10);
  CHECK(adcsr_bin(offset_t(1) << 40) == 10);
}

TEST_CASE("adcsr on a DCSR store, fragmented and defragmented") {
  for (vertex_t n : {33, 1025, 20000}) {
    CAPTURE(n);
    const auto base = test::random_csr<double>(std::uint64_t(n), n, n, std::size_t(n) * 6, test::shape::power_law);
    dcsr_config cfg;
    cfg.dups = duplicates::accumulate;
    auto ref_store = dcsr_matrix<double, H>::from_csr(base, cfg);
    auto dev_store = dcsr_matrix<double, D>::from_csr(test::csr_in<D>(base), cfg);
    // A second batch fragments rows: the entries land in new segments.
    const auto extra = test::random_csr<double>(std::uint64_t(n) + 1, n, n, std::size_t(n) * 3, test::shape::power_law);
    const auto coo = dcsr_matrix<double, H>::from_csr(extra, cfg).to_coo();
    ref_store.insert_batch(coo);
    dev_store.insert_batch(clone_coo<D>(coo));
    for (int pass = 0; pass < 2; ++pass) {
      CAPTURE(pass);
      const auto A = ref_store.to_csr();
      const auto ref = to_adcsr(ref_store);
      const auto dev = to_adcsr(dev_store);
      REQUIRE(to_vector(ref.perm) == to_vector(dev.perm));
      require_bins(A, ref);
      check_spmv(A, ref, dev, "device adcsr from dcsr");
      ref_store.defragment();
      dev_store.defragment();
    }
  }
}
