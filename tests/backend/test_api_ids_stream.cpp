// A renumbering fluxgraph::stream's one id list (docs/api.md "Vertex ids"): live batches into a
// stream that starts with vertices, batches that fail after the store update, a durable stream's
// ids after a reopen and a snapshot's. Checked against hand-worked ids. Uses the allocation-limit
// test hook (core/memory.hpp) besides the public header.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/memory.hpp"
#include "fluxgraph/fluxgraph.hpp"
#include "tests/temp_path.hpp"

namespace {
namespace fs = std::filesystem;
using ids = std::vector<std::int64_t>;
using edge = std::pair<std::int64_t, std::int64_t>;

// The stream's edges in its ids (each vertex must have one).
std::set<edge> id_edges(const fluxgraph::stream& s) {
  const fluxgraph::coo c = s.edges();
  const ids& name = s.ids();
  std::set<edge> e;
  for (std::size_t i = 0; i < c.src.size(); ++i) {
    REQUIRE(std::size_t(std::max(c.src[i], c.dst[i])) < name.size());
    e.insert({name[std::size_t(c.src[i])], name[std::size_t(c.dst[i])]});
  }
  return e;
}

// The batches a live_reader cuts from `text` (written to a pipe and closed), numbering new ids
// after `known`.
std::vector<fluxgraph::live_batch> read_live(const std::string& text, const ids& known) {
  int fd[2];
  REQUIRE(pipe(fd) == 0);
  REQUIRE(write(fd[1], text.data(), text.size()) == ssize_t(text.size()));  // fits the pipe's buffer
  close(fd[1]);
  fluxgraph::live_options o;
  o.known_ids = known;
  std::vector<fluxgraph::live_batch> out;
  {
    fluxgraph::live_reader in(fd[0], o);
    for (fluxgraph::live_batch b; in.next(b);) out.push_back(b);
  }
  close(fd[0]);
  return out;
}

std::string temp_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fg_ids_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(d);
  return d.string();
}
}  // namespace

TEST_CASE("stream renumbering: live batches into stream(opt, n) continue its ids; top() and a reopen agree") {
  fluxgraph::stream_options so;
  so.pagerank_per_batch = true;
  so.durability.dir = temp_dir("live");
  {
    fluxgraph::stream s(so, 3);  // ids 0, 1, 2
    REQUIRE(s.ids() == ids{0, 1, 2});
    // Without known_ids the reader numbers 100 as 0, the stream's vertex of id 0: refused.
    const std::vector<fluxgraph::live_batch> wrong = read_live("100 50\n", {});
    REQUIRE(wrong.size() == 1);
    CHECK_THROWS_AS(s.apply(wrong[0]), fluxgraph::invalid_argument);
    CHECK(s.ids() == ids{0, 1, 2});
    CHECK(s.num_edges() == 0);
    for (const fluxgraph::live_batch& b : read_live("100 50\n0 100\n2 50\n", s.ids())) s.apply(b);
    CHECK(s.ids() == ids{0, 1, 2, 100, 50});  // new ids in the order the reader met them
    CHECK(id_edges(s) == std::set<edge>{{100, 50}, {0, 100}, {2, 50}});
    // PageRank by hand: 50 has the most in-flow (from 100 and 2), then 100 (from 0).
    const auto top = s.top(2);
    REQUIRE(top.size() == 2);
    CHECK(top[0].first == 50);
    CHECK(top[1].first == 100);
    const ids more{7}, to{50};
    s.apply({more.data(), to.data(), 1}, {});  // a batch in ids after the live ones
    CHECK(s.ids() == ids{0, 1, 2, 100, 50, 7});
  }
  fluxgraph::stream again(so);  // the journal holds every id, 0..2 included
  CHECK(again.ids() == ids{0, 1, 2, 100, 50, 7});
  CHECK(id_edges(again) == std::set<edge>{{100, 50}, {0, 100}, {2, 50}, {7, 50}});
  fs::remove_all(so.durability.dir);
}

TEST_CASE("stream renumbering: a batch that fails after the store update keeps an id for every vertex") {
  // inserts_then_deletes: the inserts land, then the deletes (or growth, or PageRank) run out of
  // memory at some limit; whatever failed, every vertex the store has keeps its id.
  fluxgraph::stream_options so;
  so.pagerank_per_batch = true;
  int failed = 0, after_store = 0;
  for (std::size_t extra = 0;; extra = extra * 5 / 4 + 1024) {  // limits from none to enough
    CAPTURE(extra);
    fluxgraph::stream s(so);
    fluxgraph::edge_list base, ins, del;  // in ids (a renumbering stream widens them)
    for (int i = 0; i < 300; ++i) base.src.push_back(1000 * i + 5), base.dst.push_back(1000 * ((i * 7) % 300) + 5);
    s.apply(base, {});
    const fluxgraph::vertex_id n = s.num_vertices();
    for (int i = 0; i < 400; ++i) ins.src.push_back(7000000 + 13 * i), ins.dst.push_back(1000 * (i % 300) + 5);
    del.src.assign(base.src.begin(), base.src.begin() + 100), del.dst.assign(base.dst.begin(), base.dst.begin() + 100);
    bool ok = true;
    fg::memory::set_limit_for_testing(fg::memory::bytes_in_use() + extra);
    try {
      s.apply(ins, del, 0, fluxgraph::batch_order::inserts_then_deletes);
    } catch (const fluxgraph::out_of_memory&) {
      ok = false;
    } catch (...) {
      fg::memory::set_limit_for_testing(0);
      throw;
    }
    fg::memory::set_limit_for_testing(0);
    CHECK(s.ids().size() >= std::size_t(s.num_vertices()));
    CHECK(id_edges(s).size() == std::size_t(s.num_edges()));
    for (const auto& [id, score] : s.top(5)) CHECK(std::find(s.ids().begin(), s.ids().end(), id) != s.ids().end());
    if (ok) break;
    ++failed;
    if (s.num_vertices() > n) ++after_store;
    // The stream goes on: a later batch's ids follow.
    const ids e{42}, f{43};
    s.apply({e.data(), f.data(), 1}, {});
    CHECK(s.ids().size() == std::size_t(s.num_vertices()));
    CHECK(id_edges(s).count({42, 43}) == 1);
  }
  CHECK(failed > 0);
  CHECK(after_store > 0);  // some limits are hit past the store update (the deletes, PageRank)
}

TEST_CASE("stream renumbering: a journal that fails after the store update leaves an id for every vertex") {
  // The log may not grow past its size (RLIMIT_FSIZE, SIGXFSZ ignored: the write fails with EFBIG):
  // the batch's store update lands, its append fails, and the stream refuses later batches.
  fluxgraph::stream_options so;
  so.pagerank_per_batch = true;
  so.durability.dir = temp_dir("journal");
  fluxgraph::stream s(so);
  const ids a{5, 1000000}, b{1000000, 5};
  s.apply({a.data(), b.data(), 2}, {});
  std::uintmax_t log = 0;
  for (const auto& f : fs::directory_iterator(so.durability.dir))
    if (f.path().extension() == ".wal") log = std::max(log, f.file_size());
  REQUIRE(log > 0);
  rlimit old{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
  const auto handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit cap = old;
  cap.rlim_cur = rlim_t(log);
  REQUIRE(setrlimit(RLIMIT_FSIZE, &cap) == 0);
  const ids c{77, 1000000, 3}, d{5, 77, 77};
  bool threw = false;
  try {
    s.apply({c.data(), d.data(), 3}, {});
  } catch (const fluxgraph::error&) {
    threw = true;
  }
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, handler);
  CHECK(threw);
  CHECK(s.num_vertices() == 4);  // applied in memory, not durable
  CHECK(s.ids() == ids{5, 1000000, 3, 77});
  CHECK(id_edges(s) == std::set<edge>{{5, 1000000}, {1000000, 5}, {77, 5}, {1000000, 77}, {3, 77}});
  for (const auto& [id, score] : s.top(4)) CHECK((id == 5 || id == 1000000 || id == 3 || id == 77));
  fs::remove_all(so.durability.dir);
}

TEST_CASE("stream renumbering: sparse ids through apply come back from a reopened journal and a snapshot") {
  fluxgraph::stream_options so;
  so.durability.dir = temp_dir("sparse");
  const ids a{std::int64_t(1) << 40, 9, 77}, b{9, 77, std::int64_t(1) << 40};
  const std::set<edge> want{{std::int64_t(1) << 40, 9}, {9, 77}, {77, std::int64_t(1) << 40}};
  const std::string snap = fg::test::temp_path("sparse_ids.fgsnap");
  {
    fluxgraph::stream s(so);
    s.apply({a.data(), b.data(), 3}, {});
    CHECK(s.ids() == ids{9, 77, std::int64_t(1) << 40});  // increasing order within the batch
    s.save(snap);
  }
  fluxgraph::stream again(so);
  CHECK(again.ids() == ids{9, 77, std::int64_t(1) << 40});
  CHECK(id_edges(again) == want);
  fluxgraph::stream loaded{fluxgraph::stream_options{}};
  loaded.load(snap);
  CHECK(loaded.ids() == ids{9, 77, std::int64_t(1) << 40});
  CHECK(id_edges(loaded) == want);
  const ids c{9}, d{5};
  loaded.apply({c.data(), d.data(), 1}, {});
  CHECK(loaded.ids() == ids{9, 77, std::int64_t(1) << 40, 5});
  fs::remove(snap);
  fs::remove_all(so.durability.dir);
}
