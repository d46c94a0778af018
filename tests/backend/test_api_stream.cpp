// The public stream API (include/fluxgraph/stream.hpp, live.hpp): fluxgraph::stream against a host
// edge-set model (edges, closure pairs by BFS) and fluxgraph::graph's PageRank of the same edges,
// on both devices; stream_file; live_reader over a pipe. Only public headers, as a user would.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "fluxgraph/fluxgraph.hpp"

namespace {
using edge = std::pair<std::int32_t, std::int32_t>;

std::int64_t closure_pairs(const std::set<edge>& e, std::int32_t n) {
  std::vector<std::vector<std::int32_t>> adj(static_cast<std::size_t>(n));
  for (const auto& [u, v] : e) adj[std::size_t(u)].push_back(v);
  std::int64_t pairs = 0;
  for (std::int32_t s = 0; s < n; ++s) {
    std::vector<char> seen(std::size_t(n), 0);
    std::vector<std::int32_t> todo(adj[std::size_t(s)].begin(), adj[std::size_t(s)].end());
    while (!todo.empty()) {
      const std::int32_t u = todo.back();
      todo.pop_back();
      if (seen[std::size_t(u)]) continue;
      seen[std::size_t(u)] = 1, ++pairs;
      for (std::int32_t v : adj[std::size_t(u)]) todo.push_back(v);
    }
  }
  return pairs;
}

std::set<edge> edges_of(const fluxgraph::coo& c) {
  std::set<edge> s;
  for (std::size_t i = 0; i < c.src.size(); ++i) s.insert({c.src[i], c.dst[i]});
  return s;
}
}  // namespace

TEST_CASE("api stream: batches with PageRank and the closure kept current equal the model and a graph's PageRank") {
  for (auto d : {fluxgraph::device::automatic, fluxgraph::device::cpu}) {
    fluxgraph::stream_options o;
    o.where = d;
    o.pagerank_per_batch = true;
    o.pagerank.tol = 1e-12;
    o.closure = true;
    fluxgraph::stream s(o);
    std::set<edge> model;
    std::mt19937 rng(11);
    const std::int32_t n = 300;
    for (int b = 1; b <= 40; ++b) {
      fluxgraph::edge_list ins, del;
      for (int i = 0; i < 60; ++i) ins.src.push_back(std::int32_t(rng() % n)), ins.dst.push_back(std::int32_t(rng() % n));
      if (b % 4 == 0)
        for (auto it = model.begin(); it != model.end() && del.size() < 20; ++it)
          if (rng() % 3 == 0) del.src.push_back(it->first), del.dst.push_back(it->second);
      for (std::size_t i = 0; i < del.size(); ++i) model.erase({del.src[i], del.dst[i]});
      for (std::size_t i = 0; i < ins.size(); ++i) model.insert({ins.src[i], ins.dst[i]});
      const fluxgraph::batch_report r = s.apply(ins, del, n);
      CHECK(r.batch == b);
      CHECK(r.edges == std::int64_t(model.size()));
      CHECK(r.vertices == n);
      CHECK(r.closure_pairs == closure_pairs(model, n));
      CHECK(r.pr_iterations > 0);
    }
    CHECK(edges_of(s.edges()) == model);
    CHECK(s.totals().batches == 40);
    CHECK(s.closure_pairs() == closure_pairs(model, n));
    // The last warm-started scores against a graph's cold PageRank of the same edges.
    fluxgraph::graph g(n);
    std::vector<std::int32_t> src, dst;
    for (const auto& [u, v] : model) src.push_back(u), dst.push_back(v);
    g.insert(src, dst);
    fluxgraph::pagerank_options p;
    p.tol = 1e-12;
    const std::vector<double> want = g.pagerank(p).score;
    const std::vector<double> got = s.scores().score;
    REQUIRE(got.size() == want.size());
    double l1 = 0;
    for (std::size_t i = 0; i < got.size(); ++i) l1 += std::abs(got[i] - want[i]);
    CHECK(l1 < 1e-6);
    const fluxgraph::stream_end end = s.finish();
    CHECK(end.has_pagerank);
    CHECK(end.pagerank.score.size() == std::size_t(n));
  }
}

TEST_CASE("api stream: a bad batch throws and leaves the stream as it was; stream_file deletes a seeded share") {
  fluxgraph::stream s;
  s.apply({{0, 1}, {1, 2}, {}}, {});
  CHECK_THROWS_AS(s.apply({{0, 1}, {2}, {}}, {}), fluxgraph::invalid_argument);
  CHECK_THROWS_AS(s.apply({{-1}, {2}, {}}, {}), fluxgraph::batch_error);
  CHECK(s.num_edges() == 2);
  CHECK(s.totals().batches == 1);
  CHECK_THROWS_AS(fluxgraph::stream(fluxgraph::stream_options{}, -1), fluxgraph::invalid_argument);

  const fluxgraph::edge_file f = fluxgraph::read_edges(FG_TEST_DATA_DIR "/closure/OL.cedge.data_7035.txt.gz");
  CHECK(f.num_edges() == 7035);
  CHECK(f.original_id.size() == std::size_t(f.num_vertices));
  fluxgraph::stream_options dense;  // stream_file gives the file's vertex numbers
  dense.ids = fluxgraph::vertex_ids::dense;
  fluxgraph::stream t(dense, f.num_vertices);
  std::int64_t batches = 0, removed = 0;
  t.stream_file(f, 1000, 0.25, 7, [&](const fluxgraph::batch_report& r) { ++batches, removed += r.removed; });
  CHECK(batches == 8);
  fluxgraph::edge_file broken = f;
  broken.dst.pop_back();
  CHECK_THROWS_AS(t.stream_file(broken, 1000), fluxgraph::invalid_argument);
  CHECK(removed > 1000);
  std::set<edge> all;
  for (std::size_t i = 0; i < f.src.size(); ++i) all.insert({f.src[i], f.dst[i]});
  const std::set<edge> left = edges_of(t.edges());
  CHECK(std::int64_t(left.size()) == t.num_edges());
  CHECK(std::int64_t(left.size()) == std::int64_t(all.size()) - removed);
  for (const auto& e : left) CHECK(all.count(e) == 1);
}

TEST_CASE("api live_reader: text from a pipe, cut into batches, applied to a stream; a bad line is named") {
  int fd[2];
  REQUIRE(pipe(fd) == 0);
  std::thread writer([w = fd[1]] {
    std::string text;
    for (int i = 0; i < 2000; ++i) text += std::to_string(100 + i % 97) + " " + std::to_string(200 + i % 89) + "\n";
    text += "- 100 200\n# a comment\n";
    for (std::size_t off = 0; off < text.size();) {
      const ssize_t k = write(w, text.data() + off, text.size() - off);
      if (k <= 0) break;
      off += std::size_t(k);
    }
    close(w);
  });
  fluxgraph::live_options lo;
  lo.batch_edges = 300;
  fluxgraph::stream s;
  std::vector<std::int64_t> id;
  std::int64_t batches = 0;
  {
    fluxgraph::live_reader in(fd[0], lo);
    for (fluxgraph::live_batch b; in.next(b);) {
      id.insert(id.end(), b.new_ids.begin(), b.new_ids.end());
      s.apply(b.inserts, b.deletes, b.vertices);
      ++batches;
    }
    CHECK(in.skipped() == 0);
  }
  writer.join();
  close(fd[0]);
  CHECK(batches >= 7);
  std::set<std::pair<std::int64_t, std::int64_t>> want, got;
  for (int i = 0; i < 2000; ++i) want.insert({100 + i % 97, 200 + i % 89});
  want.erase({100, 200});
  const fluxgraph::coo c = s.edges();
  for (std::size_t i = 0; i < c.src.size(); ++i) got.insert({id[std::size_t(c.src[i])], id[std::size_t(c.dst[i])]});
  CHECK(got == want);

  REQUIRE(pipe(fd) == 0);
  const std::string bad = "1 2\n3 x\n";
  REQUIRE(write(fd[1], bad.data(), bad.size()) == ssize_t(bad.size()));
  close(fd[1]);
  {
    fluxgraph::live_reader in(fd[0], lo);
    fluxgraph::live_batch b;
    CHECK_THROWS_WITH_AS(in.next(b), doctest::Contains("<stdin>:2"), fluxgraph::input_error);
  }
  close(fd[0]);
  fluxgraph::live_options no_edges, no_end;
  no_edges.batch_edges = 0;
  no_end.max_delay = 1.0 / 0.0;
  CHECK_THROWS_AS(fluxgraph::live_reader(0, no_edges), fluxgraph::invalid_argument);
  CHECK_THROWS_AS(fluxgraph::live_reader(0, no_end), fluxgraph::invalid_argument);
  fluxgraph::live_options twice;
  twice.known_ids = {5, 9, 5};
  CHECK_THROWS_WITH_AS(fluxgraph::live_reader(0, twice), doctest::Contains("known twice"), fluxgraph::invalid_argument);
}

// memory_use() against the allocator's own total (core/memory): with every part of a graph and a
// stream itemized, the allocator's total less the parts is what was in use before they existed
// (`base`, from a graph of one vertex kept alive beside them). Run twice: the first run makes
// whatever the device code allocates once per process.
TEST_CASE("api memory: a graph's and a stream's parts add up to the allocator's total") {
  const auto parts_of = [](const fluxgraph::memory_report& r, const std::string& name) {
    CAPTURE(name);
    return r.of(name);
  };
  for (int round = 0; round < 2; ++round) {
    const fluxgraph::graph one(1);
    const fluxgraph::memory_report r0 = one.memory_use();
    std::mt19937 rng(5);
    const std::int32_t n = 2000;
    std::vector<std::int32_t> src, dst;
    fluxgraph::graph g(n);
    for (int b = 0; b < 4; ++b) {
      src.clear(), dst.clear();
      for (int i = 0; i < 5000; ++i) src.push_back(std::int32_t(rng() % n)), dst.push_back(std::int32_t(rng() % n));
      g.insert(src, dst);
      if (b == 2) g.erase(std::vector<std::int32_t>(src.begin(), src.begin() + 100), std::vector<std::int32_t>(dst.begin(), dst.begin() + 100));
      g.pagerank();  // the in-edge copy and the kept PageRank, then fed by the next batches
    }
    std::vector<double> x(std::size_t(n), 1.0), y(x.size());
    for (int i = 0; i < 4; ++i) g.spmv(x.data(), y.data());
    const fluxgraph::memory_report r = g.memory_use();
    CHECK(r.edges == g.num_edges());
    if (round == 1) CHECK(r.in_use - r.total() == r0.in_use);
    CHECK(r.peak >= r.in_use);
    CHECK(parts_of(r, "out-edge store entries") >= std::size_t(4 * r.edges));
    CHECK(parts_of(r, "in-edge store entries") >= std::size_t(4 * r.edges));
    CHECK(parts_of(r, "kept pagerank") >= std::size_t(16 * n));  // y and r at least
    CHECK(r.packed == std::size_t(n + 1) * 8 + std::size_t(4 * r.edges));
    fluxgraph::stream_options o;
    o.pagerank_per_batch = true;
    fluxgraph::stream s(o);
    for (int b = 0; b < 5; ++b) {
      fluxgraph::edge_list ins;
      for (int i = 0; i < 3000; ++i) ins.src.push_back(std::int32_t(rng() % n)), ins.dst.push_back(std::int32_t(rng() % n));
      s.apply(ins, {}, n);
    }
    const fluxgraph::memory_report rs = s.memory_use();
    CHECK(rs.edges == s.num_edges());
    if (round == 1) CHECK(rs.in_use - rs.total() - r.total() == r0.in_use);
    CHECK(parts_of(rs, "in-edge store entries") >= std::size_t(4 * rs.edges));  // PageRank's store holds in-edges
    CHECK(parts_of(rs, "out-edge store entries") >= std::size_t(4 * rs.edges));  // the pushes' mirror
    CHECK(parts_of(rs, "kept pagerank") >= std::size_t(16 * n));
  }
}
