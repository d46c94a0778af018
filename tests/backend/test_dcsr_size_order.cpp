// The size-ordered layout (dcsr_layout::size_order, King et al. 2016 §IV-B): a compaction places the
// rows bin by bin, both twins identically; the content is unchanged; every reader (DCSR SpMV, the
// binned ADCSR kernels on the store, to_csr) still gives the reference CSR's results; a batch that
// writes ends the layout's validity, one that writes nothing does not. Also ACSR's binned read of an
// unreordered CSR (spmv_binned with bin_rows), the baseline of the paper's +12%.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "core/error.hpp"
#include "storage/adcsr.hpp"
#include "tests/backend/long_rows_support.hpp"
#include "tests/format_support.hpp"
#include "tests/support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {

/// The reference store's physical layout: position k of the order holds row order[k] at
/// [order_ptr[k], order_ptr[k+1]), rows binned by length and in row order within a bin.
template <class V>
void require_size_layout(const dcsr_matrix<V, H>& s) {
  REQUIRE(s.size_ordered());
  const vertex_t n = s.rows();
  const auto order = to_vector(s.size_order());
  const auto ptr = to_vector(s.size_order_ptr());
  const auto& bins = s.size_bins();
  REQUIRE(order.size() == std::size_t(n));
  REQUIRE(ptr.size() == std::size_t(n) + 1);
  REQUIRE(bins[0] == 0);
  REQUIRE(bins[adcsr_bins] == n);
  REQUIRE(ptr[0] == 0);
  REQUIRE(ptr[std::size_t(n)] == s.nnz());
  std::vector<vertex_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<vertex_t> ids(static_cast<std::size_t>(n));
  std::iota(ids.begin(), ids.end(), 0);
  REQUIRE(sorted == ids);  // a permutation
  const dcsr_view<V> v = s.view();
  bool placed = true, binned = true, stable = true;
  for (int b = 0; b < adcsr_bins; ++b)
    for (vertex_t k = bins[std::size_t(b)]; k < bins[std::size_t(b) + 1]; ++k) {
      const vertex_t r = order[std::size_t(k)];
      binned = binned && adcsr_bin(v.sizes[r]) == b;
      stable = stable && (k == bins[std::size_t(b)] || order[std::size_t(k) - 1] < r);
      placed = placed && ptr[std::size_t(k) + 1] - ptr[std::size_t(k)] == v.sizes[r] &&
               (v.sizes[r] == 0 || (v.nseg[r] == 1 && v.seg[2 * offset_t(r)] == ptr[std::size_t(k)]));
    }
  REQUIRE(binned);
  REQUIRE(stable);
  REQUIRE(placed);
}

template <class V, class S>
void require_reads(const csr_matrix<V, H>& A, const dcsr_matrix<V, S>& store, bool binned, const char* what) {
  CAPTURE(what);
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    using T = typename Sr::value_type;
    const auto xs = test::random_x<Sr>(std::size_t(A.cols), 23);
    auto y = to_space<S>(test::sentinel<T>(std::size_t(A.rows)));
    spmv<Sr>(store, to_space<S>(xs), y);
    test::require_spmv_equal<Sr>(A, xs, to_vector(y), "dcsr kernel");
    if (binned) {
      auto yb = to_space<S>(test::sentinel<T>(std::size_t(A.rows)));
      spmv_binned<Sr>(store, to_space<S>(xs), yb);
      test::require_spmv_equal<Sr>(A, xs, to_vector(yb), "binned kernels on the store");
    }
  });
}

template <class V>
void check_store(vertex_t n, test::shape sh) {
  CAPTURE(n);
  const auto base = test::random_csr<V>(std::uint64_t(n) * 7, n, n, std::size_t(n) * 5, sh);
  dcsr_config cfg;
  cfg.dups = duplicates::accumulate;
  auto ref = dcsr_matrix<V, H>::from_csr(base, cfg);
  auto dev = dcsr_matrix<V, D>::from_csr(test::csr_in<D>(base), cfg);
  CHECK_FALSE(ref.size_ordered());
  const auto extra = dcsr_matrix<V, H>::from_csr(
      test::random_csr<V>(std::uint64_t(n) + 3, n, n, std::size_t(n) * 2, test::shape::power_law), cfg).to_coo();
  ref.insert_batch(extra);  // fragments rows: their new entries land in second segments
  dev.insert_batch(clone_coo<D>(extra));
  const auto A = ref.to_csr();

  ref.defragment(dcsr_layout::size_order);
  dev.defragment(dcsr_layout::size_order);
  ref.validate();
  dev.validate();
  test::require_identical(ref, dev);  // same content, counters, and (size_ordered) the same order
  require_size_layout(ref);
  REQUIRE(to_vector(ref.to_csr().col) == to_vector(A.col));  // content unchanged, row order outside
  CHECK(ref.allocation_pointer() == ref.nnz());
  require_reads(A, ref, true, "reference, size order");
  require_reads(A, dev, true, "device, size order");

  // A batch of entries already stored (collapse) writes nothing: the layout stays valid.
  dcsr_config col = cfg;
  col.dups = duplicates::collapse;
  col.layout = dcsr_layout::size_order;
  auto g = dcsr_matrix<V, D>::from_csr(test::csr_in<D>(A), col);
  g.defragment();  // the configured layout
  REQUIRE(g.size_ordered());
  if (A.nnz() > 0) {
    auto again = g.to_coo();
    g.insert_batch(again);
    CHECK(g.size_ordered());
  }

  // A batch that writes ends it; readers that need it refuse, the others go on.
  ref.insert_batch(extra);
  dev.insert_batch(clone_coo<D>(extra));
  CHECK_FALSE(ref.size_ordered());
  CHECK_FALSE(dev.size_ordered());
  using Sr = std::conditional_t<std::is_same_v<V, double>, plus_times<double>, plus_times<float>>;
  array<typename Sr::value_type, D> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  fill_zero(x);
  CHECK_THROWS_AS(spmv_binned<Sr>(dev, x, y), invalid_argument);
  const auto A2 = ref.to_csr();
  require_reads(A2, dev, false, "device, after a batch");
  test::require_identical(ref, dev);
  // A row-order compaction does not leave a stale order behind; growing the store neither.
  dev.defragment(dcsr_layout::size_order);
  REQUIRE(dev.size_ordered());
  dev.defragment(dcsr_layout::row_order);
  CHECK_FALSE(dev.size_ordered());
  dev.defragment(dcsr_layout::size_order);
  dev.resize(n + 5, n + 5);
  CHECK_FALSE(dev.size_ordered());
}

}  // namespace

TEST_CASE_TEMPLATE("size-ordered defragmentation places rows by bin in both twins, content and reads unchanged", V,
                   float, double, pattern) {
  for (vertex_t n : {1, 40, 1025, 30000}) check_store<V>(n, test::shape::power_law);
  check_store<V>(3000, test::shape::one_huge_row);
  check_store<V>(999, test::shape::empty_rows);
}

TEST_CASE("a store configured for size order compacts by size on its own, and stays exact") {
  dcsr_config cfg;
  cfg.layout = dcsr_layout::size_order;
  cfg.max_segments = 2;  // rows moved at almost every batch
  cfg.alpha = 0;
  cfg.row_growth = 0;
  dcsr_matrix<double, H> ref(cfg);
  dcsr_matrix<double, D> dev(cfg);
  test::edge_model model;
  model.collapse = ref.collapses_duplicates();
  std::mt19937_64 g(9);
  for (int b = 0; b < 60; ++b) {
    CAPTURE(b);
    test::edges e;
    for (int i = 0; i < 50; ++i) e.add(vertex_t(400 * std::pow(double(g() % 1000) / 1000, 3)), vertex_t(g() % 400), 1.0 + b);
    ref.insert_batch(make_coo<double, H>(e.r, e.c, e.v));
    dev.insert_batch(make_coo<double, D>(e.r, e.c, e.v));
    for (std::size_t i = 0; i < e.r.size(); ++i) model.add(e.r[i], e.c[i], e.v[i]);
    ref.validate();
    dev.validate();
    test::require_identical(ref, dev);
    test::require_matches(dev, model);
  }
  CHECK(ref.stats().rows_relocated > 0);
  ref.defragment();
  dev.defragment();
  require_size_layout(ref);
  test::require_identical(ref, dev);
  require_reads(ref.to_csr(), dev, true, "device after a configured defragment");
}

TEST_CASE_TEMPLATE("ACSR: the binned kernels over an unreordered CSR equal the reference", V, float, double, pattern) {
  test::for_each_test_matrix<V>([](const char* name, const csr_matrix<V, H>& A) {
    CAPTURE(name);
    const auto bh = bin_rows(A);
    const auto Ad = test::csr_in<D>(A);
    const auto bd = bin_rows(Ad);
    REQUIRE(to_vector(bh.perm) == to_vector(bd.perm));
    REQUIRE(bh.bin_ptr == bd.bin_ptr);
    test::for_each_semiring<V>([&](auto sr) {
      using Sr = decltype(sr);
      using T = typename Sr::value_type;
      const auto xs = test::random_x<Sr>(std::size_t(A.cols), 29);
      auto yh = to_space<H>(test::sentinel<T>(std::size_t(A.rows)));
      spmv_binned<Sr>(A, bh, to_space<H>(xs), yh);
      test::require_spmv_equal<Sr>(A, xs, to_vector(yh), "reference acsr");
      auto yd = to_space<D>(test::sentinel<T>(std::size_t(A.rows)));
      spmv_binned<Sr>(Ad, bd, to_space<D>(xs), yd);
      test::require_spmv_equal<Sr>(A, xs, to_vector(yd), "device acsr");
    });
  });
}

TEST_CASE("an empty store compacts by size too, and reads as empty") {
  dcsr_matrix<float, D> s;
  s.defragment(dcsr_layout::size_order);
  CHECK(s.size_ordered());
  array<float, D> x(0), y(0);
  spmv_binned<plus_times<float>>(s, x, y);  // nothing to do, no error
  s.insert_batch(make_coo<float, D>({0}, {0}, {1.0f}));
  CHECK_FALSE(s.size_ordered());
}
