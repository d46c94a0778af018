// Streaming on both twins: the defragmentation policy run between batches keeps the content, and a
// warm-started PageRank agrees with a cold start within the tolerance bound.
#include <doctest/doctest.h>

#include <cmath>

#include "algorithms/pagerank.hpp"
#include "stream/graph.hpp"
#include "read/profile.hpp"
#include "loaders/graph_file.hpp"
#include "tests/format_support.hpp"
#include "tests/support.hpp"

using namespace fg;

namespace {
// A power-law edge file (n vertices), in stream order.
edge_file power_law_file(std::uint64_t seed, vertex_t n, std::size_t m) {
  const auto c = test::random_csr<pattern>(seed, n, n, m, test::shape::power_law);
  const auto coo = dcsr_matrix<pattern, host_space>::from_csr(c).to_coo();
  edge_file f;
  f.path = "synthetic";
  f.num_vertices = n;
  f.src = to_vector(coo.row);
  f.dst = to_vector(coo.col);
  // Shuffled, so every batch touches hub rows again (as a real stream does) and rows fragment.
  std::mt19937_64 g(seed);
  for (std::size_t i = f.src.size(); i > 1; --i) {
    const std::size_t j = g() % i;
    std::swap(f.src[i - 1], f.src[j]);
    std::swap(f.dst[i - 1], f.dst[j]);
  }
  for (vertex_t v = 0; v < n; ++v) f.original_id.push_back(v);
  return f;
}

double l1(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::fabs(a[i] - b[i]);
  return s;
}
}  // namespace

TEST_CASE_TEMPLATE("a defragmentation the policy asks for leaves the content identical", S, host_space, device_space) {
  const edge_file f = power_law_file(5, 2000, 30000);
  graph<pattern, S> g(orientation::in, vertex_t(f.num_vertices));
  for (std::size_t first = 0; first < f.src.size(); first += 3000)
    g.insert(f, first, std::min(f.src.size(), first + 3000));
  REQUIRE(profile(g.store()).segments_per_row > 1);
  const auto before = test::cells_of(g.store());
  const auto version = g.store().version();
  const defrag_policy measured = make_defrag_policy(defrag_mode::measured);

  const defrag_decision idle = g.maybe_defragment(0, measured);  // nothing reads before the next batch
  CHECK_FALSE(idle.defragmented);
  CHECK(profile(g.store()).segments_per_row > 1);

  const defrag_decision d = g.maybe_defragment(1e6, measured);
  CHECK(d.defragmented);
  CHECK(d.reason.rfind("defragment: ", 0) == 0);
  g.store().validate();
  CHECK(g.store().view().single_segment);
  CHECK(profile(g.store()).segments_per_row == 1);
  CHECK(test::cells_of(g.store()) == before);
  CHECK(g.store().version() == version);  // views built before stay valid

  const defrag_decision again = g.maybe_defragment(1e6, measured);
  CHECK_FALSE(again.defragmented);
  CHECK(again.reason.find("already packed") != std::string::npos);
}

TEST_CASE_TEMPLATE("the limit policy defragments exactly when a row reached k segments", S, host_space, device_space) {
  dcsr_config cfg;
  cfg.max_segments = 2;
  cfg.row_growth = 0;  // constant slack: a growing row takes a segment per batch
  cfg.alpha = 1;
  edge_file f;
  f.num_vertices = 50;
  for (vertex_t i = 1; i < 50; ++i) {  // everyone points at vertex 0: in-row 0 grows each batch
    f.src.push_back(i);
    f.dst.push_back(0);
  }
  graph<pattern, S> g(orientation::in, 50, cfg);
  const defrag_policy limit = make_defrag_policy(defrag_mode::segment_limit);
  bool seen = false;
  for (std::size_t first = 0; first < f.src.size(); first += 5) {
    g.insert(f, first, std::min(f.src.size(), first + 5));
    const bool flag = g.store().needs_defragment();
    const auto before = test::cells_of(g.store());
    const defrag_decision d = g.maybe_defragment(0, limit);
    CHECK(d.defragmented == flag);
    seen = seen || flag;
    CHECK_FALSE(g.store().needs_defragment());
    CHECK(test::cells_of(g.store()) == before);
    g.store().validate();
  }
  CHECK(seen);
  CHECK(g.num_edges() == 49);
}

TEST_CASE_TEMPLATE("warm start: new vertices start at 1/n, the start is normalised, bad starts are rejected", S,
                   host_space, device_space) {
  const edge_file f = power_law_file(3, 500, 4000);
  graph<pattern, S> g(orientation::in, vertex_t(f.num_vertices));
  g.insert(f, 0, f.src.size());
  pagerank_options opt;
  opt.tol = 1e-10;
  const auto cold = pagerank(g.store(), opt);
  pagerank_start from;
  from.initial.assign(200, 5.0);  // a short, unnormalised start is still a valid start
  const auto w = pagerank(g.store(), opt, from);
  CHECK(l1(w.score, cold.score) <= 2 * opt.damping / (1 - opt.damping) * opt.tol * 500);
  from.initial = cold.score;  // already the fixed point: done at once
  CHECK(pagerank(g.store(), opt, from).iterations <= 2);
  from.initial.assign(501, 1.0);
  CHECK_THROWS_AS(pagerank(g.store(), opt, from), invalid_argument);
  from.initial.assign(10, 0.0);
  CHECK_NOTHROW(pagerank(g.store(), opt, from));  // zeros then 1/n for the rest: sums to > 0
  from.initial.assign(500, 0.0);
  CHECK_THROWS_AS(pagerank(g.store(), opt, from), invalid_argument);
  from.initial.assign(500, 1.0);
  from.initial[7] = -1;
  CHECK_THROWS_AS(pagerank(g.store(), opt, from), invalid_argument);
}

TEST_CASE_TEMPLATE("PageRank with the out-degrees given equals PageRank counting them", S, host_space, device_space) {
  const edge_file f = power_law_file(8, 800, 9000);
  graph<pattern, S> in(orientation::in, vertex_t(f.num_vertices)), out(orientation::out, vertex_t(f.num_vertices));
  in.insert(f, 0, f.src.size());
  out.insert(f, 0, f.src.size());
  pagerank_options opt;
  opt.tol = 1e-12;
  const pagerank_result counted = pagerank(in.store(), opt);
  pagerank_start from;
  from.out_degree = out.store().view().sizes;
  const pagerank_result given = pagerank(in.store(), opt, from);
  CHECK(given.iterations == counted.iterations);
  CHECK(l1(given.score, counted.score) < 1e-12);
}
