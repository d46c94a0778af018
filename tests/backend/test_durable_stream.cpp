// Durable streams through the public API (fluxgraph::stream with durability.dir), on this build's
// device: a stream closed and reopened on its folder after every few batches, in each sync mode,
// ends with the edges, ids and position of one that was never interrupted; save/load and
// checkpoint; a snapshot of a stream loads as a graph.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <random>

#include "fluxgraph/fluxgraph.hpp"

namespace {
namespace fs = std::filesystem;

fluxgraph::live_batch random_batch(std::mt19937& rng, std::int32_t& vertices, std::int64_t number) {
  fluxgraph::live_batch b;
  b.number = number;
  const int grow = int(rng() % 4);
  for (int i = 0; i < grow; ++i) b.new_ids.push_back(10 * (vertices + i) + 7);
  vertices += grow;
  b.vertices = vertices;
  if (vertices < 2) return b;
  for (int i = 0; i < 40; ++i) b.inserts.src.push_back(int(rng() % unsigned(vertices))), b.inserts.dst.push_back(int(rng() % unsigned(vertices)));
  for (int i = 0; i < 8; ++i) b.deletes.src.push_back(int(rng() % unsigned(vertices))), b.deletes.dst.push_back(int(rng() % unsigned(vertices)));
  b.insert_lines = 40, b.delete_lines = 8;
  return b;
}

std::vector<std::pair<int, int>> pairs(const fluxgraph::stream& s) {
  const fluxgraph::coo c = s.edges();
  std::vector<std::pair<int, int>> e;
  for (std::size_t i = 0; i < c.src.size(); ++i) e.emplace_back(c.src[i], c.dst[i]);
  return e;
}
}  // namespace

TEST_CASE("durable stream: reopened on its folder, it goes on as if never interrupted") {
  // part 3: a snapshot is copied a few rows a batch, over the batches after it (inserts, deletes
  // and new vertices meanwhile); the default copies these graphs whole at once.
  for (const std::int64_t part : {std::int64_t(3), std::int64_t(1) << 17})
  for (const auto sync : {fluxgraph::sync_mode::batch, fluxgraph::sync_mode::interval, fluxgraph::sync_mode::none}) {
    CAPTURE(part);
    const fs::path dir = fs::temp_directory_path() / ("fg_durable_" + std::to_string(::getpid()) + "_" + std::to_string(int(sync)));
    fs::remove_all(dir);
    fluxgraph::stream_options plain;
    plain.pagerank_at_end = false;
    plain.closure = true;
    fluxgraph::stream_options durable = plain;
    durable.durability.dir = dir.string();
    durable.durability.sync = sync;
    durable.durability.sync_interval = 0.001;
    durable.durability.snapshot_every = 5;
    durable.durability.snapshot_part = part;
    fluxgraph::stream reference(plain);
    std::mt19937 rng(11);
    std::int32_t vertices = 0;
    auto s = std::make_unique<fluxgraph::stream>(durable);
    CHECK(s->recovery().durable);
    CHECK(s->recovery().batches == 0);
    std::int64_t last_snapshot = 0;  // snapshots fall due every 5 batches, later while one is made
    for (std::int64_t n = 1; n <= 40; ++n) {
      const fluxgraph::live_batch b = random_batch(rng, vertices, n);
      reference.apply(b);
      const fluxgraph::batch_report r = s->apply(b);
      CHECK(r.batch == n);
      if (r.snapshot) {
        CHECK(n - last_snapshot >= 5);
        last_snapshot = n;
      }
      if (n % 7 == 3) {  // close and reopen
        s.reset();
        s = std::make_unique<fluxgraph::stream>(durable);
        const fluxgraph::recovery_info ri = s->recovery();
        CHECK(ri.batches == n);
        CHECK(ri.lines == reference.lines());
        CHECK(ri.snapshot_batch == last_snapshot);  // closing finished it and waited for it
        CHECK(ri.replayed == n - last_snapshot);
        CHECK(pairs(*s) == pairs(reference));
        CHECK(s->closure_pairs() == reference.closure_pairs());
      }
    }
    CHECK(s->ids() == reference.ids());
    CHECK(s->lines() == reference.lines());
    CHECK(pairs(*s) == pairs(reference));
    // save: the graph with its ids, loadable as a graph and as a stream's start
    const std::string snap = (dir / "out.fgsnap").string();
    s->save(snap);
    std::vector<std::int64_t> ids;
    const fluxgraph::graph g = fluxgraph::load(snap, {}, &ids);
    CHECK(ids == reference.ids());
    CHECK(g.num_edges() == reference.num_edges());
    fluxgraph::stream again(plain);
    again.load(snap);
    CHECK(pairs(again) == pairs(reference));
    CHECK(again.ids() == reference.ids());
    CHECK_THROWS_AS(again.load(snap), fluxgraph::error);  // only before the first batch
    s->checkpoint();
    s.reset();
    fluxgraph::stream last(durable);
    CHECK(last.recovery().replayed == 0);
    CHECK(last.recovery().snapshot_batch == 40);
    fs::remove_all(dir);
  }
}

TEST_CASE("durable stream: what the API lets through is recoverable; a seed's snapshot is required") {
  const fs::path dir = fs::temp_directory_path() / ("fg_durable_api_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fluxgraph::stream_options o;
  o.pagerank_at_end = false;
  o.durability.dir = (dir / "wal").string();
  {  // a delete naming a vertex past the graph deletes nothing, and its record reads back
    fluxgraph::stream s(o);
    fluxgraph::edge_list ins, del;
    ins.src = {0, 1}, ins.dst = {1, 2};
    del.src = {5}, del.dst = {1000000};
    s.apply(ins, {}, 3);
    s.apply({}, del, 0);
    CHECK(s.num_edges() == 2);
  }
  {
    fluxgraph::stream s(o);
    CHECK(s.recovery().batches == 2);
    CHECK(s.num_edges() == 2);
  }
  // A stream started from a snapshot: its log-0 cannot be replayed without that snapshot.
  const std::string snap = (dir / "seed.fgsnap").string();
  {
    fluxgraph::stream plain;
    fluxgraph::edge_list ins;
    ins.src = {0, 1, 2}, ins.dst = {1, 2, 0};
    plain.apply(ins, {});
    plain.save(snap);
  }
  o.durability.dir = (dir / "seeded").string();
  {
    fluxgraph::stream s(o);
    s.load(snap);
    fluxgraph::edge_list ins;
    ins.src = {3}, ins.dst = {0};
    s.apply(ins, {}, 4);
  }
  {
    fluxgraph::stream s(o);
    CHECK(s.num_edges() == 4);
    CHECK(s.recovery().snapshot_batch == 0);
    CHECK(s.recovery().replayed == 1);
  }
  const fs::path snap0 = dir / "seeded" / "snap-00000000000000000000.fgsnap";
  REQUIRE(fs::exists(snap0));
  fs::resize_file(snap0, fs::file_size(snap0) - 3);
  CHECK_THROWS_WITH_AS(fluxgraph::stream{o}, doctest::Contains("started from a snapshot"), fluxgraph::error);
  fs::remove_all(dir);
}
