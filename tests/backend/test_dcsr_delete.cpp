// Deletions and mixed batches: the device store against its reference twin and a host edge-set
// model on seeded random streams of insert, delete and mixed batches (validate() after every batch,
// layouts bit for bit), plus emptied rows, fragmented rows, SpMV after deletion and failure
// atomicity under an allocation limit.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <random>
#include <type_traits>

#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "stream/graph.hpp"
#include "loaders/graph_file.hpp"
#include "storage/dcsr.hpp"
#include "tests/support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {
using test::edges;
using test::to_batch;
/// The vector type SpMV is built for with matrix values V.
template <class V>
using vec_t = std::conditional_t<std::is_same_v<V, float>, float, double>;

/// A reference store, a device store and the model, changed together and compared after each step.
template <class V>
struct twins {
  dcsr_matrix<V, H> ref;
  dcsr_matrix<V, D> dev;
  test::edge_model model;
  /// Empty stores, or blank ones of n rows when cfg.initial_segment > 0.
  twins(const dcsr_config& cfg, vertex_t n = 0)
      : ref(cfg.initial_segment > 0 ? dcsr_matrix<V, H>::blank(n, n, cfg) : dcsr_matrix<V, H>(cfg)),
        dev(cfg.initial_segment > 0 ? dcsr_matrix<V, D>::blank(n, n, cfg) : dcsr_matrix<V, D>(cfg)) {
    model.collapse = ref.collapses_duplicates();
  }

  void add_to_model(const edges& e) {
    for (std::size_t i = 0; i < e.r.size(); ++i) model.add(e.r[i], e.c[i], is_pattern_v<V> ? 1.0 : double(stored_t<V>(e.v[i])));
  }
  void insert(const edges& e) {
    ref.insert_batch(to_batch<V, H>(e));
    dev.insert_batch(to_batch<V, D>(e));
    add_to_model(e);
  }
  void remove(const edges& e) {
    ref.delete_batch(to_batch<V, H>(e));
    dev.delete_batch(to_batch<V, D>(e));
    for (std::size_t i = 0; i < e.r.size(); ++i) model.remove(e.r[i], e.c[i]);
  }
  void mixed(const edges& ins, const edges& del) {  // the stated order: deletions, then insertions
    ref.apply_batch(to_batch<V, H>(ins), to_batch<V, H>(del));
    dev.apply_batch(to_batch<V, D>(ins), to_batch<V, D>(del));
    for (std::size_t i = 0; i < del.r.size(); ++i) model.remove(del.r[i], del.c[i]);
    add_to_model(ins);
  }
  void defragment() {
    ref.defragment();
    dev.defragment();
  }
  void check() const {
    ref.validate();
    dev.validate();
    test::require_identical(ref, dev);
    test::require_matches(dev, model);
  }
};

/// Random stream parameters: vertices (ids may reach a little past them, growing the store) and
/// the largest batch.
struct stream_shape {
  vertex_t n = 48;
  int max_batch = 24;
};

/// One random step: insert (40%), delete (35%: present edges, absent ones, repeats, ids past the
/// store), mixed (22%: overlapping keys both ways), empty whole rows (2%), defragment (1%).
template <class V>
void random_step(twins<V>& t, std::mt19937_64& g, const stream_shape& s) {
  std::uniform_int_distribution<int> op(0, 99), len(1, s.max_batch);
  std::uniform_int_distribution<vertex_t> id(0, s.n - 1), past(s.n, s.n + 8);
  std::uniform_real_distribution<double> val(-1, 1);
  std::vector<std::pair<vertex_t, vertex_t>> present;
  for (const auto& kv : t.model.cells) present.push_back(kv.first);
  auto some_present = [&]() {
    return present.empty() ? std::make_pair(id(g), id(g)) : present[std::size_t(g() % present.size())];
  };
  auto random_edges = [&](int m) {
    edges e;
    for (int i = 0; i < m; ++i) {
      const bool grow = op(g) < 3;  // now and then a vertex past the store
      e.add(grow ? past(g) : id(g), id(g), val(g));
    }
    return e;
  };
  auto deletions = [&](int m) {
    edges e;
    for (int i = 0; i < m; ++i) {
      const int kind = op(g);
      if (kind < 60) {
        auto [r, c] = some_present();
        e.add(r, c, val(g));
      } else if (kind < 85) {
        e.add(id(g), id(g), val(g));  // mostly absent
      } else if (kind < 95 && !e.r.empty()) {
        e.add(e.r[std::size_t(g() % e.r.size())], e.c[std::size_t(g() % e.c.size())], val(g));  // a repeat
      } else {
        e.add(past(g), id(g), val(g));  // past the store (or a brand-new vertex)
      }
    }
    return e;
  };
  const int o = op(g);
  if (o < 40) {
    t.insert(random_edges(len(g)));
  } else if (o < 75) {
    t.remove(deletions(len(g)));
  } else if (o < 97) {
    edges del = deletions(len(g)), ins = random_edges(len(g));
    for (std::size_t i = 0; i < del.r.size(); i += 3) ins.add(del.r[i], del.c[i], val(g));  // delete e + insert e
    t.mixed(ins, del);
  } else if (o < 99) {
    edges del;  // every edge of a few rows: rows that empty completely
    const vertex_t a = id(g), b = id(g);
    for (const auto& [r, c] : present)
      if (r == a || r == b) del.add(r, c, 0);
    t.remove(del);
  } else {
    t.defragment();
  }
}

template <class V>
int run_stream(const char* what, const dcsr_config& cfg, int steps, const stream_shape& s, std::uint64_t seed) {
  CAPTURE(what);
  std::mt19937_64 g(seed);
  twins<V> t(cfg, s.n);
  for (int b = 0; b < steps; ++b) {
    CAPTURE(b);
    random_step(t, g, s);
    t.check();
  }
  t.defragment();
  t.check();
  CHECK(t.dev.allocation_pointer() == t.dev.nnz());
  return steps;
}

/// y = model x (plus-times), from the model's cells: the CSR of the model, multiplied on the host.
std::vector<double> model_spmv(const test::edge_model& model, const std::vector<double>& x, vertex_t rows) {
  std::vector<double> y(std::size_t(rows), 0.0);
  for (const auto& [key, cell] : model.cells) y[std::size_t(key.first)] += cell.second * x[std::size_t(key.second)];
  return y;
}
}  // namespace

TEST_CASE_TEMPLATE("random insert / delete / mixed batches: device equals reference equals the model", V,
                   float, double, pattern) {
  // 3 value types x 1,200 batches each (plus the checks after the final defragmentations), many
  // small ones on small graphs so that rows fill, fragment, empty and compact again.
  int batches = 0;
  const stream_shape small;
  dcsr_config cfg;
  batches += run_stream<V>("default", cfg, 300, small, 1);
  cfg.dups = duplicates::collapse;  // graph semantics with values (pattern: the default again)
  batches += run_stream<V>("collapse", cfg, 150, small, 2);
  dcsr_config tight;  // k = 2, no slack: automatic compactions all the time
  tight.max_segments = 2;
  tight.alpha = 0;
  tight.row_growth = 0;
  batches += run_stream<V>("k = 2, no slack", tight, 200, small, 3);
  dcsr_config frag;  // k = 16, no slack, a roomy buffer: long chains, deletions across many segments
  frag.max_segments = 16;
  frag.alpha = 0;
  frag.row_growth = 0;
  frag.reserve = 3000;
  batches += run_stream<V>("k = 16, no slack", frag, 200, stream_shape{12, 6}, 4);
  dcsr_config roomy;  // large constant slack, small buffer: buffer-full compactions
  roomy.alpha = 6;
  batches += run_stream<V>("alpha = 6", roomy, 200, stream_shape{200, 40}, 5);
  dcsr_config by_size = tight;  // every compaction (automatic or asked for) places rows by size
  by_size.layout = dcsr_layout::size_order;
  batches += run_stream<V>("k = 2, size order", by_size, 150, small, 6);
  CHECK(batches == 1200);
}

TEST_CASE_TEMPLATE("many short streams: 50 seeds x 60 batches each, per value type", V, float, double, pattern) {
  // Many seeds rather than long streams: each starts empty, so the early life of a store (new
  // vertices, first segments, first deletions) is exercised many times. 3 x 3,000 batches.
  for (std::uint64_t seed = 100; seed < 150; ++seed) {
    dcsr_config cfg;
    cfg.max_segments = 2 + int(seed % 5);
    cfg.alpha = offset_t(seed % 3) - 1;  // -1: the mean row length
    cfg.row_growth = (seed % 2) * 0.5;
    cfg.initial_segment = vertex_t(seed % 4 == 0 ? 2 : 0);
    run_stream<V>("short stream", cfg, 60, stream_shape{vertex_t(8 + seed % 24), 1 + int(seed % 12)}, seed);
  }
}

TEST_CASE_TEMPLATE("deleting every edge leaves empty rows that SpMV reads as empty", V, float, double, pattern) {
  std::mt19937_64 g(21);
  twins<V> t(dcsr_config{});
  edges e;
  std::uniform_int_distribution<vertex_t> id(0, 299);
  for (int i = 0; i < 3000; ++i) e.add(id(g), id(g), 1.0 + i % 7);
  for (std::size_t lo = 0; lo < e.r.size(); lo += 250) {  // in batches: fragmented rows
    edges part;
    for (std::size_t i = lo; i < std::min(e.r.size(), lo + 250); ++i) part.add(e.r[i], e.c[i], e.v[i]);
    t.insert(part);
  }
  t.check();
  SUBCASE("in one batch") { t.remove(e); }
  SUBCASE("in many batches, in reverse order, with repeats") {
    for (std::size_t hi = e.r.size(); hi > 0; hi -= std::min<std::size_t>(hi, 400)) {
      edges part;
      for (std::size_t i = hi - std::min<std::size_t>(hi, 400); i < hi; ++i) part.add(e.r[i], e.c[i], 0);
      t.remove(part);
      t.check();
    }
  }
  t.check();
  CHECK(t.dev.nnz() == 0);
  const auto c = t.dev.to_csr();
  CHECK(to_vector(c.row_ptr) == std::vector<offset_t>(std::size_t(t.dev.rows()) + 1, 0));
  using R = vec_t<V>;
  const auto n = std::size_t(t.dev.rows());
  auto x = to_space<D>(std::vector<R>(n, R(1)));
  array<R, D> y(n);
  spmv<plus_times<R>>(t.dev, x, y);
  CHECK(to_vector(y) == std::vector<R>(n, R(0)));
  spmv<min_plus<R>>(t.dev, x, y);
  for (R v : to_vector(y)) CHECK(std::isinf(v));
  t.insert(e);  // the emptied rows take their edges back
  t.check();
}

TEST_CASE_TEMPLATE("deleting from rows of many segments fills holes from the tail and releases emptied segments", V, float,
                   double, pattern) {
  dcsr_config cfg;
  cfg.max_segments = 16;
  cfg.alpha = 0;
  cfg.row_growth = 0;
  cfg.reserve = 1000;  // no buffer-full compaction, which would pack the rows
  twins<V> t(cfg);
  // Rows 0..3 get one entry per batch: one new segment per batch, 15 segments per row.
  for (vertex_t c = 0; c < 15; ++c) {
    edges e;
    for (vertex_t r = 0; r < 4; ++r) e.add(r, c, double(c + 1));
    t.insert(e);
  }
  t.check();
  REQUIRE(t.dev.needs_defragment() == false);
  auto nseg = [&](vertex_t r) {
    std::uint8_t k = 0;
    memory::copy_to_host(&k, t.dev.view().nseg + r, 1);
    return int(k);
  };
  REQUIRE(nseg(0) == 15);
  edges del;
  for (vertex_t c = 1; c < 15; c += 2) del.add(0, c, 0);  // row 0: every other entry
  for (vertex_t c = 10; c < 15; ++c) del.add(1, c, 0);    // row 1: its last five segments
  for (vertex_t c = 0; c < 15; ++c) del.add(2, c, 0);     // row 2: everything
  t.remove(del);
  t.check();
  CHECK(nseg(0) == 8);  // 8 survivors, one per (unit) segment
  CHECK(nseg(1) == 10);
  CHECK(nseg(2) == 1);
  CHECK(nseg(3) == 15);
  const auto c = t.dev.to_csr();
  const auto col = to_vector(c.col);
  const auto ptr = to_vector(c.row_ptr);
  // Row 0 keeps 8: the prefix's holes 1 3 5 7 take the tail's survivors 8 10 12 14, in that order.
  CHECK(std::vector<vertex_t>(col.begin() + ptr[0], col.begin() + ptr[1]) == std::vector<vertex_t>{0, 8, 2, 10, 4, 12, 6, 14});
  // Fill row 0 back up to 16 segments' worth: the released segments make room below k.
  for (vertex_t c2 = 15; c2 < 22; ++c2) {
    edges e;
    e.add(0, c2, 1.0);
    t.insert(e);
    t.check();
  }
  CHECK(nseg(0) == 15);
  CHECK(t.dev.stats().compactions_segment_limit == 0);
}

TEST_CASE_TEMPLATE("after deletions, SpMV on the fragmented and on the defragmented store equals the model's CSR", V,
                   float, double) {
  std::mt19937_64 g(31);
  dcsr_config cfg;
  cfg.dups = duplicates::accumulate;
  twins<V> t(cfg);
  const stream_shape s{400, 300};
  for (int b = 0; b < 40; ++b) random_step(t, g, s);
  t.check();
  using R = vec_t<V>;
  const auto n = std::size_t(t.dev.rows());
  std::vector<R> hx(n);
  for (auto& v : hx) v = R(std::uniform_real_distribution<double>(0, 1)(g));
  const auto want = model_spmv(t.model, std::vector<double>(hx.begin(), hx.end()), t.dev.rows());
  auto x = to_space<D>(hx);
  array<R, D> y(n);
  auto require_close = [&](const std::vector<R>& got) {
    for (std::size_t i = 0; i < n; ++i) REQUIRE(std::fabs(double(got[i]) - want[i]) <= 1e-4 * (1.0 + std::fabs(want[i])));
  };
  spmv<plus_times<R>>(t.dev, x, y);
  require_close(to_vector(y));
  t.defragment();
  t.check();
  spmv<plus_times<R>>(t.dev, x, y);
  require_close(to_vector(y));
  spmv<plus_times<R>>(t.dev.to_csr(), x, y);
  require_close(to_vector(y));
}

TEST_CASE("a deletion or mixed batch that cannot get memory leaves the device store exactly as it was") {
  // Every allocation limit from "nothing more" to "enough": each attempt either fails with
  // out_of_memory and changes nothing, or succeeds and equals the reference twin.
  std::mt19937_64 g(41);
  edges base, del, ins;
  std::uniform_int_distribution<vertex_t> id(0, 199);
  for (int i = 0; i < 4000; ++i) base.add(id(g), id(g), 1.0);
  for (int i = 0; i < 1500; ++i) del.add(base.r[std::size_t(i) * 2], base.c[std::size_t(i) * 2], 0);
  for (int i = 0; i < 3000; ++i) ins.add(id(g) + 150, id(g), 2.0);  // new vertices, more than capacity
  dcsr_config cfg;
  cfg.max_segments = 3;
  auto build = [&](auto space) {  // base in 8 batches: a fragmented store
    dcsr_matrix<double, decltype(space)> A(cfg);
    for (std::size_t lo = 0; lo < base.r.size(); lo += 500) {
      edges part;
      for (std::size_t i = lo; i < lo + 500; ++i) part.add(base.r[i], base.c[i], base.v[i]);
      A.insert_batch(to_batch<double, decltype(space)>(part));
    }
    return A;
  };
  for (bool mixed : {false, true}) {
    CAPTURE(mixed);
    auto want = build(H{});
    if (mixed) want.apply_batch(to_batch<double, H>(ins), to_batch<double, H>(del));
    else want.delete_batch(to_batch<double, H>(del));
    int failed = 0, succeeded = 0;
    for (std::size_t extra = 0; succeeded == 0; extra += 6000) {
      CAPTURE(extra);
      auto A = build(D{});
      const auto before = test::cells_of(A);
      const auto layout = to_vector(A.to_csr().col);
      const offset_t cap = A.capacity(), ptr = A.allocation_pointer();
      const auto version = A.version();
      const auto in = to_batch<double, D>(ins), out = to_batch<double, D>(del);
      memory::set_limit_for_testing(memory::bytes_in_use() + extra);
      bool ok = true;
      try {
        if (mixed) A.apply_batch(in, out);
        else A.delete_batch(out);
      } catch (const out_of_memory&) {
        ok = false;
      }
      memory::set_limit_for_testing(0);
      A.validate();
      if (ok) {
        ++succeeded;
        test::require_identical(want, A);
      } else {
        ++failed;
        REQUIRE(test::cells_of(A) == before);
        REQUIRE(to_vector(A.to_csr().col) == layout);
        REQUIRE(A.capacity() == cap);
        REQUIRE(A.allocation_pointer() == ptr);
        REQUIRE(A.version() == version);
        REQUIRE(A.rows() == 200);
      }
    }
    CHECK(failed > 5);  // the limit hit several different allocations
  }
}

TEST_CASE("graph::remove and graph::apply work in the graph's orientation") {
  edge_file f;
  f.num_vertices = 4;
  f.src = {0, 0, 1, 2};
  f.dst = {1, 2, 2, 3};
  for (auto o : {orientation::out, orientation::in}) {
    CAPTURE(int(o));
    auto stored = [o](std::vector<std::pair<vertex_t, vertex_t>> uv) {  // edges u -> v as store cells
      std::map<std::pair<vertex_t, vertex_t>, std::pair<std::int64_t, double>> m;
      for (auto [u, v] : uv) m[o == orientation::out ? std::make_pair(u, v) : std::make_pair(v, u)] = {1, 1.0};
      return m;
    };
    graph<pattern, D> g(o, 4);
    g.insert(f, 0, 4);
    g.remove({0, 3}, {2, 0});  // 0 -> 2 goes; 3 -> 0 is absent
    CHECK(test::cells_of(g.store()) == stored({{0, 1}, {1, 2}, {2, 3}}));
    g.apply(f, 1, 3, {1, 2}, {2, 3});  // deletes 1 -> 2 and 2 -> 3, then inserts 0 -> 2 and 1 -> 2
    CHECK(test::cells_of(g.store()) == stored({{0, 1}, {0, 2}, {1, 2}}));
    CHECK(g.store().stats().deletes_absent == 1);
    g.store().validate();
  }
}

namespace {
/// Row r's columns in stored order (read through to_csr).
template <class V, class S>
std::vector<vertex_t> row_of(const dcsr_matrix<V, S>& A, vertex_t r) {
  const auto c = A.to_csr();
  const auto col = to_vector(c.col);
  const auto ptr = to_vector(c.row_ptr);
  return {col.begin() + ptr[std::size_t(r)], col.begin() + ptr[std::size_t(r) + 1]};
}
/// The layout rule on a row's columns: the holes (positions, ascending) in the surviving prefix
/// take the tail's survivors, both ascending.
std::vector<vertex_t> after_rule(std::vector<vertex_t> row, const std::vector<std::size_t>& holes) {
  const std::size_t keep = row.size() - holes.size();
  std::vector<bool> is_hole(row.size(), false);
  for (std::size_t h : holes) is_hole[h] = true;
  std::vector<vertex_t> tail;
  for (std::size_t p = keep; p < row.size(); ++p)
    if (!is_hole[p]) tail.push_back(row[p]);
  std::size_t next = 0;
  for (std::size_t h : holes)
    if (h < keep) row[h] = tail[next++];
  row.resize(keep);
  return row;
}
}  // namespace

TEST_CASE_TEMPLATE("deleting 1000 scattered entries of a hub row of 1e5 moves only the tail's survivors", V, float,
                   double, pattern) {
  dcsr_config cfg;
  cfg.dups = duplicates::accumulate;  // the columns are distinct: spares the reference twin's row scans
  twins<V> t(cfg);
  edges hub;  // row 7: 1e5 distinct columns in a scrambled order (7919 is prime to 1e5), in 4 batches
  for (vertex_t i = 0; i < 100000; ++i) hub.add(7, vertex_t((std::int64_t(i) * 7919) % 100000), 1.0 + i % 5);
  for (std::size_t lo = 0; lo < hub.r.size(); lo += 25000) {
    edges part;
    for (std::size_t i = lo; i < lo + 25000; ++i) part.add(hub.r[i], hub.c[i], hub.v[i]);
    for (vertex_t r = 0; r < 20; ++r)
      if (r != 7) part.add(r, vertex_t(lo / 1000) + r, 2.0);  // other rows
    t.insert(part);
  }
  t.check();
  const std::vector<vertex_t> before = row_of(t.dev, 7);
  REQUIRE(before.size() == 100000);
  edges del;
  std::vector<std::size_t> holes;
  for (std::size_t p = 37; p < before.size(); p += 100) {  // scattered: every 100th position
    holes.push_back(p);
    del.add(7, before[p], 0);
  }
  REQUIRE(holes.size() == 1000);
  t.remove(del);
  t.check();  // twins bit-identical, the model, validate(): no empty segment kept
  CHECK(row_of(t.dev, 7) == after_rule(before, holes));
  CHECK(t.dev.stats().entries_deleted == 1000);
}

TEST_CASE("an edge stored more times than the batch has keys loses every copy (accumulating store)") {
  dcsr_config cfg;
  cfg.dups = duplicates::accumulate;
  twins<double> t(cfg);
  edges copies;  // (0, 1) 5000 times among other entries of row 0: more holes than the 2048 keys
  for (int i = 0; i < 5000; ++i) copies.add(0, i % 3 == 0 ? 2 + i : 1, 1.0);
  for (int i = 0; i < 5000; ++i) copies.add(0, 1, 0.5);
  t.insert(copies);
  const auto before = test::layout_of(t.dev);
  edges del, bad;
  del.add(0, 1, 0);
  del.add(0, 5, 0);
  bad.add(1, 1, std::nan(""));
  CHECK_THROWS_AS(t.dev.apply_batch(test::to_batch<double, D>(bad), test::to_batch<double, D>(del)), batch_error);
  CHECK(test::layout_of(t.dev) == before);  // 8334 holes put back
  t.remove(del);
  t.check();
  CHECK(t.dev.nnz() == 1666);
  CHECK(t.dev.stats().entries_deleted == 8334);
}

TEST_CASE_TEMPLATE("a deletion of absent edges only changes nothing but the counters", S, host_space, device_space) {
  for (edge_index index : {edge_index::never, edge_index::always}) {
    CAPTURE(int(index));
    dcsr_config cfg;
    cfg.index = index;
    dcsr_matrix<pattern, S> A(cfg);
    std::mt19937_64 g(5);
    edges e, absent;
    for (int i = 0; i < 5000; ++i) e.add(vertex_t(g() % 500), vertex_t(g() % 500), 1);
    A.insert_batch(test::to_batch<pattern, S>(e));
    A.insert_batch(test::to_batch<pattern, S>(e));  // duplicates only: an edge set (when asked for) exists now
    const auto cells = test::cells_of(A);
    for (int i = 0; i < 3000; ++i) {
      const vertex_t r = vertex_t(g() % 520), c = vertex_t(g() % 600);  // some rows past the store
      if (cells.count({r, c}) == 0) absent.add(r, c, 0);
    }
    absent.add(absent.r[0], absent.c[0], 0);  // a repeat
    const auto before = test::layout_of(A);
    const auto version = A.version();
    A.delete_batch(test::to_batch<pattern, S>(absent));
    CHECK(test::layout_of(A) == before);
    CHECK(A.version() == version);
    CHECK(A.stats().deletes_absent == std::int64_t(absent.r.size()));
    CHECK(A.stats().entries_deleted == 0);
    A.validate();
  }
}

TEST_CASE_TEMPLATE("a mixed batch whose insertion fails leaves the layout byte for byte as it was", V, double, pattern) {
  // A fragmented store with a hub row; the deletion half removes scattered entries of many rows
  // (the hub's included), then the insertion half fails: a bad edge, or (device) out of memory on
  // the way through new vertices, a compaction and a larger buffer.
  std::mt19937_64 g(17);
  dcsr_config cfg;
  cfg.max_segments = 4;
  twins<V> t(cfg);
  for (int b = 0; b < 6; ++b) {
    edges e;
    for (int i = 0; i < 3000; ++i) e.add(i % 4 == 0 ? 3 : vertex_t(g() % 300), vertex_t(g() % 5000), 1.0 + i % 3);
    t.insert(e);
  }
  t.check();
  edges del, bad, big;
  for (const auto& [key, cell] : t.model.cells)
    if (g() % 5 == 0) del.add(key.first, key.second, 0);
  for (int i = 0; i < 50; ++i) del.add(vertex_t(g() % 400), vertex_t(g() % 5000), 0);  // mostly absent
  bad.add(1, 2, 1.0);
  bad.add(-1, 2, 1.0);
  for (int i = 0; i < 40000; ++i) big.add(vertex_t(g() % 2000), vertex_t(g() % 2000), 1.0);
  auto require_unchanged = [&](const auto& A, const test::raw_layout& before, offset_t nnz, std::uint64_t version) {
    REQUIRE(test::layout_of(A) == before);
    REQUIRE(A.nnz() == nnz);
    REQUIRE(A.version() == version);
    A.validate();
  };
  const auto ref_before = test::layout_of(t.ref), dev_before = test::layout_of(t.dev);
  const offset_t nnz = t.dev.nnz();
  const auto version = t.dev.version();
  CHECK_THROWS_AS(t.ref.apply_batch(test::to_batch<V, H>(bad), test::to_batch<V, H>(del)), batch_error);
  CHECK_THROWS_AS(t.dev.apply_batch(test::to_batch<V, D>(bad), test::to_batch<V, D>(del)), batch_error);
  require_unchanged(t.ref, ref_before, nnz, version);
  require_unchanged(t.dev, dev_before, nnz, version);
  int failed = 0;
  for (std::size_t extra = 0; extra < (std::size_t(8) << 20); extra += std::size_t(256) << 10) {
    const auto in = test::to_batch<V, D>(big), out = test::to_batch<V, D>(del);
    memory::set_limit_for_testing(memory::bytes_in_use() + extra);
    bool ok = true;
    try {
      t.dev.apply_batch(in, out);
    } catch (const out_of_memory&) {
      ok = false;
    }
    memory::set_limit_for_testing(0);
    if (ok) break;
    ++failed;
    require_unchanged(t.dev, dev_before, nnz, version);
  }
  CHECK(failed > 3);
  t.ref.apply_batch(test::to_batch<V, H>(big), test::to_batch<V, H>(del));
  if (t.dev.version() == version) t.dev.apply_batch(test::to_batch<V, D>(big), test::to_batch<V, D>(del));
  t.ref.validate();
  t.dev.validate();
  test::require_identical(t.ref, t.dev);
}
