// CMRS (storage/cmrs.hpp), basic and modified (§6.7): the device conversion equals the reference one
// array for array; the layout keeps its invariants and holds exactly the CSR's entries; SpMV of both
// twins equals the reference CSR SpMV for every test matrix, semiring and height.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "core/semiring.hpp"
#include "storage/cmrs.hpp"
#include "tests/format_support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {

struct config {
  const char* name;
  cmrs_options opts;
};

std::vector<config> configs() {
  std::vector<config> c;
  const char* names[] = {"basic h=1", "basic h=2", "basic h=4", "basic h=6", "basic h=16"};
  const int heights[] = {1, 2, 4, 6, 16};
  for (int i = 0; i < 5; ++i) {
    cmrs_options o;
    o.height = heights[i];
    c.push_back({names[i], o});
  }
  c.push_back({"basic default height", cmrs_options{}});
  cmrs_options m;
  m.variant = cmrs_variant::modified;
  c.push_back({"modified", m});
  return c;
}

using entry = std::tuple<vertex_t, vertex_t, double>;

template <class V>
std::vector<entry> csr_entries(const csr_matrix<V, H>& A) {
  std::vector<entry> e;
  for (vertex_t r = 0; r < A.rows; ++r)
    for (offset_t j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j)
      e.emplace_back(r, A.col[j], double(value_or<V>(A.val.data(), j, 1.0)));
  std::sort(e.begin(), e.end());
  return e;
}

/// The first violated layout invariant of storage/cmrs.hpp ("" if none); `out` gets the stored
/// entries (padding skipped), sorted. Plain checks: one REQUIRE per matrix keeps the suite fast.
template <class V>
std::string layout_error(const csr_matrix<V, H>& A, const cmrs_matrix<V, H>& m, std::vector<entry>& out) {
  const bool mod = m.variant == cmrs_variant::modified;
  const offset_t strips = m.strips();
  auto at = [](const char* what, offset_t s) { return std::string(what) + " (strip " + std::to_string(s) + ")"; };
  if (m.strip_ptr.size() != std::size_t(strips + 1) || m.strip_ptr[0] != 0 ||
      m.strip_ptr[std::size_t(strips)] != m.stored())
    return "strip_ptr has the wrong size or ends";
  if (m.val.size() != (is_pattern_v<V> ? 0 : m.col.size())) return "val has the wrong size";
  if (m.nnz() != A.nnz()) return "nnz differs from the CSR's";
  if (m.bytes() != m.strip_ptr.bytes() + m.col.bytes() + m.val.bytes()) return "bytes() is not the arrays' sum";
  if (!mod && m.padded != 0) return "the basic variant is padded";
  out.clear();
  for (offset_t s = 0; s < strips; ++s) {
    const offset_t b = m.strip_ptr[std::size_t(s)], end = m.strip_ptr[std::size_t(s + 1)];
    const vertex_t r0 = vertex_t(s * m.height), r1 = std::min<vertex_t>(r0 + m.height, A.rows);
    if (b > end) return at("strip_ptr decreases", s);
    if (!mod) {
      if (b != A.row_ptr[std::size_t(r0)]) return at("StripPtr[s] != RowPtr[s * height]", s);
      for (offset_t j = b + 1; j < end; ++j)
        if (cmrs_col_of(m.col[std::size_t(j - 1)]) > cmrs_col_of(m.col[std::size_t(j)]))
          return at("entries not sorted by column", s);
    } else {
      offset_t longest = 0;
      for (vertex_t r = r0; r < r1; ++r) longest = std::max(longest, A.row_ptr[std::size_t(r + 1)] - A.row_ptr[std::size_t(r)]);
      const offset_t entries = A.row_ptr[std::size_t(r1)] - A.row_ptr[std::size_t(r0)];
      const offset_t windows = std::max((entries + 31) / 32, (longest + 7) / 8);  // the least possible
      if (b % 32 != 0 || end - b != 32 * windows) return at("not the least number of 32-slot windows", s);
      for (offset_t w = b; w < end; w += 32) {  // no two lanes of a window share a (lane mod 8, row) slot
        bool used[8][16] = {};
        for (int lane = 0; lane < 32; ++lane) {
          const std::uint32_t word = m.col[std::size_t(w + lane)];
          if (word == cmrs_padding) {
            if constexpr (!is_pattern_v<V>)
              if (m.val[std::size_t(w + lane)] != V(0)) return at("a padding slot holds a value", s);
            continue;
          }
          if (used[lane % 8][cmrs_row_of(word)]) return at("two lanes of a window share a buffer slot", s);
          used[lane % 8][cmrs_row_of(word)] = true;
        }
      }
    }
    for (offset_t j = b; j < end; ++j) {
      const std::uint32_t word = m.col[std::size_t(j)];
      if (word == cmrs_padding) continue;
      const vertex_t r = r0 + cmrs_row_of(word);
      if (r >= r1) return at("RowInStrip past the strip's rows", s);
      out.emplace_back(r, cmrs_col_of(word), double(value_or<V>(m.val.data(), j, 1.0)));
    }
  }
  std::sort(out.begin(), out.end());
  return "";
}

/// REQUIREs a valid layout holding exactly A's entries.
template <class V>
void require_layout(const csr_matrix<V, H>& A, const cmrs_matrix<V, H>& m) {
  std::vector<entry> got;
  REQUIRE(layout_error(A, m, got) == "");
  REQUIRE(got == csr_entries(A));
}

template <class V>
void require_same_arrays(const cmrs_matrix<V, H>& ref, const cmrs_matrix<V, D>& dev) {
  REQUIRE(dev.rows == ref.rows);
  REQUIRE(dev.cols == ref.cols);
  REQUIRE(dev.height == ref.height);
  REQUIRE(dev.variant == ref.variant);
  REQUIRE(dev.padded == ref.padded);
  REQUIRE(to_vector(dev.strip_ptr) == to_vector(ref.strip_ptr));
  REQUIRE(to_vector(dev.col) == to_vector(ref.col));
  REQUIRE(to_vector(dev.val) == to_vector(ref.val));
  REQUIRE(dev.bytes() == ref.bytes());
}

/// Both twins' conversions and SpMVs; returns the modified variant's padding report line ("" else).
template <class V>
std::string check_matrix(const std::string& name, const csr_matrix<V, H>& A, const config& c) {
  CAPTURE(name);
  const std::string cfg = c.name;
  CAPTURE(cfg);
  const auto ref = to_cmrs(A, c.opts);
  const auto dev = to_cmrs(test::csr_in<D>(A), c.opts);
  if (c.opts.height == 0 && c.opts.variant == cmrs_variant::basic) REQUIRE(ref.height == cmrs_default_height<V>());
  require_same_arrays(ref, dev);
  require_layout(A, ref);
  test::for_each_semiring<V>([&](auto sr) {
    using Sr = decltype(sr);
    using T = typename Sr::value_type;
    const auto xs = test::random_x<Sr>(std::size_t(A.cols), 17);
    array<T, H> yh(std::size_t(A.rows));
    spmv<Sr>(ref, to_space<H>(xs), yh);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yh), "reference cmrs");
    array<T, D> yd(std::size_t(A.rows));
    spmv<Sr>(dev, to_space<D>(xs), yd);
    test::require_spmv_equal<Sr>(A, xs, to_vector(yd), "device cmrs");
  });
  if (ref.variant != cmrs_variant::modified) return "";
  return name + ": " + std::to_string(ref.padded) + " padded / " + std::to_string(ref.nnz()) + " nnz = " +
         std::to_string(ref.padding_ratio()) + " (" + std::to_string(ref.bytes()) + " bytes)\n";
}

template <class V>
void check_all() {
  const auto cs = configs();
  std::string report;
  test::for_each_test_matrix<V>([&](const char* name, const csr_matrix<V, H>& A) {
    for (const auto& c : cs) report += check_matrix(name, A, c);
  });
  if constexpr (is_pattern_v<V>) MESSAGE("modified CMRS padding (pattern):\n" << report);
}

template <class V>
csr_matrix<V, H> csr_from(vertex_t rows, vertex_t cols, const std::vector<vertex_t>& r, const std::vector<vertex_t>& c) {
  std::vector<stored_t<V>> v;
  if constexpr (!is_pattern_v<V>)
    for (std::size_t i = 0; i < r.size(); ++i) v.push_back(stored_t<V>(0.25 * double(i % 7) - 0.5));
  dcsr_config cfg;
  cfg.dups = duplicates::accumulate;
  cfg.square = false;
  return dcsr_matrix<V, H>::from_coo(make_coo<V, H>(r, c, v), rows, cols, cfg).to_csr();
}

}  // namespace

TEST_CASE("CMRS float: conversions identical, layout valid, SpMV of both twins equals CSR") { check_all<float>(); }
TEST_CASE("CMRS double: conversions identical, layout valid, SpMV of both twins equals CSR") { check_all<double>(); }
TEST_CASE("CMRS pattern: conversions identical, layout valid, SpMV of both twins equals CSR") { check_all<pattern>(); }

TEST_CASE("CMRS: rows not a multiple of the height, and every block size") {
  const auto A = test::random_csr<double>(7, 37, 41, 400, test::shape::power_law);
  for (int h : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}) {
    cmrs_options o;
    o.height = h;
    const auto m = to_cmrs(A, o);
    CHECK(m.strips() == (37 + h - 1) / h);
    CHECK(m.strip_ptr[std::size_t(m.strips())] == A.nnz());
    for (int wpb : {1, 3, 32}) {  // on the GPU: 32 warps x 32 x 16 doubles = 128 KiB of shared memory
      o.warps_per_block = wpb;
      check_matrix("37x41 power law", A, {"height/block sweep", o});
    }
  }
  cmrs_options o;
  o.variant = cmrs_variant::modified;
  for (int wpb : {1, 32}) {
    o.warps_per_block = wpb;
    check_matrix("37x41 power law", A, {"modified block sweep", o});
  }
}

TEST_CASE("CMRS: mean row length > 32 reads each strip's unaligned head first (§6.3)") {
  const auto A = test::random_csr<double>(8, 101, 97, 101 * 45, test::shape::uniform);
  const auto P = test::random_csr<pattern>(9, 67, 500, 67 * 70, test::shape::power_law);
  for (int h : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}) {
    cmrs_options o;
    o.height = h;
    CHECK(to_cmrs(A, o).view().align);
    check_matrix("101x97 mu 45", A, {"aligned", o});
    check_matrix("67x500 mu 70 power law", P, {"aligned", o});
  }
  cmrs_options o;
  o.variant = cmrs_variant::modified;
  CHECK_FALSE(to_cmrs(A, o).view().align);  // its strips are 32-aligned already
  check_matrix("101x97 mu 45", A, {"modified", o});
}

TEST_CASE("CMRS: 2^28 columns and more are refused, 2^28 - 1 is kept exactly") {
  const vertex_t limit = vertex_t(1) << 28;
  const auto big = csr_from<float>(3, limit, {0, 2}, {5, limit - 1});
  try {
    (void)to_cmrs(big);
    FAIL("to_cmrs accepted 2^28 columns");
  } catch (const invalid_argument& e) {
    CHECK(std::string(e.what()).find("2^28") != std::string::npos);
  }
  CHECK_THROWS_AS(to_cmrs(test::csr_in<D>(big)), invalid_argument);
  // The widest accepted matrix: the last column with the top RowInStrip (15) is no padding word.
  const auto edge = csr_from<pattern>(16, limit - 1, {0, 15, 15}, {limit - 2, 0, limit - 2});
  for (auto variant : {cmrs_variant::basic, cmrs_variant::modified}) {
    cmrs_options o;
    o.variant = variant;
    o.height = 16;
    const auto ref = to_cmrs(edge, o);
    require_same_arrays(ref, to_cmrs(test::csr_in<D>(edge), o));
    require_layout(edge, ref);
  }
}

TEST_CASE("CMRS: bad options and short vectors are refused") {
  const auto A = test::random_csr<float>(3, 20, 20, 50, test::shape::uniform);
  for (int h : {-1, 17}) {
    cmrs_options o;
    o.height = h;
    CHECK_THROWS_AS(to_cmrs(A, o), invalid_argument);
  }
  for (int w : {0, 33}) {
    cmrs_options o;
    o.warps_per_block = w;
    CHECK_THROWS_AS(to_cmrs(A, o), invalid_argument);
  }
  cmrs_options o;
  o.variant = cmrs_variant::modified;
  o.height = 6;
  CHECK_THROWS_AS(to_cmrs(A, o), invalid_argument);
  const auto m = to_cmrs(A);
  array<float, H> x(19), y(20), x_ok(20), y_short(19);
  CHECK_THROWS_AS(spmv<plus_times<float>>(m, x, y), invalid_argument);
  CHECK_THROWS_AS(spmv<plus_times<float>>(m, x_ok, y_short), invalid_argument);
}

TEST_CASE("CMRS modified: padding to warp multiples and at most 8 entries of a row per window") {
  cmrs_options o;
  o.variant = cmrs_variant::modified;
  SUBCASE("one row of 20 in a strip: 3 windows (8 per row per window), 76 padding slots") {
    std::vector<vertex_t> r(20, 3), c;
    for (vertex_t i = 0; i < 20; ++i) c.push_back(19 - i);
    const auto A = csr_from<double>(16, 20, r, c);
    const auto m = to_cmrs(A, o);
    CHECK(m.stored() == 96);
    CHECK(m.padded == 76);
    CHECK(m.padding_ratio() == doctest::Approx(3.8));
    require_layout(A, m);
    // the cyclic layout: window w holds entries w, w + 3, ... of the row in column order
    CHECK(cmrs_col_of(m.col[0]) == 0);
    CHECK(cmrs_col_of(m.col[1]) == 3);
    CHECK(cmrs_col_of(m.col[32]) == 1);
    CHECK(m.col[7] == cmrs_padding);  // windows 0 and 1 hold 7 entries each, window 2 holds 6
    CHECK(m.col[64 + 6] == cmrs_padding);
    check_matrix("one row of 20", A, {"modified", o});
  }
  SUBCASE("16 rows of 2: one full window, no padding; 33 entries: two windows") {
    std::vector<vertex_t> r, c;
    for (vertex_t i = 0; i < 32; ++i) r.push_back(i / 2), c.push_back(i);
    const auto full = to_cmrs(csr_from<float>(16, 40, r, c), o);
    CHECK(full.padded == 0);
    CHECK(full.stored() == 32);
    r.push_back(0), c.push_back(39);
    const auto A = csr_from<float>(16, 40, r, c);
    const auto more = to_cmrs(A, o);
    CHECK(more.padded == 31);
    require_layout(A, more);
  }
  SUBCASE("empty strips take no space; a last strip shorter than 16 rows") {
    const auto A = csr_from<pattern>(40, 40, {33, 33, 39}, {1, 2, 3});
    const auto m = to_cmrs(A, o);
    CHECK(m.strips() == 3);
    CHECK(m.strip_ptr[1] == 0);
    CHECK(m.strip_ptr[2] == 0);
    CHECK(m.stored() == 32);
    check_matrix("sparse 40x40", A, {"modified", o});
  }
}
