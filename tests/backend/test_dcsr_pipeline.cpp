// dcsr_pipeline (deferred batches): the same stream applied batch by batch with insert_batch /
// delete_batch / apply_batch and through the pipeline must leave byte-identical stores (layout,
// counters) that equal the host model; small buffers and k = 2 make batches stall the chain in the
// middle of a queue (new rows, a row past k segments, a full buffer) so the replay path runs all
// along; a bad edge or an allocation failure in the middle of a queue applies the batches before it
// and none after. In the CPU build the pipeline applies each batch when queued: the same checks.
#include <doctest/doctest.h>

#include <deque>
#include <random>

#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/dcsr_pipeline.hpp"
#include "tests/support.hpp"

using namespace fg;
using test::edges;

namespace {
using D = device_space;

edges some_edges(std::mt19937_64& g, std::size_t m, vertex_t n, const std::vector<std::pair<vertex_t, vertex_t>>& seen,
                 bool present) {
  edges e;
  for (std::size_t i = 0; i < m; ++i) {
    if (present && !seen.empty() && g() % 4 != 0) {
      const auto& k = seen[g() % seen.size()];
      e.add(k.first, k.second, 1.0 + double(g() % 5));
    } else {  // hub rows, and ids that keep growing (new rows past the row table)
      const auto r = vertex_t(std::pow(double(g() % 1000) / 1000, 3) * double(n));
      e.add(r, vertex_t(g() % std::uint64_t(n)), 1.0 + double(g() % 5));
    }
  }
  return e;
}

std::size_t some_size(std::mt19937_64& g) {
  const auto u = g() % 1000;
  if (u == 0) return 30000 + g() % 70001;  // up to 1e5
  if (u < 40) return 2000 + g() % 3000;    // around the single-block path's 2048
  return 1 + g() % 80;
}

// The same row table where it is content: sizes, segment counts and the rows' live segments (never
// used or released slots and slack entries hold whatever was there).
template <class V>
void require_same_segments(const dcsr_matrix<V, D>& a, const dcsr_matrix<V, D>& b) {
  const test::raw_layout x = test::layout_of(a), y = test::layout_of(b);
  REQUIRE(x.sizes == y.sizes);
  REQUIRE(x.nseg == y.nseg);
  const auto k = std::size_t(a.config().max_segments);
  for (std::size_t r = 0; r < x.nseg.size(); ++r)
    for (std::size_t s = 0; s < x.nseg[r]; ++s)
      for (std::size_t e = 0; e < 2; ++e) REQUIRE(x.seg[(r * k + s) * 2 + e] == y.seg[(r * k + s) * 2 + e]);
}

template <class V>
struct stream_check {
  std::mt19937_64 g;
  dcsr_config cfg;
  dcsr_matrix<V, D> sync, piped;
  dcsr_pipeline<V, D> pipe;
  test::edge_model model;
  std::vector<std::pair<vertex_t, vertex_t>> seen;
  std::deque<coo_matrix<V, D>> alive;  // the queued batches, kept until the pipeline settles
  std::int64_t replays = 0, batches = 0, reads = 0;

  stream_check(std::uint64_t seed, const dcsr_config& c, int depth)
      : g(seed), cfg(c), sync(c), piped(c), pipe(piped, depth) {
    model.collapse = sync.collapses_duplicates();
  }

  // Every read settles and compares the counters; one in `full` compares the whole store too.
  void settle_and_compare(int full) {
    pipe.settle();
    alive.clear();
    for (const batch_outcome& o : pipe.outcomes()) replays += o.replayed;
    REQUIRE(piped.nnz() == sync.nnz());
    REQUIRE(piped.allocation_pointer() == sync.allocation_pointer());
    REQUIRE(piped.stats().batches == sync.stats().batches);
    if (++reads % full != 0) return;
    test::require_identical(piped, sync);
    require_same_segments(piped, sync);
    test::require_matches(piped, model);
    piped.validate();
  }

  void step(vertex_t n) {
    const int kind = int(g() % 8);  // 0-2 insert, 3-4 delete, 5-6 mixed, 7 read
    ++batches;
    if (kind == 7) {  // a read settles: the store must then be what the batches so far made it
      settle_and_compare(16);
      return;
    }
    const std::size_t m = some_size(g);
    edges ins, del;
    if (kind <= 2 || kind >= 5) ins = some_edges(g, m, n, seen, false);
    if (kind >= 3) del = some_edges(g, kind >= 5 ? m / 2 + 1 : m, n, seen, true);
    if (kind <= 2) {
      sync.insert_batch(test::to_batch<V, D>(ins));
      pipe.insert(alive.emplace_back(test::to_batch<V, D>(ins)));
    } else if (kind <= 4) {
      sync.delete_batch(test::to_batch<V, D>(del));
      pipe.erase(alive.emplace_back(test::to_batch<V, D>(del)));
    } else {
      sync.apply_batch(test::to_batch<V, D>(ins), test::to_batch<V, D>(del));
      const auto& i = alive.emplace_back(test::to_batch<V, D>(ins));
      pipe.apply(i, alive.emplace_back(test::to_batch<V, D>(del)));
    }
    for (std::size_t k = 0; k < del.r.size(); ++k) model.remove(del.r[k], del.c[k]);
    for (std::size_t k = 0; k < ins.r.size(); ++k) {
      model.add(ins.r[k], ins.c[k], ins.v[k]);
      seen.emplace_back(ins.r[k], ins.c[k]);
    }
    if (alive.size() > 200) alive.pop_front();  // settled already: depth <= 64 batches of <= 2
  }
};

template <class V>
void run(std::uint64_t seed, const dcsr_config& cfg, int depth, int batches, vertex_t n) {
  stream_check<V> s(seed, cfg, depth);
  for (int b = 0; b < batches; ++b) {
    CAPTURE(b);
    s.step(n + vertex_t(b));  // the id range grows: rows past the row table arrive all along
  }
  s.settle_and_compare(1);
  MESSAGE(batches << " batches, " << s.piped.nnz() << " stored, " << s.replays << " replayed");
  if (detail::kernels<D>::defers) CHECK(s.replays > 0);  // the stall path ran
}
}  // namespace

TEST_CASE("deferred batches equal synchronous ones byte for byte (10^4 random batches, stalls forced)") {
  dcsr_config cfg;
  cfg.max_segments = 2;  // a row past 2 segments stalls the chain
  cfg.reserve = 64;      // the buffer fills: compactions into larger buffers stall it too
  cfg.index = edge_index::always;
  run<pattern>(1, cfg, 64, 5000, 300);
  cfg.index = edge_index::never;  // the duplicate check probes the rows
  cfg.row_growth = 0;
  run<pattern>(2, cfg, 7, 3000, 2000);
}

TEST_CASE("deferred weighted batches (accumulating, a slack of 3) equal synchronous ones") {
  dcsr_config cfg;
  cfg.max_segments = 3;
  cfg.alpha = 3;
  run<double>(3, cfg, 16, 1500, 500);
  cfg.dups = duplicates::collapse;
  cfg.alpha = -1;
  run<float>(4, cfg, 32, 1500, 500);
}

TEST_CASE("a square store made with fewer rows than columns keeps rows == cols, queued or not") {
  dcsr_config cfg;
  cfg.initial_segment = 2;
  auto sync = dcsr_matrix<pattern, D>::blank(5, 40, cfg), piped = dcsr_matrix<pattern, D>::blank(5, 40, cfg);
  CHECK(sync.rows() == 40);
  CHECK(sync.cols() == 40);
  std::mt19937_64 g(8);
  std::deque<coo_matrix<pattern, D>> alive;
  {
    dcsr_pipeline<pattern, D> pipe(piped, 8);
    for (int b = 0; b < 40; ++b) {
      const edges e = some_edges(g, 1 + g() % 30, 4 + vertex_t(b), {}, false);  // ids below 5 first
      sync.insert_batch(test::to_batch<pattern, D>(e));
      pipe.insert(alive.emplace_back(test::to_batch<pattern, D>(e)));
    }
  }
  test::require_identical(piped, sync);
  require_same_segments(piped, sync);
  piped.validate();
}

TEST_CASE("a bad edge in the middle of a queue: the batches before it are applied, it and the later ones are not") {
  dcsr_matrix<pattern, D> A;
  std::deque<coo_matrix<pattern, D>> alive;
  dcsr_pipeline<pattern, D> pipe(A, 16);
  try {  // the CPU build applies each batch when it is queued: the bad one throws there
    pipe.insert(alive.emplace_back(test::to_batch<pattern, D>(edges{{0, 1, 2}, {1, 2, 0}, {}})));
    pipe.erase(alive.emplace_back(test::to_batch<pattern, D>(edges{{1}, {2}, {}})));
    pipe.insert(alive.emplace_back(test::to_batch<pattern, D>(edges{{3, -1}, {0, 0}, {}})));  // edge 1: negative row
    pipe.insert(alive.emplace_back(test::to_batch<pattern, D>(edges{{5}, {6}, {}})));
    pipe.settle();
    FAIL("the bad batch should have thrown");
  } catch (const batch_error& e) {
    CHECK(e.batch() == 2);
    CHECK(e.edge() == 1);
  }
  CHECK(pipe.pending() == 0);
  const auto done = pipe.outcomes();
  REQUIRE(done.size() == 2);
  CHECK(done[0].stored == 3);
  CHECK(done[1].removed == 1);
  CHECK(A.nnz() == 2);
  CHECK(A.stats().batches == 2);
  const auto cells = test::cells_of(A);
  CHECK(cells.count({0, 1}) == 1);
  CHECK(cells.count({2, 0}) == 1);
  // The pipeline goes on after the failure.
  pipe.insert(alive.emplace_back(test::to_batch<pattern, D>(edges{{5}, {6}, {}})));
  CHECK(pipe.store().nnz() == 3);
  CHECK(pipe.outcomes().at(0).batch == 3);
}

TEST_CASE("an allocation that fails while a queue replays leaves the store as after the last good batch") {
  std::mt19937_64 g(5);
  dcsr_config cfg;
  cfg.reserve = 8;  // most batches stall (full buffer) and replay through a compaction
  cfg.max_segments = 2;
  dcsr_matrix<pattern, D> A(cfg), B(cfg);
  std::deque<coo_matrix<pattern, D>> alive;
  int failures = 0, partial = 0;
  for (int round = 0; round < 60; ++round) {
    CAPTURE(round);
    dcsr_pipeline<pattern, D> pipe(A, 8);
    std::vector<edges> batches;
    for (int b = 0; b < 6; ++b) {
      batches.push_back(some_edges(g, 1 + g() % 300, 3000, {}, false));
      alive.push_back(test::to_batch<pattern, D>(batches.back()));
    }
    memory::set_limit_for_testing(memory::bytes_in_use() + (std::size_t(16) << (g() % 8 + 6)));
    // A push that throws queued nothing of its batch; a settle that throws applied the batches before
    // the failing one: either way the applied batches are a prefix, counted by their outcomes.
    try {
      for (const auto& b : alive) pipe.insert(b);
      pipe.settle();
    } catch (const out_of_memory&) {
      ++failures;
    }
    memory::set_limit_for_testing(0);
    pipe.settle();
    alive.clear();
    const auto applied = std::int64_t(pipe.outcomes().size());
    partial += applied > 0 && applied < 6;
    // B: the batches that went in, synchronously; then A must equal it exactly.
    for (std::int64_t b = 0; b < applied; ++b) B.insert_batch(test::to_batch<pattern, D>(batches[std::size_t(b)]));
    test::require_identical(A, B);
    A.validate();
  }
  MESSAGE(failures << " of 60 queues ran out of memory part way, " << partial << " after applying some of it");
  CHECK(failures > 0);
  CHECK(partial > 0);
}
