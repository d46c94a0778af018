// The batch pipeline under a long random stream: batch sizes from 1 to 1e5 (mostly small, as live
// streams are), random interleavings of insert / delete / mixed batches and reads, against the host
// edge-set model and the reference twin; and batches that run out of memory in the middle of the
// stream (a tiny buffer forces compactions, an allocation limit makes some of them fail), after
// which the store equals the model and the batch goes through once memory is back.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <set>
#include <string>

#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "tests/support.hpp"

using namespace fg;
using test::edges;

namespace {
using H = host_space;
using D = device_space;

// Sizes: 1..64 most of the time, up to 2000 often, 1e4..1e5 rarely (each size class once at least).
std::size_t batch_size(std::mt19937_64& g, std::size_t i) {
  if (i == 7) return 100000;
  if (i == 13) return 2048;
  if (i == 14) return 2049;
  const double u = std::uniform_real_distribution<double>(0, 1)(g);
  if (u < 0.002) return 10000 + g() % 90001;
  if (u < 0.05) return 65 + g() % 2000;
  return 1 + g() % 64;
}

// Edges with power-law rows (a few hubs) over `n` vertices.
edges random_edges(std::mt19937_64& g, std::size_t m, vertex_t n) {
  edges e;
  std::uniform_real_distribution<double> u(0, 1);
  for (std::size_t i = 0; i < m; ++i) {
    const auto r = vertex_t(double(n) * std::pow(u(g), 3.0));
    e.add(std::min(r, n - 1), vertex_t(g() % std::uint64_t(n)), 1.0 + double(g() % 7));
  }
  return e;
}

// Edges inserted earlier (some since deleted: absent again) and edges never inserted.
edges pick_deletions(std::mt19937_64& g, const std::vector<std::pair<vertex_t, vertex_t>>& keys, std::size_t m,
                     vertex_t n) {
  edges e;
  for (std::size_t i = 0; i < m; ++i) {
    if (!keys.empty() && g() % 4 != 0) {
      const auto& k = keys[g() % keys.size()];
      e.add(k.first, k.second, 0);
    } else {
      e.add(vertex_t(g() % std::uint64_t(n + 10)), vertex_t(g() % std::uint64_t(n)), 0);
    }
  }
  return e;
}

// A fixed small batch (rows 0..49).
edges random_edges_fixed() {
  std::mt19937_64 g(9);
  return random_edges(g, 300, 50);
}

template <class V>
void run_stream(std::uint64_t seed, std::size_t batches, vertex_t n, const dcsr_config& cfg) {
  std::mt19937_64 g(seed);
  dcsr_matrix<V, D> dev(cfg);
  dcsr_matrix<V, H> ref(cfg);
  test::edge_model model;
  model.collapse = dev.collapses_duplicates();
  std::size_t inserted = 0, reads = 0;
  std::vector<std::pair<vertex_t, vertex_t>> keys;  // every edge inserted so far
  for (std::size_t i = 0; i < batches; ++i) {
    CAPTURE(i);
    const std::size_t m = batch_size(g, i);
    const int kind = int(g() % 4);  // insert, delete, mixed, read
    if (kind == 0 || (kind == 3 && i % 2 == 0)) {
      const edges e = random_edges(g, m, n);
      dev.insert_batch(test::to_batch<V, D>(e));
      ref.insert_batch(test::to_batch<V, H>(e));
      for (std::size_t k = 0; k < e.r.size(); ++k) model.add(e.r[k], e.c[k], e.v[k]), keys.emplace_back(e.r[k], e.c[k]);
      inserted += m;
    } else if (kind == 1) {
      const edges e = pick_deletions(g, keys, std::min<std::size_t>(m, 3000), n);
      dev.delete_batch(test::to_batch<V, D>(e));
      ref.delete_batch(test::to_batch<V, H>(e));
      for (std::size_t k = 0; k < e.r.size(); ++k) model.remove(e.r[k], e.c[k]);
    } else if (kind == 2) {
      const edges del = pick_deletions(g, keys, std::min<std::size_t>(m / 2 + 1, 3000), n);
      const edges ins = random_edges(g, m, n);
      dev.apply_batch(test::to_batch<V, D>(ins), test::to_batch<V, D>(del));
      ref.apply_batch(test::to_batch<V, H>(ins), test::to_batch<V, H>(del));
      for (std::size_t k = 0; k < del.r.size(); ++k) model.remove(del.r[k], del.c[k]);
      for (std::size_t k = 0; k < ins.r.size(); ++k) model.add(ins.r[k], ins.c[k], ins.v[k]), keys.emplace_back(ins.r[k], ins.c[k]);
    } else {  // a read of the live (fragmented) store: its row sums against the model's
      const vertex_t rows = dev.rows();
      array<double, D> x = to_space<D>(std::vector<double>(std::size_t(dev.cols()), 1.0));
      array<double, D> y{std::size_t(rows)};
      spmv<plus_times<double>>(dev, x, y);
      if (++reads % 16 != 1) continue;  // every read runs; one in 16 is checked (the model's pass costs)
      REQUIRE(dev.nnz() == model.nnz());
      std::vector<double> want(std::size_t(rows), 0.0);
      for (const auto& [key, cell] : model.cells) want[std::size_t(key.first)] += is_pattern_v<V> ? 1.0 : cell.second;
      const auto got = to_vector(y);
      for (vertex_t r = 0; r < rows; ++r) REQUIRE(std::fabs(got[std::size_t(r)] - want[std::size_t(r)]) <= 1e-6 * (1 + want[std::size_t(r)]));
    }
    if (i % 1000 == 999 || i + 1 == batches) {
      dev.validate();
      test::require_matches(dev, model);
      test::require_identical(dev, ref);
    }
  }
  // Collapsing device stores asked for an edge set keep one; the others, and accumulating ones, none.
  CHECK((dev.index_bytes() > 0) == (dev.collapses_duplicates() && cfg.index == edge_index::always));
  MESSAGE(batches << " batches, " << inserted << " edges inserted, " << dev.nnz() << " stored, "
                  << dev.stats().compactions_segment_limit + dev.stats().compactions_buffer_full << " automatic compactions");
}
}  // namespace

TEST_CASE("10^4 random batches (1 .. 1e5 edges; insert, delete, mixed, read) equal the model and the reference twin") {
  dcsr_config cfg;
  cfg.max_segments = 3;  // rows reach k often: the segment-limit compaction is exercised too
  cfg.index = edge_index::always;  // duplicates checked through the edge set
  run_stream<pattern>(1, 10000, 20000, cfg);
}

namespace {
// Insert, delete and mixed batches of random sizes (mostly small, now and then past the 2048 of the
// small-batch path) on a graph small enough that rows fill, fragment and empty again, against a
// std::set of pairs: every 200 batches the device store is checked against it and the reference twin
// bit for bit.
void run_set_model(std::uint64_t seed, int batches, const dcsr_config& cfg) {
  std::mt19937_64 g(seed);
  dcsr_matrix<pattern, D> dev(cfg);
  dcsr_matrix<pattern, H> ref(cfg);
  std::set<std::pair<vertex_t, vertex_t>> model;
  std::vector<std::pair<vertex_t, vertex_t>> seen;  // every pair inserted (some deleted since)
  const vertex_t n = 400;
  auto size = [&] { return g() % 100 == 0 ? 1500 + g() % 2000 : 1 + g() % 40; };
  auto some_edges = [&](std::size_t m, bool present) {
    edges e;
    for (std::size_t i = 0; i < m; ++i) {
      if (present && !seen.empty() && g() % 4 != 0) {
        const auto& k = seen[g() % seen.size()];
        e.add(k.first, k.second, 0);
      } else {
        e.add(vertex_t(std::pow(double(g() % 1000) / 1000, 2) * (n + 5)), vertex_t(g() % n), 1);  // hubs, a few past n
      }
    }
    return e;
  };
  for (int b = 0; b < batches; ++b) {
    CAPTURE(b);
    const int kind = int(g() % 3);
    edges ins, del;
    if (kind != 1) ins = some_edges(size(), false);
    if (kind != 0) del = some_edges(size(), true);
    if (kind == 0) {
      dev.insert_batch(test::to_batch<pattern, D>(ins));
      ref.insert_batch(test::to_batch<pattern, H>(ins));
    } else if (kind == 1) {
      dev.delete_batch(test::to_batch<pattern, D>(del));
      ref.delete_batch(test::to_batch<pattern, H>(del));
    } else {
      dev.apply_batch(test::to_batch<pattern, D>(ins), test::to_batch<pattern, D>(del));
      ref.apply_batch(test::to_batch<pattern, H>(ins), test::to_batch<pattern, H>(del));
    }
    for (std::size_t i = 0; i < del.r.size(); ++i) model.erase({del.r[i], del.c[i]});
    for (std::size_t i = 0; i < ins.r.size(); ++i)
      if (model.insert({ins.r[i], ins.c[i]}).second) seen.emplace_back(ins.r[i], ins.c[i]);
    if (b % 200 != 199 && b + 1 != batches) continue;
    const auto cells = test::cells_of(dev);
    REQUIRE(cells.size() == model.size());
    REQUIRE(dev.nnz() == offset_t(model.size()));
    auto it = model.begin();
    for (const auto& kv : cells) REQUIRE(kv.first == *it++);
    dev.validate();
    test::require_identical(dev, ref);
  }
}
}  // namespace

TEST_CASE("10^4 random insert / delete / mixed batches against a std::set model, with and without the edge set") {
  dcsr_config cfg;
  cfg.max_segments = 4;
  cfg.index = edge_index::always;
  run_set_model(11, 5000, cfg);
  cfg.index = edge_index::never;
  cfg.row_growth = 0;  // constant slack: more segments, more compactions
  run_set_model(12, 5000, cfg);
}

TEST_CASE("random batches without the edge set (the duplicate check probes the rows)") {
  dcsr_config cfg;
  cfg.max_segments = 3;
  cfg.index = edge_index::never;
  run_stream<pattern>(4, 2000, 5000, cfg);
}

TEST_CASE("random weighted batches (accumulating) equal the model and the reference twin") {
  dcsr_config cfg;
  cfg.reserve = 16;  // a tiny buffer: compactions into larger buffers all along the stream
  run_stream<double>(2, 2000, 3000, cfg);
}

TEST_CASE("a batch that runs out of memory in the middle of a stream changes nothing, and goes in once memory is back") {
  std::mt19937_64 g(3);
  dcsr_config cfg;
  cfg.reserve = 8;  // every few batches the buffer is full: the compaction allocates a new one
  cfg.max_segments = 2;
  dcsr_matrix<pattern, D> A(cfg);
  test::edge_model model;
  int failures = 0;
  for (std::size_t i = 0; i < 400; ++i) {
    CAPTURE(i);
    const edges e = random_edges(g, batch_size(g, i + 20) % 3000 + 1, 4000);
    const auto batch = test::to_batch<pattern, D>(e);
    const auto before = test::cells_of(A);
    const offset_t cap = A.capacity(), ptr = A.allocation_pointer();
    const auto version = A.version();
    const auto full = A.stats().compactions_buffer_full + A.stats().compactions_segment_limit;
    // A limit just above what is in use: the batch's scratch or its compaction fails part way.
    memory::set_limit_for_testing(memory::bytes_in_use() + (g() % 3 == 0 ? 1024 : std::size_t(64) << 10));
    bool ok = true;
    try {
      A.insert_batch(batch);
    } catch (const out_of_memory&) {
      ok = false;
    }
    memory::set_limit_for_testing(0);
    if (!ok) {
      ++failures;
      REQUIRE(test::cells_of(A) == before);
      REQUIRE(A.capacity() == cap);
      REQUIRE(A.allocation_pointer() == ptr);
      REQUIRE(A.version() == version);
      REQUIRE(A.stats().compactions_buffer_full + A.stats().compactions_segment_limit == full);
      A.validate();
      A.insert_batch(batch);  // memory is back: the same batch goes in
    }
    for (std::size_t k = 0; k < e.r.size(); ++k) model.add(e.r[k], e.c[k], 1.0);
    if (i % 50 == 49) test::require_matches(A, model);
  }
  test::require_matches(A, model);
  A.validate();
  MESSAGE(failures << " batches failed for memory and went in on the second try");
  CHECK(failures > 10);
  CHECK(A.stats().buffer_grows > 0);  // in place or by a compaction: both were refused memory above
}

TEST_CASE("edge_index::automatic keeps an edge set where batches land in long rows, and only there") {
  // CUDA build: decided by the rows' square sum; CPU build: once a batch of 1024+ edges made the
  // duplicate probe read more than twice its edges in stored entries.
  const bool gpu = std::string(device_backend_name()) == "cuda";
  edges hub, flat, one;
  for (vertex_t r = 0; r < 10; ++r)
    for (vertex_t c = 0; c < 2000; ++c) hub.add(r, c, 1);  // a new entry lands in a row of 2000
  for (vertex_t r = 0; r < 5000; ++r)
    for (vertex_t c = 0; c < 4; ++c) flat.add(r, (r + 7 * c + 1) % 5000, 1);  // ... of 4
  one.add(1, 4999, 1);
  dcsr_matrix<pattern, D> a, b;
  a.insert_batch(test::to_batch<pattern, D>(hub));
  b.insert_batch(test::to_batch<pattern, D>(flat));
  CHECK(a.index_bytes() == 0);  // decided at the next batch, on what the store holds
  a.insert_batch(test::to_batch<pattern, D>(one));
  b.insert_batch(test::to_batch<pattern, D>(one));
  CHECK((a.index_bytes() > 0) == gpu);
  CHECK(b.index_bytes() == 0);
  edges more;  // 1100 new edges in rows of 2000: the probe reads 20000 stored entries
  for (vertex_t r = 0; r < 10; ++r)
    for (vertex_t c = 2000; c < 2110; ++c) more.add(r, c, 1);
  a.insert_batch(test::to_batch<pattern, D>(more));
  CHECK((a.index_bytes() > 0) == gpu);  // the CPU build decides at the next batch
  a.insert_batch(test::to_batch<pattern, D>(hub));  // all stored already: the set finds every one
  CHECK(a.index_bytes() > 0);
  CHECK(a.nnz() == 21101);
  CHECK(a.stats().duplicates_dropped == 20000);
  b.insert_batch(test::to_batch<pattern, D>(one));  // one edge is no measure, however long its row
  b.insert_batch(test::to_batch<pattern, D>(one));
  CHECK(b.index_bytes() == 0);
}

TEST_CASE_TEMPLATE("an id of 2^31 - 1 is refused before anything is written, square or not", S, host_space, device_space) {
  for (bool square : {true, false}) {
    CAPTURE(square);
    dcsr_config cfg;
    cfg.square = square;
    dcsr_matrix<pattern, S> A(cfg);
    A.insert_batch(test::to_batch<pattern, S>(random_edges_fixed()));
    const auto before = test::cells_of(A);
    const offset_t ptr = A.allocation_pointer();
    edges big;
    big.add(0, 2147483647, 1);
    CHECK_THROWS_AS(A.insert_batch(test::to_batch<pattern, S>(big)), error);
    CHECK(test::cells_of(A) == before);
    CHECK(A.allocation_pointer() == ptr);
    A.validate();
  }
}

TEST_CASE("append_sorted into a store with an edge set grows the set first (no full table)") {
  dcsr_config cfg;
  cfg.index = edge_index::always;
  dcsr_matrix<pattern, D> A(cfg);
  edges few, sorted;
  for (vertex_t i = 0; i < 10; ++i) few.add(i, i, 1);
  for (vertex_t r = 0; r < 100; ++r)
    for (vertex_t c = 100; c < 111; ++c) sorted.add(r, c, 1);  // 1100 new pairs, sorted
  A.insert_batch(test::to_batch<pattern, D>(few));
  REQUIRE(A.index_bytes() > 0);
  A.append_sorted(test::to_batch<pattern, D>(sorted));
  CHECK(A.nnz() == 1110);
  A.insert_batch(test::to_batch<pattern, D>(sorted));  // every pair is in the set: all dropped
  A.insert_batch(test::to_batch<pattern, D>(few));
  CHECK(A.nnz() == 1110);
  A.validate();
}
