// The device store (OpenMP in the CPU build, the GPU in the CUDA build) against its reference twin
// and a host edge-set model, on seeded random batches. Layouts are deterministic (scan allocation),
// so the twins must agree exactly; validate() runs after every batch and every defragmentation.
#include <doctest/doctest.h>

#include <functional>
#include <random>

#include "core/memory.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/kernels.hpp"
#include "stream/graph.hpp"
#include "tests/support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {
using test::edges;
using test::values;
using generator = std::function<edges(std::mt19937_64&, int batch)>;

edges uniform(std::mt19937_64& g, std::size_t m, vertex_t rows, vertex_t cols) {
  edges e;
  std::uniform_int_distribution<vertex_t> R(0, rows - 1), C(0, cols - 1);
  std::uniform_real_distribution<double> V(-1, 1);
  for (std::size_t i = 0; i < m; ++i) {
    e.r.push_back(R(g));
    e.c.push_back(C(g));
    e.v.push_back(V(g));
  }
  return e;
}

/// Applies `batches` batches from gen to a reference and a device store with the same config and
/// checks them against each other and against the model after every step.
template <class V>
void run(const char* what, const dcsr_config& cfg, int batches, const generator& gen, std::uint64_t seed) {
  CAPTURE(what);
  std::mt19937_64 g(seed);
  dcsr_matrix<V, H> ref(cfg);
  dcsr_matrix<V, D> dev(cfg);
  test::edge_model model;
  model.collapse = ref.collapses_duplicates();
  for (int b = 0; b < batches; ++b) {
    CAPTURE(b);
    const edges e = gen(g, b);
    ref.insert_batch(make_coo<V, H>(e.r, e.c, values<V>(e)));
    dev.insert_batch(make_coo<V, D>(e.r, e.c, values<V>(e)));
    for (std::size_t i = 0; i < e.r.size(); ++i) model.add(e.r[i], e.c[i], is_pattern_v<V> ? 1.0 : double(stored_t<V>(e.v[i])));
    ref.validate();
    dev.validate();
    test::require_identical(ref, dev);
    test::require_matches(dev, model);
  }
  ref.defragment();
  dev.defragment();
  ref.validate();
  dev.validate();
  test::require_identical(ref, dev);
  test::require_matches(dev, model);
  CHECK(dev.allocation_pointer() == dev.nnz());
}

}  // namespace

TEST_CASE_TEMPLATE("device DCSR insert/defragment equals the reference twin on random batches", V, float,
                   double, pattern) {
  for (std::size_t m : {1, 31, 33, 257, 1025, 100000}) {
    const auto rows = vertex_t(std::max<std::size_t>(8, m / 4));
    for (auto dups : {duplicates::automatic, duplicates::collapse, duplicates::accumulate}) {
      if (is_pattern_v<V> && dups == duplicates::accumulate && m == 100000) continue;  // same path as 1025
      dcsr_config cfg;
      cfg.dups = dups;
      run<V>("uniform", cfg, m >= 100000 ? 3 : 4, [&](std::mt19937_64& g, int) { return uniform(g, m, rows, rows); }, m);
    }
  }
}

TEST_CASE_TEMPLATE("device DCSR equals the reference on edge cases", V, float, double, pattern) {
  dcsr_config cfg;
  SUBCASE("empty rows: only even rows get edges") {
    run<V>("empty rows", cfg, 5, [](std::mt19937_64& g, int) {
      edges e = uniform(g, 500, 200, 400);
      for (auto& r : e.r) r = (r / 2) * 2;
      return e;
    }, 1);
  }
  SUBCASE("one huge row holds most entries") {
    run<V>("huge row", cfg, 4, [](std::mt19937_64& g, int) {
      edges e = uniform(g, 20000, 1000, 50000);
      for (std::size_t i = 0; i < e.r.size(); i += 10) e.r[i] = 1;
      for (std::size_t i = 1; i < e.r.size(); i += 10) e.r[i] = 1;
      for (auto& r : e.r) r = (r % 7 == 0) ? r : 0;
      return e;
    }, 2);
  }
  SUBCASE("power-law row degrees") {
    run<V>("power law", cfg, 6, [](std::mt19937_64& g, int) {
      edges e = uniform(g, 5000, 4000, 4000);
      std::uniform_real_distribution<double> u(0, 1);
      for (auto& r : e.r) r = vertex_t(4000 * std::pow(u(g), 4.0)) % 4000;
      return e;
    }, 3);
  }
  SUBCASE("heavy duplicates and self-loops") {
    run<V>("duplicates", cfg, 6, [](std::mt19937_64& g, int) {
      edges e = uniform(g, 3000, 20, 20);
      for (std::size_t i = 0; i < e.r.size(); i += 3) e.c[i] = e.r[i];
      return e;
    }, 4);
  }
  SUBCASE("new vertices in every batch") {
    run<V>("new vertices", cfg, 8, [](std::mt19937_64& g, int b) {
      return uniform(g, 300, 100 * (b + 1), 150 * (b + 1));
    }, 5);
  }
  SUBCASE("rows forced past k segments") {
    dcsr_config tight;
    tight.max_segments = 2;
    tight.alpha = 0;
    tight.row_growth = 0;
    run<V>("past k", tight, 40, [](std::mt19937_64& g, int) { return uniform(g, 40, 10, 1000); }, 6);
    tight.row_growth = 0.5;
    run<V>("past k, proportional slack", tight, 40, [](std::mt19937_64& g, int) { return uniform(g, 60, 10, 1000); }, 7);
  }
  SUBCASE("a blank store with an initial segment per row") {
    dcsr_config blank_cfg;
    blank_cfg.initial_segment = 4;
    std::mt19937_64 g(7);
    auto ref = dcsr_matrix<V, H>::blank(300, 300, blank_cfg);
    auto dev = dcsr_matrix<V, D>::blank(300, 300, blank_cfg);
    for (int b = 0; b < 5; ++b) {
      const edges e = uniform(g, 700, 300, 300);
      ref.insert_batch(make_coo<V, H>(e.r, e.c, values<V>(e)));
      dev.insert_batch(make_coo<V, D>(e.r, e.c, values<V>(e)));
      dev.validate();
      test::require_identical(ref, dev);
    }
  }
  SUBCASE("empty batch and empty store") {
    dcsr_matrix<V, D> dev(cfg);
    dev.insert_batch(coo_matrix<V, D>{});
    dev.validate();
    dev.defragment();
    CHECK(dev.nnz() == 0);
    CHECK(dev.to_csr().row_ptr.size() == 1);
  }
}

TEST_CASE_TEMPLATE("to_csr copies a store that is CSR already and gathers any other, in both twins", V, double, pattern) {
  // rows_in_place decides between the two; a wrong "in place" would give the wrong CSR in both twins
  // alike, so each state is also checked against the edge model.
  std::mt19937_64 g(21);
  edges e = uniform(g, 4000, 300, 300);
  for (std::size_t i = 0; i < e.r.size(); i += 4) e.r[i] = 2 * (e.r[i] / 2);  // some rows empty, some long
  dcsr_config cfg;
  cfg.dups = duplicates::collapse;
  auto ref = dcsr_matrix<V, H>::from_coo(make_coo<V, H>(e.r, e.c, values<V>(e)), 300, 300, cfg);
  auto dev = dcsr_matrix<V, D>::from_coo(make_coo<V, D>(e.r, e.c, values<V>(e)), 300, 300, cfg);
  test::edge_model model;
  for (std::size_t i = 0; i < e.r.size(); ++i) model.add(e.r[i], e.c[i], is_pattern_v<V> ? 1.0 : e.v[i]);
  auto in_place = [](const auto& A) {
    using S = typename std::decay_t<decltype(A)>::space;
    const auto rp = A.to_csr().row_ptr;  // the CSR offsets the store's rows would need to start at
    return detail::kernels<S>::rows_in_place(A.view(), rp.data());
  };
  auto check = [&](bool want) {
    CHECK(in_place(ref) == want);
    CHECK(in_place(dev) == want);
    test::require_identical(ref, dev);
    test::require_matches(dev, model);
  };
  check(true);  // built packed, rows in order
  const edges more = uniform(g, 200, 300, 300);
  ref.insert_batch(make_coo<V, H>(more.r, more.c, values<V>(more)));
  dev.insert_batch(make_coo<V, D>(more.r, more.c, values<V>(more)));
  for (std::size_t i = 0; i < more.r.size(); ++i) model.add(more.r[i], more.c[i], is_pattern_v<V> ? 1.0 : more.v[i]);
  check(false);  // rows grew by new segments
  ref.defragment();
  dev.defragment();
  check(true);
  const edges gone{{e.r[0]}, {e.c[0]}, {0.0}};  // a row shrinks: every later row starts past its place
  ref.delete_batch(make_coo<V, H>(gone.r, gone.c, values<V>(gone)));
  dev.delete_batch(make_coo<V, D>(gone.r, gone.c, values<V>(gone)));
  model.remove(e.r[0], e.c[0]);
  check(false);
  ref.defragment(dcsr_layout::size_order);
  dev.defragment(dcsr_layout::size_order);
  check(false);  // placed by size bins, not by row
}

TEST_CASE_TEMPLATE("packs in place (dcsr_config::in_place) equal the reference twin and the edge model", V, double,
                   pattern) {
  // Mixed batches on power-law rows with two segments a row: rows pass k (moved whole), deletions
  // release segments and the buffer fills; the store is packed in its own buffer by its automatic
  // compactions and by defragment() every few batches, and falls back to a new buffer when most
  // entries lie outside the row-ordered prefix. Both twins must agree exactly after every step.
  for (const double fill : {0.6, 0.95}) {
    CAPTURE(fill);
    dcsr_config cfg = compact_config();  // the compact footprint's store
    cfg.compact_fill = fill;
    cfg.index = edge_index::automatic;
    cfg.dups = is_pattern_v<V> ? duplicates::automatic : duplicates::collapse;
    dcsr_matrix<V, H> ref(cfg);
    dcsr_matrix<V, D> dev(cfg);
    test::edge_model model;
    std::mt19937_64 g(31);
    std::uniform_real_distribution<double> u(0, 1);
    auto same = [&] {
      ref.validate();
      dev.validate();
      test::require_identical(ref, dev);
      test::require_matches(dev, model);
    };
    for (int b = 0; b < 45; ++b) {
      CAPTURE(b);
      edges e = uniform(g, b < 3 ? 20000 : 2000, 3000, 3000);
      for (auto& r : e.r) r = vertex_t(3000 * std::pow(u(g), 3.0)) % 3000;
      ref.insert_batch(make_coo<V, H>(e.r, e.c, values<V>(e)));
      dev.insert_batch(make_coo<V, D>(e.r, e.c, values<V>(e)));
      for (std::size_t i = 0; i < e.r.size(); ++i) model.add(e.r[i], e.c[i], is_pattern_v<V> ? 1.0 : e.v[i]);
      same();
      if (b % 3 == 2) {  // a third of every third batch deleted again
        edges d;
        for (std::size_t i = 0; i < e.r.size(); i += 3) d.r.push_back(e.r[i]), d.c.push_back(e.c[i]), d.v.push_back(0);
        ref.delete_batch(make_coo<V, H>(d.r, d.c, values<V>(d)));
        dev.delete_batch(make_coo<V, D>(d.r, d.c, values<V>(d)));
        for (std::size_t i = 0; i < d.r.size(); ++i) model.remove(d.r[i], d.c[i]);
        same();
      }
      if (b % 4 == 3) {
        ref.defragment();
        dev.defragment();
        same();
        CHECK(dev.allocation_pointer() == dev.nnz());
        CHECK(dev.view().single_segment);
      }
    }
    CHECK(dev.stats().compactions_in_place > 10);
    CHECK(dev.stats().compactions_in_place == ref.stats().compactions_in_place);
    CHECK(dev.stats().rows_relocated == 0);  // a store that packs in place packs instead
  }
}

TEST_CASE("a mixed batch that runs out of memory in a store that packs in place leaves its content as it was") {
  // The deletion's undo log names positions, so the insertion must not pack under it: a pack, then
  // a failed growth, would undo into moved entries.
  std::mt19937_64 g(41);
  dcsr_config cfg = compact_config();
  dcsr_matrix<pattern, D> A(cfg);
  test::edge_model model;
  for (int b = 0; b < 6; ++b) {
    const edges e = uniform(g, 3000, 400, 400);
    A.insert_batch(make_coo<pattern, D>(e.r, e.c, values<pattern>(e)));
    for (std::size_t i = 0; i < e.r.size(); ++i) model.add(e.r[i], e.c[i], 1.0);
  }
  const auto before = test::cells_of(A);
  const edges more = uniform(g, 40000, 400, 400), gone = uniform(g, 500, 400, 400);
  for (std::size_t limit = memory::bytes_in_use(); limit < memory::bytes_in_use() + (std::size_t(4) << 20); limit += 64 << 10) {
    memory::set_limit_for_testing(limit);
    bool failed = false;
    try {
      A.apply_batch(make_coo<pattern, D>(more.r, more.c, values<pattern>(more)), make_coo<pattern, D>(gone.r, gone.c, values<pattern>(gone)));
    } catch (const out_of_memory&) {
      failed = true;
    }
    memory::set_limit_for_testing(0);
    if (!failed) break;
    A.validate();
    REQUIRE(test::cells_of(A) == before);
  }
}

TEST_CASE("a batch that cannot get memory leaves the device store exactly as it was") {
  std::mt19937_64 g(11);
  dcsr_matrix<double, D> A;
  const edges e0 = uniform(g, 5000, 500, 500);
  A.insert_batch(make_coo<double, D>(e0.r, e0.c, values<double>(e0)));
  const auto before = test::cells_of(A);
  const offset_t cap = A.capacity(), ptr = A.allocation_pointer();
  const edges e1 = uniform(g, 50000, 5000, 5000);  // new vertices and more entries than capacity
  auto big = make_coo<double, D>(e1.r, e1.c, values<double>(e1));
  memory::set_limit_for_testing(memory::bytes_in_use() + 600000);
  CHECK_THROWS_AS(A.insert_batch(big), out_of_memory);
  memory::set_limit_for_testing(0);
  CHECK(test::cells_of(A) == before);
  CHECK(A.capacity() == cap);
  CHECK(A.allocation_pointer() == ptr);
  CHECK(A.rows() == 500);
  A.validate();
  A.insert_batch(big);  // with memory back the same batch goes in
  A.validate();
  CHECK(A.nnz() == 55000);
}

// from_coo past cfg.build_slice sorts once and inserts row-aligned slices (bounded batch scratch):
// the result must be the one-batch construction's, for any duplicate rule, in both twins, with a
// bad edge still named by its index in the input and later batches behaving as usual.
template <class V, class S>
void check_sliced_build(duplicates dups, offset_t slice) {
  CAPTURE(slice);
  std::mt19937_64 g(21);
  edges e = uniform(g, 5000, 300, 300);
  for (std::size_t i = 0; i < e.r.size(); i += 4) e.r[i] = 7;  // a row longer than a slice
  for (std::size_t i = 1; i < e.r.size(); i += 9) e.r[i] = e.r[i - 1], e.c[i] = e.c[i - 1];  // repeats
  dcsr_config one, sliced;
  one.dups = sliced.dups = dups;
  sliced.build_slice = slice;
  const auto batch = make_coo<V, S>(e.r, e.c, values<V>(e));
  const auto a = dcsr_matrix<V, S>::from_coo(batch, 300, 300, one);
  auto b = dcsr_matrix<V, S>::from_coo(batch, 300, 300, sliced);
  b.validate();
  REQUIRE(a.nnz() == b.nnz());
  CHECK(b.allocation_pointer() == b.nnz());
  CHECK(b.view().single_segment);  // every row written once: no slice cut one
  const auto ca = a.to_csr(), cb = b.to_csr();
  CHECK(to_vector(ca.row_ptr) == to_vector(cb.row_ptr));
  CHECK(to_vector(ca.col) == to_vector(cb.col));
  if constexpr (!is_pattern_v<V>) CHECK(to_vector(ca.val) == to_vector(cb.val));
  const edges more = uniform(g, 700, 400, 400);
  b.insert_batch(make_coo<V, S>(more.r, more.c, values<V>(more)));
  b.validate();
  test::edge_model model;
  model.collapse = b.collapses_duplicates();
  for (const edges* x : std::initializer_list<const edges*>{&e, &more})
    for (std::size_t i = 0; i < x->r.size(); ++i)
      model.add(x->r[i], x->c[i], is_pattern_v<V> ? 1.0 : double(stored_t<V>(x->v[i])));
  test::require_matches(b, model);
  e.c[4321] = -3;  // named by its input index, as a one-batch build names it
  try {
    (void)dcsr_matrix<V, S>::from_coo(make_coo<V, S>(e.r, e.c, values<V>(e)), 300, 300, sliced);
    FAIL("a negative column went in");
  } catch (const batch_error& x) {
    CHECK(x.edge() == 4321);
  }
}

TEST_CASE_TEMPLATE("a construction in row-aligned slices equals one batch", V, double, pattern) {
  for (auto dups : {duplicates::automatic, duplicates::collapse, duplicates::accumulate}) {
    CAPTURE(int(dups));
    for (offset_t slice : {1, 97, 1000, 4999}) {
      check_sliced_build<V, H>(dups, slice);
      check_sliced_build<V, D>(dups, slice);
    }
  }
}
