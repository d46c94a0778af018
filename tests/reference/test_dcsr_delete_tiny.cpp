// Tiny deletion and mixed-batch cases checked by hand (reference twin only): holes filled from the tail,
// released segments, counters, the stated order of a mixed batch, failure atomicity.
#include <doctest/doctest.h>

#include <cmath>

#include "core/semiring.hpp"
#include "storage/dcsr.hpp"
#include "tests/support.hpp"

using namespace fg;
using H = host_space;

using test::batch;

namespace {
template <class V>
std::vector<vertex_t> row_cols(const dcsr_matrix<V, H>& A, vertex_t r) {
  const auto c = A.to_csr();
  return {c.col.data() + c.row_ptr[std::size_t(r)], c.col.data() + c.row_ptr[std::size_t(r) + 1]};
}
// Row 0 of a blank 8 x 8 store (mu = 2, alpha = 2, constant slack) after inserting columns 1..5:
// segment 0 = [0, 2) holds 1 2, segment 1 = [16, 21) holds 3 4 5 and has room for 2 more.
dcsr_matrix<pattern, H> two_segment_row() {
  dcsr_config cfg;
  cfg.initial_segment = 2;
  cfg.alpha = 2;
  cfg.row_growth = 0;
  cfg.reserve = 32;
  auto A = dcsr_matrix<pattern, H>::blank(8, 8, cfg);
  A.insert_batch(batch<pattern>({0, 0, 0, 0, 0}, {1, 2, 3, 4, 5}));
  return A;
}
}  // namespace

TEST_CASE("deletion fills a row's holes from its tail and releases the segment it empties") {
  auto A = two_segment_row();
  const dcsr_view<pattern> v = A.view();
  REQUIRE(v.nseg[0] == 2);
  REQUIRE(v.seg[v.pitch + 0] == 16);
  REQUIRE(A.allocation_pointer() == 21);
  A.delete_batch(batch<pattern>({0, 0}, {4, 2}));  // order within a batch does not matter
  A.validate();
  // 3 entries stay: the prefix [0, 3) has one hole (position 1, column 2), the tail [3, 5) one
  // survivor (position 4, column 5), which moves into it; 3 stays where it was, at 16.
  CHECK(A.nnz() == 3);
  CHECK(v.sizes[0] == 3);
  CHECK(v.nseg[0] == 2);
  CHECK(v.col[0] == 1);
  CHECK(v.col[1] == 5);
  CHECK(v.col[16] == 3);
  CHECK(row_cols(A, 0) == std::vector<vertex_t>{1, 5, 3});
  A.delete_batch(batch<pattern>({0, 0}, {3, 5}));  // segment 1 empties: released from the row
  A.validate();
  CHECK(v.sizes[0] == 1);
  CHECK(v.nseg[0] == 1);
  CHECK(v.col[0] == 1);
  CHECK(A.allocation_pointer() == 21);  // space comes back only with a compaction
  CHECK(A.stats().entries_deleted == 4);
  CHECK(A.stats().deletes_absent == 0);
  // One more entry fits in segment 0; the second needs a new segment of 1 + alpha at 21.
  A.insert_batch(batch<pattern>({0, 0}, {6, 7}));
  A.validate();
  CHECK(v.nseg[0] == 2);
  CHECK(v.seg[v.pitch + 0] == 21);
  CHECK(v.seg[v.pitch + 1] == 24);
  CHECK(row_cols(A, 0) == std::vector<vertex_t>{1, 6, 7});
  A.defragment();
  CHECK(A.allocation_pointer() == 3);
}

TEST_CASE("an emptied row keeps its first segment, so re-inserting needs no new space") {
  auto A = two_segment_row();
  A.delete_batch(batch<pattern>({0, 0, 0, 0, 0}, {5, 4, 3, 2, 1}));
  A.validate();
  const dcsr_view<pattern> v = A.view();
  CHECK(A.nnz() == 0);
  CHECK(v.sizes[0] == 0);
  CHECK(v.nseg[0] == 1);
  CHECK(v.seg[0] == 0);
  CHECK(v.seg[1] == 2);
  A.insert_batch(batch<pattern>({0, 0}, {7, 6}));
  CHECK(A.allocation_pointer() == 21);
  CHECK(A.stats().segments_allocated == 1);  // only the one of two_segment_row()
  CHECK(row_cols(A, 0) == std::vector<vertex_t>{6, 7});
  A.validate();
}

TEST_CASE("deletion removes every copy of an edge; absent edges, ids past the store and repeats are counted no-ops") {
  dcsr_config cfg;
  cfg.dups = duplicates::accumulate;
  auto A = dcsr_matrix<double, H>::from_coo(batch<double>({0, 0, 1, 0}, {1, 1, 0, 1}, {1, 2, 3, 4}), 2, 2, cfg);
  REQUIRE(A.nnz() == 4);
  const auto v0 = A.version();
  A.delete_batch(batch<double>({0, 1, 7, 0}, {0, 1, 9, 0}, {0, 0, 0, std::nan("")}));  // NaN: values ignored
  CHECK(A.nnz() == 4);
  CHECK(A.version() == v0);  // nothing removed: readers' caches stay valid
  CHECK(A.stats().deletes_absent == 4);
  CHECK(A.stats().batches == 1);
  A.delete_batch(batch<double>({0, 0}, {1, 1}, {0, 0}));  // three copies go; the repeat is a no-op
  A.validate();
  CHECK(A.nnz() == 1);
  CHECK(A.version() == v0 + 1);
  CHECK(A.stats().entries_deleted == 3);
  CHECK(A.stats().deletes_absent == 5);
  CHECK(A.rows() == 2);  // an id past the store does not grow it
  auto x = to_space<H>(std::vector<double>{10, 100});
  array<double, H> y(2);
  spmv<plus_times<double>>(A, x, y);
  CHECK(y[0] == 0.0);
  CHECK(y[1] == 30.0);
}

TEST_CASE("a mixed batch deletes first, then inserts: delete e + insert e leaves e, at the end of its row") {
  auto A = dcsr_matrix<double, H>::from_coo(batch<double>({0, 0, 0}, {1, 2, 4}, {1, 2, 4}), 1, 8);
  A.apply_batch(batch<double>({0, 0}, {3, 1}, {3, 5}), batch<double>({0, 0}, {1, 2}, {0, 0}));
  A.validate();
  const auto c = A.to_csr();
  CHECK(to_vector(c.col) == std::vector<vertex_t>{4, 1, 3});
  CHECK(to_vector(c.val) == std::vector<double>{4, 5, 3});  // (0, 1) carries the inserted value
  CHECK(A.stats().batches == 1);                            // from_coo's counters are reset
  CHECK(A.stats().entries_deleted == 2);
  CHECK(A.stats().entries_inserted == 2);
}

TEST_CASE("a bad edge rejects a deletion or a whole mixed batch and changes nothing") {
  auto A = dcsr_matrix<double, H>::from_coo(batch<double>({0, 1, 1}, {1, 0, 1}, {1, 2, 3}), 2, 2);
  const auto before = test::cells_of(A);
  const offset_t ptr = A.allocation_pointer();
  const auto version = A.version();
  CHECK_THROWS_WITH_AS(A.delete_batch(batch<double>({0, 1}, {1, -1}, {0, 0})),
                       "batch 0, edge 1: deletion: negative column id", batch_error);
  // The deletion part is fine, the insertion part is not: the deletion is undone.
  CHECK_THROWS_WITH_AS(A.apply_batch(batch<double>({0, 0}, {0, 1}, {1, std::nan("")}), batch<double>({1, 0}, {1, 1}, {0, 0})),
                       "batch 0, edge 1: value is NaN or infinite", batch_error);
  CHECK_THROWS_WITH_AS(A.apply_batch(batch<double>({0}, {0}, {1}), batch<double>({-2}, {1}, {0})),
                       "batch 0, edge 0: deletion: negative row id", batch_error);
  A.validate();
  CHECK(test::cells_of(A) == before);
  CHECK(to_vector(A.to_csr().col) == std::vector<vertex_t>{1, 0, 1});
  CHECK(A.allocation_pointer() == ptr);
  CHECK(A.version() == version);
  CHECK(A.stats().batches == 0);
  CHECK(A.stats().entries_deleted == 0);
}
