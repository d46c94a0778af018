// Undoable batches (dcsr_matrix::apply_batch_undoable / undo_batch / keep_batch), both twins: a
// batch kept equals apply_batch's store bit for bit; a batch taken back leaves the store as it was
// (content, stored order, allocation, version, counters) whether it inserted, deleted, did both,
// added rows, moved rows past k segments or compacted on the way; and the store then takes batches as if it had never had it.
#include <doctest/doctest.h>

#include <random>

#include "core/error.hpp"
#include "storage/dcsr.hpp"
#include "tests/support.hpp"

using namespace fg;
using test::edges;
using test::to_batch;

namespace {
struct stream {
  edges base, ins, del, next;
};

// A fragmented store's batches and one more batch to take back: `grow` adds rows past the store;
// with k = 2 the batch overflows rows (moved on the way); `hollow` deletes most of the store first,
// so that a batch that fills the buffer finds it mostly holes (a compaction on the way).
stream make_stream(std::uint64_t seed, bool grow, bool hollow = false) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<vertex_t> id(0, 299);
  stream s;
  for (int i = 0; i < 6000; ++i) s.base.add(id(g), id(g), double(1 + i % 7));
  for (int i = 0; i < 900; ++i) s.del.add(s.base.r[std::size_t(i) * 5], s.base.c[std::size_t(i) * 5], 0);
  if (hollow)
    for (std::size_t i = 0; i < s.base.r.size(); ++i)
      if (i % 13 != 0) s.del.add(s.base.r[i], s.base.c[i], 0);
  for (int i = 0; i < (hollow ? 9000 : 2500); ++i) s.ins.add(id(g) + (grow ? 250 : 0), id(g), double(10 + i % 3));
  for (int i = 0; i < 700; ++i) s.next.add(id(g), id(g), 3.0);
  return s;
}

template <class V, class S>
dcsr_matrix<V, S> build(const stream& s, const dcsr_config& cfg) {
  dcsr_matrix<V, S> A(cfg);
  for (std::size_t lo = 0; lo < s.base.r.size(); lo += 750) {
    edges part;
    for (std::size_t i = lo; i < lo + 750; ++i) part.add(s.base.r[i], s.base.c[i], s.base.v[i]);
    A.insert_batch(to_batch<V, S>(part));
  }
  return A;
}

// Returns what the batch's insertion did on the way: 1 moved rows, 2 compacted.
template <class V, class S>
int check(const stream& s, const dcsr_config& cfg, bool inserts, bool deletes) {
  CAPTURE(inserts);
  CAPTURE(deletes);
  const edges none;
  const auto ins = to_batch<V, S>(inserts ? s.ins : none), del = to_batch<V, S>(deletes ? s.del : none);
  auto untouched = build<V, S>(s, cfg);
  auto want = build<V, S>(s, cfg);
  want.apply_batch(ins, del);

  auto kept = build<V, S>(s, cfg);
  kept.apply_batch_undoable(ins, del);
  kept.validate();
  test::require_identical(want, kept);
  kept.keep_batch();
  CHECK_THROWS_AS(kept.undo_batch(), invalid_argument);

  auto A = build<V, S>(s, cfg);
  const auto before = test::cells_of(A);
  const auto stats = A.stats();
  A.apply_batch_undoable(ins, del);
  const bool compacted = A.stats().compactions_segment_limit + A.stats().compactions_buffer_full >
                         stats.compactions_segment_limit + stats.compactions_buffer_full;
  const bool moved = A.stats().rows_relocated > stats.rows_relocated;
  CAPTURE(compacted);
  CAPTURE(moved);
  A.undo_batch();
  A.validate();
  REQUIRE(test::cells_of(A) == before);
  test::require_identical(untouched, A);
  CHECK(A.version() == untouched.version());
  CHECK(A.stats().batches == stats.batches);
  CHECK_THROWS_AS(A.undo_batch(), invalid_argument);
  // The store goes on as if it had never had the batch.
  untouched.insert_batch(to_batch<V, S>(s.next));
  A.insert_batch(to_batch<V, S>(s.next));
  test::require_identical(untouched, A);
  return (moved ? 1 : 0) + (compacted ? 2 : 0);
}
}  // namespace

TEST_CASE_TEMPLATE("an undoable batch kept equals apply_batch; taken back, the store is as it was", S, host_space,
                   device_space) {
  int moves = 0, compactions = 0;
  for (bool hollow : {false, true})
    for (bool grow : {false, true})
      for (int k : {8, 2}) {
        CAPTURE(hollow);
        CAPTURE(grow);
        CAPTURE(k);
        dcsr_config cfg;
        cfg.max_segments = k;  // k = 2: the batch overflows rows, so its insertion moves them
        cfg.reserve = hollow ? 0 : 1 << 16;  // room to move them: the hollow store compacts instead
        const stream s = make_stream(7 + std::uint64_t(k) + (grow ? 100 : 0), grow, hollow);
        for (auto [i, d] : {std::pair{true, false}, {false, true}, {true, true}})
          for (int did : {check<double, S>(s, cfg, i, d), check<pattern, S>(s, cfg, i, d)}) {
            moves += did & 1;
            compactions += did >> 1;
          }
      }
  CHECK(moves >= 4);        // the k = 2 batches that insert
  CHECK(compactions >= 1);  // a hollow store's batch that fills the buffer
}

TEST_CASE("undo_batch refuses when no batch is kept or the store was written since") {
  dcsr_matrix<float, host_space> A;
  CHECK_THROWS_AS(A.undo_batch(), invalid_argument);
  edges e, f;
  e.add(1, 2, 1.0);
  f.add(3, 4, 1.0);
  A.apply_batch_undoable(to_batch<float, host_space>(e), to_batch<float, host_space>(edges{}));
  A.insert_batch(to_batch<float, host_space>(f));
  CHECK_THROWS_AS(A.undo_batch(), invalid_argument);
}
