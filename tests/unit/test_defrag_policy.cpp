// The defragmentation policy on synthetic profiles and a hand-made calibration: each case states
// what the policy must decide and why (the arithmetic is in the comments).
#include <doctest/doctest.h>

#include "core/error.hpp"
#include "stream/defrag_policy.hpp"
#include "stream/graph.hpp"

using namespace fg;

namespace {
// One point shaped exactly like the profiles below (1M rows, mu 16, sigma 40, double values), so
// predictions are the measured times unscaled: DCSR 100 us packed, csr_vector 100 us.
calibration one_point(bool with_csr = true) {
  calibration c;
  c.copy_gbs = 3000;
  c.source = "test";
  calibration_point p;
  p.matrix = "like-it";
  p.value_bytes = 8;
  p.rows = 1 << 20;
  p.mu = 16;
  p.sigma = 40;
  p.nnz = p.rows * p.mu;
  p.kernels["dcsr"] = {100, 0};
  if (with_csr) p.kernels["csr_vector"] = {100, 50};
  c.points.push_back(p);
  return c;
}

matrix_profile store(double segments_per_row, double gap) {
  matrix_profile p;
  p.rows = p.cols = 1 << 20;
  p.mu = 16;
  p.sigma = 40;
  p.nnz = offset_t(p.mu * p.rows);
  p.value_type = "double";
  p.segments_per_row = segments_per_row;
  p.gap_fraction = gap;
  return p;
}

defrag_policy policy(defrag_mode m, const calibration& c = one_point()) {
  defrag_policy p;
  p.mode = m;
  p.cal = c;
  return p;
}
}  // namespace

TEST_CASE("policy names") {
  CHECK(parse_defrag_mode("none") == defrag_mode::none);
  CHECK(parse_defrag_mode("limit") == defrag_mode::segment_limit);
  CHECK(parse_defrag_mode("segment_limit") == defrag_mode::segment_limit);
  CHECK(parse_defrag_mode("measured") == defrag_mode::measured);
  CHECK_THROWS_AS(parse_defrag_mode("sometimes"), invalid_argument);
  for (auto m : {defrag_mode::none, defrag_mode::segment_limit, defrag_mode::measured})
    CHECK(parse_defrag_mode(to_string(m)) == m);
}

TEST_CASE("none never defragments, even a store at the segment limit read a million times") {
  const auto d = decide_defragment(policy(defrag_mode::none), store(4, 0.5), true, 1e6);
  CHECK_FALSE(d.defragmented);
  CHECK(d.reason.rfind("keep: policy none", 0) == 0);
}

TEST_CASE("limit follows the paper's flag, whatever the reads") {
  CHECK(decide_defragment(policy(defrag_mode::segment_limit), store(1.1, 0.1), true, 0).defragmented);
  const auto d = decide_defragment(policy(defrag_mode::segment_limit), store(3, 0.4), false, 1e6);
  CHECK_FALSE(d.defragmented);
  CHECK(d.reason.find("no row at k segments") != std::string::npos);
}

TEST_CASE("measured: a packed store is kept") {
  const auto d = decide_defragment(policy(defrag_mode::measured), store(1, 0), true, 1e6);
  CHECK_FALSE(d.defragmented);
  CHECK(d.reason.find("already packed") != std::string::npos);
}

TEST_CASE("measured: reads x time saved per read against the defragmentation's cost") {
  // 3 segments per row: DCSR reads at 1 + 0.5 x 2 = 2x packed: 0.2 vs 0.1 ms, 0.1 ms saved a read.
  // Defragment (priced as on an older device) = 23 CSR SpMVs of 0.1 ms = 2.3 ms: pays off from the
  // 24th read.
  auto p = policy(defrag_mode::measured);
  p.defrag_spmvs = 23;
  p.defrag_fixed_ms = 0;
  const auto keep = decide_defragment(p, store(3, 0.3), false, 23);
  CHECK_FALSE(keep.defragmented);
  CHECK(keep.fragmented_ms == doctest::Approx(0.2));
  CHECK(keep.packed_ms == doctest::Approx(0.1));
  CHECK(keep.saved_ms == doctest::Approx(2.3));
  CHECK(keep.cost_ms == doctest::Approx(2.3));
  CHECK(keep.reason.rfind("keep: ", 0) == 0);
  const auto go = decide_defragment(p, store(3, 0.3), false, 24);
  CHECK(go.defragmented);
  CHECK(go.reason.rfind("defragment: ", 0) == 0);
  CHECK(go.reason.find("like-it") != std::string::npos);  // names the calibration matrix
  CHECK(go.reason.find("30% of the buffer unused") != std::string::npos);
  // Nothing reads the store before the next batch: never worth it, even at the limit.
  CHECK_FALSE(decide_defragment(p, store(3, 0.3), true, 0).defragmented);
  // Barely fragmented (1.1 segments per row) has still lost the packed fast path: 1.6x, 0.06 ms
  // saved per read: pays off from the 39th read (2.3 / 0.06 = 38.3).
  CHECK_FALSE(decide_defragment(p, store(1.1, 0.05), false, 38).defragmented);
  CHECK(decide_defragment(p, store(1.1, 0.05), false, 39).defragmented);
  // The H100 default (1.25 SpMVs + 0.06 ms = 0.185 ms here) moves the threshold to the 2nd read,
  // and to the 4th for the barely fragmented store (0.185 / 0.06 = 3.1).
  const auto h100 = policy(defrag_mode::measured);
  CHECK(decide_defragment(h100, store(3, 0.3), false, 1).cost_ms == doctest::Approx(0.185));
  CHECK_FALSE(decide_defragment(h100, store(3, 0.3), false, 1).defragmented);
  CHECK(decide_defragment(h100, store(3, 0.3), false, 2).defragmented);
  CHECK_FALSE(decide_defragment(h100, store(1.1, 0.05), false, 3).defragmented);
  CHECK(decide_defragment(h100, store(1.1, 0.05), false, 4).defragmented);
}

TEST_CASE("measured: the rows go by size when the selector would read the packed store with ADCSR") {
  // 3 segments per row, 100 reads: defragment (0.1 ms x 100 saved > 2.3 ms). Where ADCSR reads at
  // 60 us (conversion 400 us, free from a size-ordered store) it is the selector's choice: by size.
  auto p = policy(defrag_mode::measured);
  const auto rows = decide_defragment(p, store(3, 0.3), false, 100);
  CHECK(rows.defragmented);
  CHECK_FALSE(rows.by_size);  // no ADCSR points: DCSR/CSR read it, row order
  p.cal.points[0].kernels["adcsr"] = {60, 400};
  const auto sized = decide_defragment(p, store(3, 0.3), false, 100);
  CHECK(sized.defragmented);
  CHECK(sized.by_size);
  CHECK(sized.reason.find("rows by size") != std::string::npos);
  p.cal.points[0].kernels["adcsr"] = {150, 400};  // slower than DCSR: row order again
  CHECK_FALSE(decide_defragment(p, store(3, 0.3), false, 100).by_size);
  // --layout forces it either way, in every mode
  p.cal.points[0].kernels["adcsr"] = {60, 400};
  p.layout = dcsr_layout::row_order;
  CHECK_FALSE(decide_defragment(p, store(3, 0.3), false, 100).by_size);
  auto lim = policy(defrag_mode::segment_limit);
  lim.layout = dcsr_layout::size_order;
  const auto forced = decide_defragment(lim, store(3, 0.3), true, 0);
  CHECK(forced.defragmented);
  CHECK(forced.by_size);
  CHECK(parse_layout("auto") == std::nullopt);
  CHECK(parse_layout("rows") == dcsr_layout::row_order);
  CHECK(parse_layout("size") == dcsr_layout::size_order);
  CHECK_THROWS_AS(parse_layout("random"), invalid_argument);
}

TEST_CASE("measured without usable points falls back to the segment limit") {
  const auto p = policy(defrag_mode::measured, one_point(false));
  const auto d = decide_defragment(p, store(3, 0.3), true, 1);
  CHECK(d.defragmented);
  CHECK(d.reason.find("falling back to the segment limit") != std::string::npos);
  CHECK_FALSE(decide_defragment(p, store(3, 0.3), false, 1e6).defragmented);
}

TEST_CASE("graph::maybe_defragment: no reads expected keeps even a store at the segment limit") {
  dcsr_config cfg;
  cfg.max_segments = 2;
  graph<pattern, host_space> g(orientation::out, 4, cfg);
  for (vertex_t b = 0; b < 6; ++b) g.insert(g.batch({0, 1}, {b % 4, (b + 1) % 4}));
  REQUIRE(g.store().needs_defragment());
  defrag_policy measured = make_defrag_policy(defrag_mode::measured);
  defrag_decision d = g.maybe_defragment(0, measured);
  CHECK_FALSE(d.defragmented);
  CHECK(d.reason == "keep: no reads expected before the next batch, so nothing to save");
  CHECK(g.store().needs_defragment());
  d = g.maybe_defragment(0, make_defrag_policy(defrag_mode::segment_limit));  // the flag alone decides
  CHECK(d.defragmented);
  CHECK_FALSE(g.store().needs_defragment());
}

TEST_CASE("bad arguments") {
  CHECK_THROWS_AS(decide_defragment(policy(defrag_mode::measured), store(2, 0), false, -1), invalid_argument);
  auto p = policy(defrag_mode::measured);
  p.defrag_spmvs = 0;
  CHECK_THROWS_AS(decide_defragment(p, store(2, 0), false, 1), invalid_argument);
  p.defrag_spmvs = 1;
  p.defrag_fixed_ms = -1;
  CHECK_THROWS_AS(decide_defragment(p, store(2, 0), false, 1), invalid_argument);
}
