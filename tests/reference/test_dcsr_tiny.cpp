// Tiny DCSR cases checked by hand against the paper's Algorithms 1-4 (reference twin only).
#include <doctest/doctest.h>

#include "core/semiring.hpp"
#include "storage/dcsr.hpp"
#include "tests/support.hpp"

using namespace fg;
using H = host_space;

using test::batch;

TEST_CASE("a blank store gives each row an empty segment of mu entries") {
  dcsr_config cfg;
  cfg.initial_segment = 2;
  auto A = dcsr_matrix<float, H>::blank(4, 4, cfg);
  CHECK(A.rows() == 4);
  CHECK(A.nnz() == 0);
  CHECK(A.allocation_pointer() == 8);  // rows * mu
  CHECK(A.capacity() == 8);
  A.validate();
}

TEST_CASE("inserting into free space, then past it, allocates exactly one new segment (Fig. 2)") {
  dcsr_config cfg;
  cfg.initial_segment = 2;
  cfg.alpha = 2;
  cfg.reserve = 32;
  cfg.dups = duplicates::accumulate;
  auto A = dcsr_matrix<float, H>::blank(4, 4, cfg);
  // Row 0 gets 2 entries (fits), row 3 gets 3 (1 over: new segment of 1 + alpha = 3 at 8).
  A.insert_batch(batch<float>({0, 0, 3, 3, 3}, {1, 2, 0, 1, 2}, {1, 2, 3, 4, 5}));
  A.validate();
  CHECK(A.nnz() == 5);
  CHECK(A.allocation_pointer() == 11);
  CHECK(A.stats().segments_allocated == 1);
  // Row 0 is full now: one more entry needs 1 + alpha = 3 more at 11.
  A.insert_batch(batch<float>({0}, {3}, {6}));
  CHECK(A.allocation_pointer() == 14);
  const auto c = A.to_csr();
  CHECK(to_vector(c.row_ptr) == std::vector<offset_t>{0, 3, 3, 3, 6});
  CHECK(to_vector(c.col) == std::vector<vertex_t>{1, 2, 3, 0, 1, 2});
  CHECK(to_vector(c.val) == std::vector<float>{1, 2, 6, 3, 4, 5});
  A.validate();
  // Defragment (Algorithm 4): packed, row order, no slack, nothing lost.
  A.defragment();
  A.validate();
  CHECK(A.allocation_pointer() == 6);
  CHECK(A.capacity() == 32);
  CHECK(to_vector(A.to_csr().col) == std::vector<vertex_t>{1, 2, 3, 0, 1, 2});
}

TEST_CASE("a batch is sorted by (row, col) before it is written") {
  auto A = dcsr_matrix<pattern, H>::from_coo(batch<pattern>({2, 0, 2, 1}, {1, 3, 0, 2}), 4, 4);
  CHECK(to_vector(A.to_csr().col) == std::vector<vertex_t>{3, 2, 0, 1});
}

TEST_CASE("graph semantics collapse duplicates within a batch and against stored edges") {
  auto A = dcsr_matrix<pattern, H>::from_coo(batch<pattern>({0, 0, 0, 1}, {1, 1, 2, 0}), 3, 3);
  CHECK(A.nnz() == 3);
  A.insert_batch(batch<pattern>({0, 0, 2}, {2, 0, 2}));
  CHECK(A.nnz() == 5);  // (0,2) was stored; (0,0) and the self-loop (2,2) are new
  CHECK(A.stats().duplicates_dropped == 1);
  A.validate();
}

TEST_CASE("matrix semantics keep duplicates and their values add up in SpMV") {
  dcsr_config cfg;
  cfg.dups = duplicates::accumulate;
  auto A = dcsr_matrix<double, H>::from_coo(batch<double>({0, 0, 1}, {1, 1, 0}, {2.0, 3.0, 4.0}), 2, 2, cfg);
  CHECK(A.nnz() == 3);
  auto x = to_space<H>(std::vector<double>{10, 100});
  array<double, H> y(2);
  spmv<plus_times<double>>(A, x, y);
  CHECK(y[0] == 500.0);  // (2 + 3) * 100
  CHECK(y[1] == 40.0);
}

TEST_CASE("proportional slack: a new segment gets half the row's new size as room to grow") {
  dcsr_config cfg;
  cfg.alpha = 1;
  cfg.row_growth = 0.5;
  cfg.reserve = 64;
  dcsr_matrix<pattern, H> A(cfg);
  A.insert_batch(batch<pattern>({0, 0, 0, 0}, {0, 1, 2, 3}));  // 4 entries: segment of 4 + 2
  CHECK(A.allocation_pointer() == 6);
  A.insert_batch(batch<pattern>({0, 0}, {4, 5}));  // fits in the slack
  CHECK(A.allocation_pointer() == 6);
  A.insert_batch(batch<pattern>({0, 0, 0}, {6, 7, 8}));  // 9 entries: 3 more + 4 slack
  CHECK(A.allocation_pointer() == 13);
  CHECK(A.stats().segments_allocated == 2);
  A.validate();
}

TEST_CASE("new vertex ids grow a square store") {
  auto A = dcsr_matrix<pattern, H>::from_coo(batch<pattern>({0}, {1}), 2, 2);
  A.insert_batch(batch<pattern>({5}, {9}));
  CHECK(A.rows() == 10);
  CHECK(A.cols() == 10);
  A.validate();
}

TEST_CASE("a row pushed past k segments is moved whole into one segment and loses nothing") {
  dcsr_config cfg;
  cfg.max_segments = 2;
  cfg.alpha = 0;
  cfg.row_growth = 0;  // the paper's constant slack
  auto A = dcsr_matrix<pattern, H>::from_coo(batch<pattern>({0}, {0}), 1, 8, cfg);
  // Each batch adds one entry to row 0 with no slack: segment 2 fits, segment 3 does not.
  A.insert_batch(batch<pattern>({0}, {1}));
  CHECK(A.needs_defragment());
  CHECK(A.stats().compactions_segment_limit == 0);
  const offset_t before = A.allocation_pointer();
  A.insert_batch(batch<pattern>({0}, {2}));
  CHECK(A.stats().compactions_segment_limit == 0);
  CHECK(A.stats().rows_relocated == 1);
  // Row 0's two entries packed at the bump pointer, then a segment of one for the new entry.
  CHECK(A.allocation_pointer() == before + 3);
  A.validate();
  CHECK(to_vector(A.to_csr().col) == std::vector<vertex_t>{0, 1, 2});
}

TEST_CASE("semiring SpMV on a 3x3 store: plus-times, or-and, min-plus") {
  // 0 -> 1 (w 2), 1 -> 2 (w 3), 0 -> 2 (w 7)
  auto A = dcsr_matrix<double, H>::from_coo(batch<double>({0, 1, 0}, {1, 2, 2}, {2, 3, 7}), 3, 3);
  auto x = to_space<H>(std::vector<double>{1, 10, 100});
  array<double, H> y(3);
  spmv<plus_times<double>>(A, x, y);
  CHECK(to_vector(y) == std::vector<double>{720, 300, 0});
  spmv<min_plus<double>>(A, x, y);  // y[r] = min_c A(r,c) + x[c]
  CHECK(y[0] == 12.0);
  CHECK(y[1] == 103.0);
  CHECK(std::isinf(y[2]));
  auto P = dcsr_matrix<pattern, H>::from_coo(batch<pattern>({0, 1}, {1, 2}), 3, 3);
  auto b = to_space<H>(std::vector<std::uint8_t>{0, 0, 1});
  array<std::uint8_t, H> reach(3);
  spmv<or_and>(P, b, reach);
  CHECK(to_vector(reach) == std::vector<std::uint8_t>{0, 1, 0});
}

TEST_CASE("CSR -> DCSR -> CSR is the identity, and a CSR store is already packed") {
  csr_matrix<float, H> c;
  c.rows = 3;
  c.cols = 3;
  c.row_ptr = to_space<H>(std::vector<offset_t>{0, 2, 2, 3});
  c.col = to_space<H>(std::vector<vertex_t>{2, 0, 1});
  c.val = to_space<H>(std::vector<float>{1, 2, 3});
  auto A = dcsr_matrix<float, H>::from_csr(c);
  A.validate();
  CHECK(A.allocation_pointer() == 3);
  const auto back = A.to_csr();
  CHECK(to_vector(back.row_ptr) == to_vector(c.row_ptr));
  CHECK(to_vector(back.col) == to_vector(c.col));
  CHECK(to_vector(back.val) == to_vector(c.val));
}

TEST_CASE("a square store from a 2 x 4 CSR has 4 rows (the last two empty) and takes edges in them") {
  csr_matrix<float, H> c;
  c.rows = 2;
  c.cols = 4;
  c.row_ptr = to_space<H>(std::vector<offset_t>{0, 1, 2});
  c.col = to_space<H>(std::vector<vertex_t>{3, 0});
  c.val = to_space<H>(std::vector<float>{1, 2});
  auto A = dcsr_matrix<float, H>::from_csr(c);
  CHECK(A.rows() == 4);
  CHECK(A.cols() == 4);
  A.insert_batch(batch<float>({3, 0}, {1, 1}, {5, 6}));
  A.validate();
  CHECK(A.rows() == 4);
  CHECK(to_vector(A.to_csr().row_ptr) == std::vector<offset_t>{0, 2, 3, 3, 4});
  dcsr_config rect;
  rect.square = false;
  const auto B = dcsr_matrix<float, H>::from_csr(c, rect);
  CHECK(B.rows() == 2);
  CHECK(B.cols() == 4);
}

TEST_CASE("a bad edge rejects the whole batch, naming batch and edge, and changes nothing") {
  auto A = dcsr_matrix<double, H>::from_coo(batch<double>({0}, {1}, {1.0}), 2, 2);
  const auto before = test::cells_of(A);
  const offset_t ptr = A.allocation_pointer();
  CHECK_THROWS_WITH_AS(A.insert_batch(batch<double>({0, 1, -1}, {0, 1, 0}, {1, 1, 1})),
                       "batch 0, edge 2: negative row id", batch_error);
  CHECK_THROWS_WITH_AS(A.insert_batch(batch<double>({0, 1}, {0, 1}, {1, std::nan("")})),
                       "batch 0, edge 1: value is NaN or infinite", batch_error);
  CHECK(test::cells_of(A) == before);
  CHECK(A.allocation_pointer() == ptr);
  CHECK(A.rows() == 2);
  A.validate();
}
