// SURAA (storage/suraa.hpp): the reference and device conversions build identical matrices (sorted
// rows, rearranged entries, Freedman–Diaconis figures, segments and groups), the structure obeys the
// paper's rules, and SpMV of both twins, with and without dynamic parallelism, equals the reference
// CSR SpMV for every test matrix and semiring.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/semiring.hpp"
#include "storage/suraa.hpp"
#include "tests/backend/long_rows_support.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {

template <class V, class S1, class S2>
void require_identical(const suraa_matrix<V, S1>& a, const suraa_matrix<V, S2>& b) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.cols == b.cols);
  REQUIRE(to_vector(a.perm) == to_vector(b.perm));
  REQUIRE(to_vector(a.row_ptr) == to_vector(b.row_ptr));
  REQUIRE(to_vector(a.col) == to_vector(b.col));
  if constexpr (!is_pattern_v<V>) REQUIRE(to_vector(a.val) == to_vector(b.val));
  REQUIRE(a.fd == b.fd);
  REQUIRE(a.segments == b.segments);
  REQUIRE(a.launches == b.launches);
}

// The launch plan: the segments in order, consecutive ones of one group and thread count joined,
// and nothing else joined.
void require_launches(const std::vector<suraa_segment>& segs, const std::vector<suraa_segment>& launches) {
  std::size_t s = 0;
  for (std::size_t l = 0; l < launches.size(); ++l) {
    const suraa_segment& L = launches[l];
    REQUIRE(s < segs.size());
    REQUIRE(segs[s].begin == L.begin);
    offset_t nnz = 0;
    for (; s < segs.size() && segs[s].begin < L.end; ++s) {
      REQUIRE(segs[s].group == L.group);
      REQUIRE(segs[s].threads == L.threads);
      nnz += segs[s].nnz;
    }
    REQUIRE(segs[s - 1].end == L.end);
    REQUIRE(nnz == L.nnz);
    if (l > 0) REQUIRE((launches[l - 1].group != L.group || launches[l - 1].threads != L.threads));
  }
  REQUIRE(s == segs.size());
}

// The paper's rules, recomputed independently from the original CSR.
template <class V>
void require_structure(const csr_matrix<V, H>& A, const suraa_matrix<V, H>& m, const suraa_options& o) {
  const vertex_t n = A.rows;
  std::vector<offset_t> len(static_cast<std::size_t>(n));
  for (vertex_t r = 0; r < n; ++r) len[std::size_t(r)] = A.row_ptr[std::size_t(r) + 1] - A.row_ptr[std::size_t(r)];
  // perm: a permutation, lengths non-increasing, ties in original order; entries moved intact.
  // (One REQUIRE per property, not per entry: these loops run over every row and entry.)
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  bool permutation = true, sorted = true, moved = true;
  for (vertex_t i = 0; i < n && permutation; ++i) {
    const auto ui = std::size_t(i);
    const vertex_t r = m.perm[ui];
    permutation = r >= 0 && r < n && !seen[std::size_t(r)];
    if (!permutation) break;
    seen[std::size_t(r)] = true;
    const offset_t lr = len[std::size_t(r)];
    moved = moved && m.row_ptr[ui + 1] - m.row_ptr[ui] == lr;
    if (i > 0) {
      const vertex_t p = m.perm[ui - 1];
      const offset_t lp = len[std::size_t(p)];
      sorted = sorted && (lp > lr || (lp == lr && p < r));
    }
    for (offset_t k = 0; k < lr && moved; ++k)
      moved = m.col[std::size_t(m.row_ptr[ui] + k)] == A.col[std::size_t(A.row_ptr[std::size_t(r)] + k)];
  }
  REQUIRE(permutation);
  REQUIRE(sorted);
  REQUIRE(moved);
  if (n == 0) {
    REQUIRE(m.segments.empty());
    return;
  }
  // Freedman–Diaconis on the sorted lengths.
  std::vector<offset_t> s = len;
  std::sort(s.begin(), s.end(), std::greater<>());
  const std::size_t N = std::size_t(n);
  REQUIRE(m.fd.npr_max == s[0]);
  REQUIRE(m.fd.npr_min == s[N - 1]);
  REQUIRE(m.fd.q_upper == s[N / 4]);
  REQUIRE(m.fd.q_lower == s[3 * N / 4]);
  const double h = std::max(2.0 * double(s[N / 4] - s[3 * N / 4]) / std::cbrt(double(n)), 1.0);
  REQUIRE(m.fd.width == doctest::Approx(h));
  const offset_t k = std::clamp<offset_t>(offset_t(std::ceil(double(s[0] - s[N - 1]) / h)), 1, o.max_segments);
  REQUIRE(m.fd.segment_rows == vertex_t((n + k - 1) / k));
  // Segments: equal, contiguous, covering; groups G1* G2* G3* by mean npr; G1 within max_child_threads.
  REQUIRE(m.segments.size() <= std::size_t(o.max_segments));
  vertex_t at = 0, g1 = 0;
  int last_group = 1;
  for (std::size_t i = 0; i < m.segments.size(); ++i) {
    const suraa_segment& g = m.segments[i];
    REQUIRE(g.begin == at);
    REQUIRE(g.end - g.begin == std::min(m.fd.segment_rows, n - at));
    REQUIRE(g.nnz == m.row_ptr[std::size_t(g.end)] - m.row_ptr[std::size_t(g.begin)]);
    REQUIRE(int(g.group) >= last_group);
    last_group = int(g.group);
    const offset_t rows = g.end - g.begin;
    if (g.group == suraa_group::g1_dynamic) {
      REQUIRE(g.nnz > 32 * rows);
      g1 += vertex_t(rows);
    } else if (g.group == suraa_group::g2_vector) {
      REQUIRE(g.nnz >= 32 * rows);
      REQUIRE((g.threads == 32 || g.threads == 64 || g.threads == 128 || g.threads == 256));
    } else {
      REQUIRE(g.nnz < 32 * rows);
    }
    // The first segment after G1 stays out of G1 only for its mean or for the row cap.
    if (g.group != suraa_group::g1_dynamic && (i == 0 || m.segments[i - 1].group == suraa_group::g1_dynamic))
      REQUIRE((g.nnz <= 32 * rows || g1 + rows > o.max_child_threads));
    at = g.end;
  }
  REQUIRE(at == n);
  require_launches(m.segments, m.launches);
  REQUIRE(g1 <= o.max_child_threads);
  REQUIRE(m.group_rows(suraa_group::g1_dynamic) == g1);
}

template <class V>
void check(const char* name, const csr_matrix<V, H>& A, const suraa_options& o) {
  CAPTURE(name);
  CAPTURE(o.max_child_threads);
  const auto ref = to_suraa(A, o);
  auto dev = to_suraa(test::csr_in<D>(A), o);
  require_identical(ref, dev);
  require_structure(A, ref, o);
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    using T = typename Sr::value_type;
    const auto xs = test::random_x<Sr>(std::size_t(A.cols), 13);
    auto yh = to_space<H>(test::sentinel<T>(std::size_t(A.rows)));
    spmv<Sr>(ref, to_space<H>(xs), yh);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yh), "reference suraa");
    const auto xd = to_space<D>(xs);
    for (bool dp : {true, false}) {
      CAPTURE(dp);
      dev.opts.dynamic_parallelism = dp;
      std::vector<T> got[2];
      for (bool merged : {true, false}) {
        dev.opts.merge_launches = merged;
        auto yd = to_space<D>(test::sentinel<T>(std::size_t(A.rows)));
        spmv<Sr>(dev, xd, yd);
        got[merged] = to_vector(yd);
        test::require_spmv_equal<Sr>(A, xs, got[merged], dp ? "device suraa, dynamic parallelism" : "device suraa, block per row");
      }
      REQUIRE(got[0] == got[1]);  // joining launches changes no bit of y
    }
  });
}

template <class V>
void check_all() {
  const suraa_options paper{};  // max_child_threads = 2048
  suraa_options wide;
  wide.max_child_threads = 1 << 20;  // G1 may exceed one parent launch's children (suraa_children_per_launch)
  wide.max_segments = 16;
  test::for_each_test_matrix<V>([&](const char* name, const auto& A) { check<V>(name, A, paper); });
  test::for_each_long_row_matrix<V>([&](const char* name, const auto& A) {
    check<V>(name, A, paper);
    check<V>(name, A, wide);
  });
}

}  // namespace

TEST_CASE("suraa conversions of both twins agree and SpMV equals the reference CSR SpMV") {
  SUBCASE("float") { check_all<float>(); }
  SUBCASE("double") { check_all<double>(); }
  SUBCASE("pattern") { check_all<pattern>(); }
}

TEST_CASE("suraa groups: more G1 rows than one parent launch, and one row holding most entries") {
  suraa_options wide;
  wide.max_child_threads = 1 << 20;
  const auto A = test::csr_from_lengths<float>(std::vector<offset_t>(5000, 100), 7000, 1);
  const auto m = to_suraa(test::csr_in<D>(A), wide);
  // All rows have 100 entries: IQR 0 and range 0, so one segment, in G1 (mean 100 > 32).
  REQUIRE(m.segments.size() == 1);
  CHECK(m.group_rows(suraa_group::g1_dynamic) == 5000);
  CHECK(m.group_rows(suraa_group::g1_dynamic) > suraa_children_per_launch);
  // With the paper's cap the 5000-row segment cannot join G1: it is vector work.
  const auto p = to_suraa(test::csr_in<D>(A));
  CHECK(p.group_rows(suraa_group::g1_dynamic) == 0);
  CHECK(p.group_rows(suraa_group::g2_vector) == 5000);
  CHECK(p.segments[0].threads == 64);  // Y from mean 100: ((100 >> 1) + 31) & ~31 = 64

  std::vector<offset_t> hub(2000, 2);
  hub[777] = 300000;
  const auto B = to_suraa(test::csr_from_lengths<double>(hub, 2000, 3));
  CHECK(B.perm[0] == 777);
  CHECK(B.fd.npr_max == 300000);
  CHECK(B.segments[0].group == suraa_group::g1_dynamic);  // the hub's segment
  CHECK(B.segments.back().group == suraa_group::g3_scalar);
}

TEST_CASE("suraa joins a small graph's segments into a few launches") {
  const auto A = test::graph_csr<pattern>(std::string(FG_TEST_DATA_DIR) + "/pagerank/graphs/wiki-Vote.txt.gz");
  const auto m = to_suraa(test::csr_in<D>(A));
  // 64 Freedman-Diaconis segments: 7 in G1 (blocks of 160, 64 and 32 threads), 57 in G3
  CHECK(m.segments.size() == 64);
  REQUIRE(m.launches.size() == 4);
  CHECK(m.launches[0].threads == 160);
  CHECK(m.launches[1].threads == 64);
  CHECK(m.launches[2].threads == 32);
  CHECK(m.launches[3].group == suraa_group::g3_scalar);
  CHECK(m.launches[3].end == A.rows);
}

TEST_CASE("suraa rejects bad options and short vectors") {
  const auto A = test::random_csr<float>(3, 10, 12, 30, test::shape::uniform);
  suraa_options bad;
  bad.max_segments = 0;
  CHECK_THROWS_AS(to_suraa(A, bad), invalid_argument);
  bad = {};
  bad.max_child_threads = -1;
  CHECK_THROWS_AS(to_suraa(A, bad), invalid_argument);
  const auto m = to_suraa(A);
  array<float, H> x(11), y(10);
  CHECK_THROWS_AS(spmv<plus_times<float>>(m, x, y), invalid_argument);
}
