// The engine's streaming session (stream/stream_session.hpp), both twins: after every batch of a
// random stream of mixed batches the store holds what a host edge-set model holds, the report's
// counts are the model's, the vertex count grows as ids arrive, per-batch PageRank equals a cold
// PageRank of the model's graph and the closure has the model's number of pairs (Boost).
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "algorithms/pagerank.hpp"
#include "core/error.hpp"
#include "stream/stream_session.hpp"
#include "tests/unit/file_analyses.hpp"
#include "loaders/graph_file.hpp"
#include "closure_support.hpp"

namespace {
using namespace fg;
using edge_set = std::set<std::pair<vertex_t, vertex_t>>;

// PageRank of the model's graph on n vertices, through the file path (an independent store).
std::vector<double> model_pagerank(const edge_set& e, vertex_t n, const pagerank_options& opt) {
  edge_file f;
  f.num_vertices = n;
  for (const auto& [u, v] : e) f.src.push_back(u), f.dst.push_back(v);
  for (vertex_t v = 0; v < n; ++v) f.original_id.push_back(v);
  return pagerank(f, opt, exec::reference).score;
}

double l1(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d += std::abs(a[i] - b[i]);
  return d;
}

// A random batch over ids < n: inserts (with repeats), deletes of stored edges and of absent ones.
void random_batch(std::mt19937& rng, vertex_t n, const edge_set& model, edge_list& ins, edge_list& del) {
  ins.clear();
  del.clear();
  const std::size_t k = rng() % 12;
  for (std::size_t i = 0; i < k; ++i) {
    ins.src.push_back(vertex_t(rng() % std::uint32_t(n)));
    ins.dst.push_back(vertex_t(rng() % std::uint32_t(n)));
    if (rng() % 4 == 0) ins.src.push_back(ins.src.back()), ins.dst.push_back(ins.dst.back());  // a repeat
  }
  for (const auto& [u, v] : model)
    if (rng() % 5 == 0) del.src.push_back(u), del.dst.push_back(v);
  if (rng() % 2) del.src.push_back(vertex_t(rng() % std::uint32_t(n))), del.dst.push_back(0);
  if (!ins.src.empty() && rng() % 3 == 0) del.src.push_back(ins.src[0]), del.dst.push_back(ins.dst[0]);  // both
}

TEST_CASE_TEMPLATE("stream_session: random mixed batches equal a host edge-set model", S, host_space, device_space) {
  for (const batch_order order : {batch_order::deletes_first, batch_order::inserts_then_deletes}) {
    CAPTURE(int(order));
    stream_options so;
    so.pagerank_per_batch = true;
    so.pagerank.tol = 1e-12;
    so.pagerank.kernel = "dcsr";
    so.closure = true;
    so.defrag = defrag_mode::segment_limit;
    stream_session<S> s(so);
    std::mt19937 rng(11);
    edge_set model;
    edge_list ins, del;
    vertex_t n = 0, seen = 0;
    for (int b = 1; b <= 40; ++b) {
      CAPTURE(b);
      n += vertex_t(rng() % 3);  // ids arrive as the stream goes on
      random_batch(rng, std::max<vertex_t>(n, 1), model, ins, del);
      const vertex_t told = std::max<vertex_t>(n, 1) + vertex_t(rng() % 2);  // sometimes an id ahead of its edges
      // The model: a set of edges, in the batch order's sequence.
      const edge_set before = model;
      std::int64_t stored = 0, removed = 0;
      auto erase_all = [&] {
        for (std::size_t i = 0; i < del.size(); ++i) removed += std::int64_t(model.erase({del.src[i], del.dst[i]}));
      };
      if (order == batch_order::deletes_first) erase_all();
      for (std::size_t i = 0; i < ins.size(); ++i) stored += model.insert({ins.src[i], ins.dst[i]}).second ? 1 : 0;
      if (order == batch_order::inserts_then_deletes) erase_all();
      for (const auto& [u, v] : model) seen = std::max({seen, u + 1, v + 1});
      seen = std::max(seen, told);

      const batch_report r = s.apply(ins, del, told, order);
      CHECK(r.batch == b);
      CHECK(r.inserts == ins.size());
      CHECK(r.deletes == del.size());
      CHECK(r.stored == stored);
      CHECK(r.removed == removed);
      CHECK(r.edges == offset_t(model.size()));
      CHECK(r.vertices == seen);
      const auto got = s.edges();
      CHECK(edge_set(got.begin(), got.end()) == model);
      REQUIRE(s.scores().score.size() == std::size_t(seen));
      CHECK(l1(s.scores().score, model_pagerank(model, seen, so.pagerank)) < 1e-9);
      CHECK(r.closure_recomputed == (del.size() > 0));
      test::pair_list pairs(model.begin(), model.end());
      CHECK(r.closure_pairs == offset_t(test::boost_closure(seen, pairs).size()));
      CHECK(s.closure().nnz() == r.closure_pairs);
      if (before == model) CHECK(r.stored == r.removed);  // nothing new: what went in came out
    }
    CHECK(s.totals().batches == 40);
    CHECK(s.totals().closure_extended + s.totals().closure_recomputed == 40);
    const final_report f = s.finish();
    CHECK_FALSE(f.defrag_asked);  // per-batch PageRank: its last scores are the final ones
    CHECK(f.pagerank == &s.scores());
  }
}

TEST_CASE_TEMPLATE("stream_session: growing vertices; finish() runs PageRank from scratch", S, host_space,
                   device_space) {
  stream_options so;
  so.pagerank.tol = 1e-12;
  stream_session<S> s(so, 3);
  s.warm_up();  // a throwaway store: the session is as it was
  CHECK(s.num_vertices() == 3);
  CHECK(s.num_edges() == 0);
  CHECK(s.totals().batches == 0);
  edge_list ins{{0, 1}, {1, 2}, {}}, none;
  batch_report r = s.apply(ins, none);
  CHECK(r.batch == 1);
  CHECK(r.vertices == 3);
  CHECK(r.pr_iterations == 0);  // no per-batch PageRank
  ins = {{7}, {2}, {}};        // id 7 grows the store to 8
  r = s.apply(ins, none, 10);  // and ids 8 and 9 arrived with no edge
  CHECK(r.vertices == 10);
  CHECK(s.scores().score.empty());
  const final_report f = s.finish();
  CHECK(f.defrag_asked);
  REQUIRE(f.pagerank != nullptr);
  CHECK(f.pagerank->score.size() == 10);
  CHECK(l1(f.pagerank->score, model_pagerank({{0, 1}, {1, 2}, {7, 2}}, 10, so.pagerank)) < 1e-9);
  CHECK_THROWS_AS(s.closure(), fg::invalid_argument);
}

TEST_CASE("stream_session: warm PageRank on a growing vertex count stays a distribution") {
  stream_options so;
  so.pagerank_per_batch = true;
  so.pagerank.tol = 1e-12;
  stream_session<host_space> s(so);
  edge_set model;
  edge_list ins, none;
  for (vertex_t b = 1; b <= 6; ++b) {
    ins = {{vertex_t(b - 1), vertex_t(2 * b)}, {vertex_t(2 * b), 0}, {}};
    for (std::size_t i = 0; i < ins.size(); ++i) model.insert({ins.src[i], ins.dst[i]});
    const batch_report r = s.apply(ins, none, 3 * b);
    CHECK(r.vertices == 3 * b);
    double sum = 0;
    for (double x : s.scores().score) sum += x;
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(l1(s.scores().score, model_pagerank(model, 3 * b, so.pagerank)) < 1e-9);
  }
}

TEST_CASE("stream_file: batches in file order, deletions picked among each batch's edges") {
  edge_file f;
  std::mt19937 rng(3);
  f.num_vertices = 30;
  for (int i = 0; i < 200; ++i) f.src.push_back(vertex_t(rng() % 30)), f.dst.push_back(vertex_t(rng() % 30));
  for (int fraction10 : {0, 3, 10}) {
    CAPTURE(fraction10);
    stream_session<host_space> s(stream_options{}, 30);
    std::vector<batch_report> reports;
    stream_file(s, f, 45, fraction10 / 10.0, 7, [&](const batch_report& r) { reports.push_back(r); });
    REQUIRE(reports.size() == 5);  // 45 x 4 + 20
    std::int64_t deletes = 0;
    for (const auto& r : reports) deletes += std::int64_t(r.deletes);
    CHECK(deletes == (fraction10 == 0 ? 0 : fraction10 == 10 ? 200 : 14 * 4 + 6));
    edge_set all;
    for (std::size_t i = 0; i < f.src.size(); ++i) all.insert({f.src[i], f.dst[i]});
    const auto got = s.edges();
    const edge_set left(got.begin(), got.end());
    if (fraction10 == 0) CHECK(left == all);
    if (fraction10 == 10) CHECK(left.empty());
    for (const auto& e : left) CHECK(all.count(e) == 1);
  }
}

TEST_CASE("stream_session: compare needs an analysis") {
  stream_options so;
  so.compare = true;
  CHECK_THROWS_AS(stream_session<host_space>(so, 0), fg::invalid_argument);
}

}  // namespace

TEST_CASE_TEMPLATE("stream_session: BFS, SSSP, WCC and triangles kept current, checked after every batch; a failed batch resyncs them",
                   S, host_space, device_space) {
  stream_options o;
  o.pagerank_at_end = false;
  o.bfs_source = 0, o.sssp_source = 1, o.wcc = true, o.triangles = true;
  o.compare = true;  // every application also from scratch: fg::error if they differ
  stream_session<S> s(o, 30);
  std::mt19937 rng(23);
  std::set<std::pair<vertex_t, vertex_t>> model;
  edge_list ins, del;
  int failed = 0;
  for (int b = 0; b < 300; ++b) {
    CAPTURE(b);
    random_batch(rng, 30, model, ins, del);
    if (b % 50 == 25) {
      // inserts, then a delete batch with a negative id: the inserts stay, the deletes fail
      edge_list bad;
      bad.src = {-1}, bad.dst = {0};
      CHECK_THROWS_AS(s.apply(ins, bad, 0, batch_order::inserts_then_deletes), batch_error);
      for (std::size_t i = 0; i < ins.size(); ++i) model.insert({ins.src[i], ins.dst[i]});
      ++failed;
      continue;
    }
    const batch_report r = s.apply(ins, del, 0, b % 3 ? batch_order::deletes_first : batch_order::inserts_then_deletes);
    if (b % 3) {
      for (std::size_t i = 0; i < del.size(); ++i) model.erase({del.src[i], del.dst[i]});
      for (std::size_t i = 0; i < ins.size(); ++i) model.insert({ins.src[i], ins.dst[i]});
    } else {
      for (std::size_t i = 0; i < ins.size(); ++i) model.insert({ins.src[i], ins.dst[i]});
      for (std::size_t i = 0; i < del.size(); ++i) model.erase({del.src[i], del.dst[i]});
    }
    CHECK(r.components >= 1);
  }
  CHECK(failed == 6);
}
