// Snapshots (graph::save, fluxgraph::load; loaders/snapshot): round trips across devices, weighted
// and not, with ids; a snapshot the CPU build wrote (tests/data/snapshot) loading in this build;
// every corruption refused (each byte flipped in turn where it matters, truncations, another
// version, trailing bytes) without a graph being built; saving is atomic.
#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <tuple>

#include "fluxgraph/fluxgraph.hpp"
#include "tests/temp_path.hpp"

namespace {
using fluxgraph::graph;
namespace fs = std::filesystem;

std::vector<std::tuple<int, int, double>> entries(const graph& g) {
  const fluxgraph::coo c = g.to_coo();
  std::vector<std::tuple<int, int, double>> e;
  for (std::size_t i = 0; i < c.src.size(); ++i) e.emplace_back(c.src[i], c.dst[i], c.val.empty() ? 1.0 : c.val[i]);
  std::sort(e.begin(), e.end());
  return e;
}

using fg::test::temp_path;

std::vector<char> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void write_bytes(const std::string& path, const std::vector<char>& b) {
  std::ofstream(path, std::ios::binary).write(b.data(), std::streamsize(b.size()));
}

// A fragmented weighted multigraph: batches with parallel edges, then deletes.
graph streamed(fluxgraph::device d, bool weighted) {
  fluxgraph::graph_options o;
  o.where = d;
  o.weighted = weighted;
  o.max_segments = 3;
  graph g(0, o);
  std::mt19937 rng(21);
  for (int b = 0; b < 30; ++b) {
    std::vector<std::int32_t> s(200), t(200);
    std::vector<double> w(200);
    for (int i = 0; i < 200; ++i) s[i] = std::int32_t(rng() % 500), t[i] = std::int32_t(rng() % 500), w[i] = 0.25 * (rng() % 9);
    g.insert(s, t, weighted ? w : std::vector<double>{});
    s.resize(40), t.resize(40);
    g.erase(s, t);
  }
  return g;
}
}  // namespace

TEST_CASE("snapshot: round trips between the devices, weighted or not, with ids") {
  for (bool weighted : {false, true})
    for (auto from : {fluxgraph::device::automatic, fluxgraph::device::cpu})
      for (auto to : {fluxgraph::device::automatic, fluxgraph::device::cpu}) {
        CAPTURE(weighted);
        const graph g = streamed(from, weighted);
        std::vector<std::int64_t> ids(std::size_t(g.num_vertices()));
        for (std::size_t v = 0; v < ids.size(); ++v) ids[v] = 1000 + 7 * std::int64_t(v);
        const std::string path = temp_path("g.snap");
        g.save(path, ids);
        fluxgraph::graph_options o;
        o.where = to;
        std::vector<std::int64_t> back;
        const graph h = fluxgraph::load(path, o, &back);
        CHECK(h.weighted() == weighted);
        CHECK(h.where() == to);
        CHECK(h.num_vertices() == g.num_vertices());
        CHECK(entries(h) == entries(g));
        CHECK(back == ids);
        CHECK(h.ids() == ids);  // a renumbering graph's ids are the saved ones
        g.save(path);  // again, without ids: replaces the file, with the graph's own ids
        const graph r = fluxgraph::load(path, o, &back);
        CHECK(back == g.ids());
        CHECK(r.ids() == g.ids());
        CHECK(entries(r) == entries(g));
      }
  // Ids 0..n-1 (a dense graph's, or a renumbering graph's in that order) are not saved.
  fluxgraph::graph_options dense;
  dense.ids = fluxgraph::vertex_ids::dense;
  const std::string path = temp_path("d.snap");
  std::vector<std::int64_t> back{1};
  for (const auto& o : {dense, fluxgraph::graph_options{}}) {
    graph g(0, o);
    g.insert(std::vector<std::int32_t>{0, 1, 2}, std::vector<std::int32_t>{1, 2, 3});
    g.save(path);
    const graph h = fluxgraph::load(path, o, &back);
    CHECK(back.empty());
    CHECK(h.ids() == std::vector<fluxgraph::vertex_id>{0, 1, 2, 3});
    CHECK(h.renumbered() == g.renumbered());
  }
}

TEST_CASE("snapshot: the one the CPU build wrote (tests/data/snapshot/karate.fgsnap) loads here") {
  // Written by `graph g = read(karate.mtx); g.save(path, ids v + 1)` in the CPU build.
  std::vector<std::int64_t> ids;
  const graph g = fluxgraph::load(FG_TEST_DATA_DIR "/snapshot/karate.fgsnap", {}, &ids);
  const graph k = fluxgraph::read(FG_TEST_DATA_DIR "/loaders/karate.mtx");
  CHECK(entries(g) == entries(k));
  REQUIRE(ids.size() == 34);
  for (std::size_t v = 0; v < ids.size(); ++v) CHECK(ids[v] == std::int64_t(v) + 1);
  CHECK(g.ids() == ids);
  CHECK(k.ids() == ids);  // Matrix Market's ids as written
}

TEST_CASE("snapshot: the one the CUDA build wrote (tests/data/snapshot/karate_cuda_stream.fgsnap) loads here") {
  // Written on an H200 by `fluxgraph stream karate.mtx --batch 20 --snapshot-out ...` (CUDA build):
  // a stream's snapshot (in-edge store transposed back, file ids, the stream's position).
  const std::string path = FG_TEST_DATA_DIR "/snapshot/karate_cuda_stream.fgsnap";
  std::vector<std::int64_t> ids;
  const graph g = fluxgraph::load(path, {}, &ids);
  CHECK(entries(g) == entries(fluxgraph::read(FG_TEST_DATA_DIR "/loaders/karate.mtx")));
  REQUIRE(ids.size() == 34);
  for (std::size_t v = 0; v < ids.size(); ++v) CHECK(ids[v] == std::int64_t(v) + 1);
  fluxgraph::stream s;
  s.load(path);
  CHECK(s.num_edges() == 156);
  CHECK(s.ids() == ids);
}

TEST_CASE("snapshot: every corruption is refused with a clear error and no graph") {
  const graph g = streamed(fluxgraph::device::automatic, true);
  const std::string path = temp_path("c.snap"), bad = temp_path("bad.snap");
  g.save(path, std::vector<std::int64_t>(std::size_t(g.num_vertices()), 5));
  const std::vector<char> good = bytes_of(path);
  auto refused = [&](const std::vector<char>& b, const char* what) {
    write_bytes(bad, b);
    CHECK_THROWS_WITH_AS(fluxgraph::load(bad), doctest::Contains(what), fluxgraph::input_error);
  };
  // Every byte of the header and the frames, and a spread of payload bytes, flipped in turn.
  std::mt19937 rng(3);
  int flipped = 0;
  for (std::size_t i = 0; i < good.size(); i += (i < 64 ? 1 : 1 + rng() % 97)) {
    std::vector<char> b = good;
    b[i] = char(b[i] ^ (1 << (i % 8)));
    write_bytes(bad, b);
    CHECK_THROWS_AS(fluxgraph::load(bad), fluxgraph::input_error);
    ++flipped;
  }
  CHECK(flipped > 100);
  for (std::size_t n : {std::size_t(0), std::size_t(7), std::size_t(47), std::size_t(48), std::size_t(63), good.size() / 2, good.size() - 1})
    refused(std::vector<char>(good.begin(), good.begin() + std::ptrdiff_t(n)), n < 48 ? "too short" : "truncated");
  std::vector<char> longer = good;
  longer.push_back('x');
  refused(longer, "1 bytes after the last section");
  // Another version, with a header checksum that matches it: refused by version, not as damage.
  std::vector<char> v2 = good;
  const std::uint32_t two = 2;
  std::memcpy(v2.data() + 8, &two, 4);
  std::memset(v2.data() + 40, 0, 4);  // the header's checksum covers all 48 bytes, itself read as 0
  const std::uint32_t crc = std::uint32_t(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(v2.data()), 48));
  std::memcpy(v2.data() + 40, &crc, 4);
  refused(v2, "snapshot version 2: this fluxgraph reads version 1");
  write_bytes(bad, {'1', ' ', '2', '\n'});
  CHECK_THROWS_WITH_AS(fluxgraph::load(bad), doctest::Contains("not a fluxgraph snapshot"), fluxgraph::input_error);
  CHECK_THROWS_WITH_AS(fluxgraph::load(temp_path("absent.snap")), doctest::Contains("cannot open"), fluxgraph::input_error);
}

TEST_CASE("snapshot: saving is atomic: a failed save leaves the old file whole and no temporary") {
  const graph g = streamed(fluxgraph::device::automatic, false);
  const std::string path = temp_path("a.snap");
  g.save(path);
  const std::vector<char> before = bytes_of(path);
  CHECK_THROWS_AS(g.save(path, {1, 2, 3}), fluxgraph::invalid_argument);  // wrong id count: nothing written
  CHECK(bytes_of(path) == before);
  CHECK_THROWS_AS(g.save(temp_path("no/such/folder/a.snap")), fluxgraph::error);
  for (const auto& e : fs::directory_iterator(fs::path(path).parent_path()))
    CHECK(e.path().string().find(".tmp") == std::string::npos);
}
