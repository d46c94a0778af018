// The distributed store under mpirun (-np 1, 2, 3; ctest registers each): every rank runs the same
// cases, in the same order, and checks its own part against one process's answer: the reference
// twin's SpMV in every semiring, single-rank PageRank, and a host model of streamed batches (with
// deletions); a batch that is bad on one rank only, or that runs out of memory on one rank only,
// leaves every rank's store as it was. Both partitions. Checks never skip a collective (CHECK, not
// REQUIRE, around them), so a failure on one rank cannot hang the others.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "distributed/dist_pagerank.hpp"
#include "core/comm.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "read/cost_model.hpp"
#include "distributed/dist_graph.hpp"
#include "fluxgraph/distributed.hpp"
#include "storage/dcsr.hpp"

using namespace fg;
using D = device_space;

namespace {
communicator* world = nullptr;

struct edges {
  std::vector<vertex_t> src, dst;
  std::vector<double> w;
};

// The same random graph on every rank (power-law-ish rows, repeats and self-loops included). A
// repeated edge has the same weight each time: the ranks receive a batch's repeats in rank order, so
// which copy a store keeps (the first) is the input's first only when ranks hold consecutive parts
// of the input, and the shares here interleave.
edges random_graph(std::uint64_t seed, vertex_t n, std::size_t m) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  edges e;
  for (std::size_t i = 0; i < m; ++i) {
    e.src.push_back(vertex_t(std::pow(u(g), 2.0) * n));
    e.dst.push_back(vertex_t(u(g) * n));
    e.w.push_back(0.5 + double((e.src.back() * 7919 + e.dst.back() * 104729) % 1000) / 1000);
  }
  return e;
}

// This rank's share of e[lo, hi): every P-th edge, so a rank is given edges of every owner.
edges share(const edges& e, std::size_t lo, std::size_t hi) {
  edges s;
  for (std::size_t i = lo; i < hi; ++i)
    if (int(i % std::size_t(world->size())) == world->rank()) {
      s.src.push_back(e.src[i]);
      s.dst.push_back(e.dst[i]);
      s.w.push_back(e.w[i]);
    }
  return s;
}

row_partition partition_of(partition_kind k, vertex_t n) {
  if (k == partition_kind::cyclic) return row_partition::cyclic(world->size());
  std::vector<std::int64_t> rows(static_cast<std::size_t>(n), 1);  // blocks of equal vertex counts, then grown past
  return row_partition::balanced_blocks(rows, world->size());
}

// The local rows of A as (global row, column) -> value sum, and the model's rows this rank owns.
template <class V>
std::map<std::pair<vertex_t, vertex_t>, double> local_cells(const dist_graph<V, D>& A) {
  const auto coo = A.local().to_coo();
  const auto r = to_vector(coo.row), c = to_vector(coo.col);
  std::vector<stored_t<V>> v;
  if constexpr (!is_pattern_v<V>) v = to_vector(coo.val);
  std::map<std::pair<vertex_t, vertex_t>, double> m;
  for (std::size_t i = 0; i < r.size(); ++i)
    m[{A.partition().global(world->rank(), r[i]), c[i]}] += is_pattern_v<V> ? 1.0 : double(v[i]);
  return m;
}

template <class Sr, class V>
void check_spmv(const dist_graph<V, D>& A, const dcsr_matrix<V, host_space>& ref, std::uint64_t seed) {
  using T = typename Sr::value_type;
  const vertex_t n = A.num_vertices();
  std::mt19937_64 g(seed);
  std::vector<T> x(static_cast<std::size_t>(n));
  for (auto& e : x) {
    if constexpr (std::is_same_v<Sr, or_and>) e = T(g() % 3 == 0);
    else e = T(std::uniform_real_distribution<double>(0.5, 2)(g));
  }
  array<T, host_space> yr(static_cast<std::size_t>(n));
  spmv<Sr>(ref, to_space<host_space>(x), yr);
  std::vector<T> xl(static_cast<std::size_t>(A.local_vertices()));
  for (vertex_t l = 0; l < A.local_vertices(); ++l) xl[std::size_t(l)] = x[std::size_t(A.partition().global(world->rank(), l))];
  array<T, D> y;
  spmv<Sr>(A, to_space<D>(xl), y);
  const auto got = to_vector(y);
  const bool exact = !std::is_same_v<Sr, plus_times<T>>;
  int wrong = 0;
  for (vertex_t l = 0; l < A.local_vertices(); ++l) {
    const double want = double(yr[std::size_t(A.partition().global(world->rank(), l))]), have = double(got[std::size_t(l)]);
    if (exact ? have != want : std::fabs(have - want) > 1e-5 * (1 + std::fabs(want))) ++wrong;
  }
  CHECK_MESSAGE(wrong == 0, Sr::name << ": " << wrong << " rows differ from one process's");
}
}  // namespace

TEST_CASE("distributed SpMV in every semiring equals one process's, both partitions") {
  const vertex_t n = 3000;
  const edges all = random_graph(11, n, 40000);
  for (partition_kind k : {partition_kind::cyclic, partition_kind::blocks}) {
    CAPTURE(int(k));
    dist_graph<double, D> A(*world, orientation::out, partition_of(k, n / 2), 0);  // blocks cut at n/2: grown past
    dist_graph<pattern, D> B(*world, orientation::out, partition_of(k, n / 2), 0);
    for (std::size_t lo = 0; lo < all.src.size(); lo += 13000) {  // three batches, the last short
      const edges s = share(all, lo, std::min(all.src.size(), lo + 13000));
      A.apply(s.src, s.dst, s.w);
      B.apply(s.src, s.dst, {});
    }
    CHECK(A.num_vertices() == n);
    dcsr_config cfg;
    cfg.dups = duplicates::collapse;
    std::vector<stored_t<double>> w(all.w.begin(), all.w.end());
    const auto ref = dcsr_matrix<double, host_space>::from_coo(make_coo<double, host_space>(all.src, all.dst, w), n, n, cfg);
    const auto refp = dcsr_matrix<pattern, host_space>::from_coo(make_coo<pattern, host_space>(all.src, all.dst, {}), n, n, cfg);
    CHECK(A.num_edges() == ref.nnz());
    // x by the all-gather, by the sparse exchange (only the entries the rows name), and by the
    // automatic choice: the same results.
    for (x_exchange_mode m : {x_exchange_mode::all_gather, x_exchange_mode::sparse, x_exchange_mode::automatic}) {
      CAPTURE(to_string(m));
      A.set_exchange(m);
      B.set_exchange(m);
      check_spmv<plus_times<double>>(A, ref, 1);
      check_spmv<min_plus<double>>(A, ref, 2);
      check_spmv<plus_times<double>>(B, refp, 3);
      check_spmv<or_and>(B, refp, 4);
      check_spmv<min_plus<double>>(B, refp, 5);
      CHECK(A.exchange_plan().sparse == (m == x_exchange_mode::sparse || (m == x_exchange_mode::automatic &&
                                                                            A.exchange_plan().share < sparse_share_limit)));
    }
    // A batch afterwards: the plan is built again for the new columns (and vertices).
    A.set_exchange(x_exchange_mode::sparse);
    const std::int64_t before = A.exchange_plan().batches;
    std::vector<vertex_t> src{0, n + 5}, dst{n + 7, 1};
    if (world->rank() == 0) A.apply(src, dst, {0.5, 0.25});  // rank 0 gives the batch, the others nothing
    else A.apply({}, {}, {});
    CHECK(A.exchange_plan().batches == before + 1);
    std::vector<vertex_t> s2 = all.src, d2 = all.dst;
    std::vector<stored_t<double>> w2 = w;
    s2.insert(s2.end(), src.begin(), src.end());
    d2.insert(d2.end(), dst.begin(), dst.end());
    w2.insert(w2.end(), {0.5, 0.25});
    const auto ref2 = dcsr_matrix<double, host_space>::from_coo(make_coo<double, host_space>(s2, d2, w2), n + 8, n + 8, cfg);
    check_spmv<plus_times<double>>(A, ref2, 6);
    check_spmv<min_plus<double>>(A, ref2, 7);
  }
}

TEST_CASE("distributed PageRank equals one process's, cold and warm after a batch") {
  const vertex_t n = 2500;
  const edges all = random_graph(23, n, 30000);
  dist_graph<pattern, D> A(*world, orientation::in, row_partition::cyclic(world->size()), 0);
  const std::size_t first = 25000;
  const edges s = share(all, 0, first);
  A.apply(s.src, s.dst, {});
  pagerank_options opt;
  opt.tol = 1e-13;
  auto check_against_one = [&](std::size_t m, const dist_pagerank_result& r) {
    dcsr_config cfg;
    cfg.dups = duplicates::collapse;
    std::vector<vertex_t> src(all.src.begin(), all.src.begin() + long(m)), dst(all.dst.begin(), all.dst.begin() + long(m));
    const auto At = dcsr_matrix<pattern, host_space>::from_coo(make_coo<pattern, host_space>(dst, src, {}), n, n, cfg);
    const pagerank_result one = pagerank(At, opt);
    CHECK(r.converged);
    double l1 = 0;
    for (vertex_t l = 0; l < A.local_vertices(); ++l)
      l1 += std::fabs(r.score[std::size_t(l)] - one.score[std::size_t(A.partition().global(world->rank(), l))]);
    world->allreduce(&l1, 1, comm_op::sum);
    CHECK(l1 < 1e-9);
  };
  // progress: once per iteration on every rank, with the global change the run stops on.
  std::vector<double> changes;
  pagerank_options watched = opt;
  watched.progress = [&](int it, double change) {
    CHECK(it == int(changes.size()) + 1);
    changes.push_back(change);
  };
  const dist_pagerank_result cold = pagerank(A, watched);
  check_against_one(first, cold);
  REQUIRE(changes.size() == std::size_t(cold.iterations));
  CHECK(changes.back() == cold.last_change);
  CHECK(cold.iterate_seconds >= 0);
  CHECK(cold.setup_seconds + cold.iterate_seconds <= cold.seconds);
  const edges more = share(all, first, all.src.size());
  A.apply(more.src, more.dst, {});
  pagerank_start warm;
  warm.initial = cold.score;
  const dist_pagerank_result w = pagerank(A, opt, warm);
  check_against_one(all.src.size(), w);
  CHECK(w.iterations < cold.iterations);
  // Each rank's rows through any selectable view, with x by either exchange: the same scores (the
  // selector's pick is one of them). The sparse exchange reads the rows split by column owner
  // (own columns square: the renumbered views apply; the remote part by their inner kernel); the
  // all-gather reads local rows x global columns, square on one rank only.
  for (x_exchange_mode m : {x_exchange_mode::sparse, x_exchange_mode::all_gather}) {
    A.set_exchange(m);
    CAPTURE(to_string(m));
    for (const std::string& k : selectable_kernels()) {
      if (k.rfind("dbg_", 0) == 0 && world->size() > 1 && m == x_exchange_mode::all_gather) continue;
      CAPTURE(k);
      pagerank_options forced = opt;
      forced.kernel = k;
      const dist_pagerank_result f = pagerank(A, forced);
      CHECK(f.kernel == k);
      check_against_one(all.src.size(), f);
    }
  }
  A.set_exchange(x_exchange_mode::automatic);
}

TEST_CASE("split rows: own columns by local id, the others by received position, every entry once") {
  const vertex_t n = 700;
  const edges all = random_graph(29, n, 6000);
  for (partition_kind k : {partition_kind::cyclic, partition_kind::blocks}) {
    CAPTURE(int(k));
    dist_graph<double, D> A(*world, orientation::out, partition_of(k, n / 3), 0);
    const edges s = share(all, 0, all.src.size());
    A.apply(s.src, s.dst, s.w);
    A.set_exchange(x_exchange_mode::sparse);
    const auto rows = A.split();
    CHECK(rows == A.split());  // kept while no batch comes
    const x_exchange_plan<D>& plan = A.exchange_plan();
    const std::vector<vertex_t> recv = to_vector(plan.recv_global);
    const vertex_t nl = A.local_vertices();
    // (local row, global column) -> value, from the two parts and from the store: the same set.
    std::map<std::pair<vertex_t, vertex_t>, double> got, want;
    auto add = [&](const dcsr_matrix<double, D>& M, bool remote) {
      const auto h = M.to_coo();
      const std::vector<vertex_t> r = to_vector(h.row), c = to_vector(h.col);
      const std::vector<double> v = to_vector(h.val);
      for (std::size_t j = 0; j < h.nnz; ++j) {
        REQUIRE(c[j] < (remote ? vertex_t(recv.size()) : nl));
        const vertex_t g = remote ? recv[std::size_t(c[j])] : A.partition().global(world->rank(), c[j]);
        CHECK(remote == (A.partition().owner(g) != world->rank()));
        CHECK(got.emplace(std::make_pair(r[j], g), v[j]).second);
      }
    };
    add(rows->own, false);
    add(rows->remote, true);
    const auto store = A.local().to_coo();
    const std::vector<vertex_t> r = to_vector(store.row), c = to_vector(store.col);
    const std::vector<double> v = to_vector(store.val);
    for (std::size_t j = 0; j < store.nnz; ++j) want.emplace(std::make_pair(r[j], c[j]), v[j]);
    CHECK(got == want);
    // A batch makes them stale: the next split is new and holds the new edge.
    std::vector<vertex_t> bs{1}, bd{n - 1};
    if (world->rank() == 0) A.apply(bs, bd, {7.0});
    else A.apply({}, {}, {});
    CHECK(A.split() != rows);
  }
}

TEST_CASE("streamed insert, delete and mixed batches equal a host model on every rank") {
  const vertex_t n = 800;
  std::mt19937_64 g(5);
  std::set<std::pair<vertex_t, vertex_t>> model;
  dist_graph<pattern, D> A(*world, orientation::out, row_partition::cyclic(world->size()), 0);
  for (int b = 0; b < 12; ++b) {
    // The same batch drawn on every rank; each rank is given its share of it.
    edges ins, del;
    std::uniform_int_distribution<vertex_t> id(0, n / 4 + b * n / 16);
    for (int i = 0; i < 900; ++i) ins.src.push_back(id(g)), ins.dst.push_back(id(g)), ins.w.push_back(1);
    std::vector<std::pair<vertex_t, vertex_t>> present(model.begin(), model.end());
    for (int i = 0; i < (b % 3 == 0 ? 0 : 300) && !present.empty(); ++i) {
      const auto& e = present[std::size_t(g() % present.size())];
      del.src.push_back(e.first), del.dst.push_back(e.second), del.w.push_back(1);
    }
    for (std::size_t i = 0; i < del.src.size(); ++i) model.erase({del.src[i], del.dst[i]});
    for (std::size_t i = 0; i < ins.src.size(); ++i) model.insert({ins.src[i], ins.dst[i]});
    const edges si = share(ins, 0, ins.src.size()), sd = share(del, 0, del.src.size());
    A.apply(si.src, si.dst, {}, sd.src, sd.dst);
    std::int64_t mine = 0, wrong = 0;
    const auto cells = local_cells(A);
    for (const auto& [key, count] : cells) wrong += !model.count(key) || count != 1.0;
    for (const auto& key : model) mine += A.partition().owner(key.first) == world->rank();
    CHECK(wrong == 0);
    CHECK(std::int64_t(cells.size()) == mine);
    CHECK(A.num_edges() == std::int64_t(model.size()));
  }
}

TEST_CASE("a batch bad on one rank only, or out of memory on one rank only, leaves every rank unchanged") {
  const vertex_t n = 1500;
  const edges all = random_graph(31, n, 20000);
  for (partition_kind k : {partition_kind::cyclic, partition_kind::blocks}) {
    CAPTURE(int(k));
    dist_graph<double, D> A(*world, orientation::out, partition_of(k, n), 0);
    const edges s = share(all, 0, 12000);
    A.apply(s.src, s.dst, s.w);
    const auto before = local_cells(A);
    const auto version = A.local().version();
    const vertex_t vertices = A.num_vertices();
    const int last = world->size() - 1;
    edges more = share(all, 12000, all.src.size());
    more.src.push_back(n + 50), more.dst.push_back(3), more.w.push_back(1);  // a new vertex: the store grows
    // 1. a negative id on the last rank only: every rank refuses, naming that rank
    edges bad = more;
    if (world->rank() == last) bad.dst[bad.dst.size() / 2] = -4;
    std::string msg;
    try {
      A.apply(bad.src, bad.dst, bad.w);
    } catch (const batch_error& e) {
      msg = e.what();
    }
    CHECK(msg.find("rank " + std::to_string(last) + "'s insertion: negative vertex id") != std::string::npos);
    CHECK(local_cells(A) == before);
    CHECK(A.num_vertices() == vertices);
    // 2. the last rank's store cannot get memory, with deletions in the batch too
    edges del;
    for (std::size_t i = 0; i < 400; ++i)
      if (int(i % std::size_t(world->size())) == world->rank()) del.src.push_back(all.src[i]), del.dst.push_back(all.dst[i]);
    bool threw = false;
    if (world->rank() == last) memory::set_limit_for_testing(memory::bytes_in_use() + 1024);
    try {
      A.apply(more.src, more.dst, more.w, del.src, del.dst);
    } catch (const out_of_memory& e) {
      threw = std::string(e.what()).find("rank " + std::to_string(last)) != std::string::npos;
    }
    memory::set_limit_for_testing(0);
    CHECK(threw);
    CHECK(local_cells(A) == before);
    CHECK(A.local().version() == version);
    CHECK(A.num_vertices() == vertices);
    A.local().validate();
    // 3. the same batch with memory goes in everywhere
    A.apply(more.src, more.dst, more.w, del.src, del.dst);
    CHECK(A.num_vertices() == n + 51);
    CHECK(local_cells(A) != before);
  }
}

// The routing kernels, device twin against the reference (rank-local: any P here), for 1, 3 and 7
// owners under both rules, with a bad edge and a non-finite weight in a copy.
TEST_CASE("routing kernels: the device twin equals the reference") {
  using RK = detail::dist_kernels<host_space>;
  using DK = detail::dist_kernels<D>;
  edges e = random_graph(41, 5000, 20000);
  const auto m = std::int64_t(e.src.size());
  for (int parts : {1, 3, 7})
    for (partition_kind k : {partition_kind::cyclic, partition_kind::blocks}) {
      CAPTURE(parts);
      const row_partition p = k == partition_kind::cyclic ? row_partition::cyclic(parts)
                                                          : row_partition::balanced_blocks(std::vector<std::int64_t>(5000, 1), parts);
      const array<vertex_t, D> starts = to_space<D>(p.starts);
      const partition_view pd{p.kind, p.parts, p.starts.empty() ? nullptr : starts.data()};
      std::vector<int> owner_h(e.src.size());
      std::vector<std::int64_t> key_h(e.src.size());
      std::vector<double> w_h = e.w;
      RK::route_keys(p.host_view(), e.src.data(), e.dst.data(), m, owner_h.data(), key_h.data());
      const std::vector<std::int64_t> count_h = RK::order_by_owner(owner_h.data(), key_h.data(), w_h.data(), m, parts);
      const array<vertex_t, D> src = to_space<D>(e.src), dst = to_space<D>(e.dst);
      array<int, D> owner(e.src.size());
      array<std::int64_t, D> key(e.src.size());
      array<double, D> w = to_space<D>(e.w);
      DK::route_keys(pd, src.data(), dst.data(), m, owner.data(), key.data());
      CHECK(DK::order_by_owner(owner.data(), key.data(), w.data(), m, parts) == count_h);
      CHECK(to_vector(key) == key_h);
      CHECK(to_vector(w) == w_h);
      std::vector<vertex_t> r_h(e.src.size()), c_h(e.src.size());
      RK::unpack(key_h.data(), m, r_h.data(), c_h.data());
      array<vertex_t, D> r(e.src.size()), c(e.src.size());
      DK::unpack(key.data(), m, r.data(), c.data());
      CHECK(to_vector(r) == r_h);
      CHECK(to_vector(c) == c_h);
    }
  edges bad = e;
  bad.w[7000] = std::nan(""), bad.dst[9000] = -1, bad.w[12000] = INFINITY;
  for (std::int64_t n : {std::int64_t(0), std::int64_t(7000), std::int64_t(8000), m}) {
    const detail::batch_check h = RK::check_batch(bad.src.data(), bad.dst.data(), bad.w.data(), n);
    const array<vertex_t, D> src = to_space<D>(bad.src), dst = to_space<D>(bad.dst);
    const array<double, D> w = to_space<D>(bad.w);
    const detail::batch_check d = DK::check_batch(src.data(), dst.data(), w.data(), n);
    CHECK(d.first_bad == h.first_bad);
    CHECK(d.reason == h.reason);
    CHECK(d.top == h.top);
  }
  const detail::batch_check h = RK::check_batch(bad.src.data(), bad.dst.data(), bad.w.data(), m);
  CHECK(h.first_bad == 7000);  // the NaN weight comes first
  CHECK(h.reason == 2);
  CHECK(RK::check_batch(bad.src.data(), bad.dst.data(), nullptr, m).reason == 1);  // without weights: the negative id
}

// The last rank gets a little more memory each try, so that it fails at each step of a batch in
// turn (staging its edges, taking its share, writing it) until the batch goes in: every failure
// leaves every rank's store as it was, and names that rank.
TEST_CASE("a rank out of memory at any step of a batch leaves every rank unchanged, then the batch goes in") {
  const vertex_t n = 1500;
  const edges all = random_graph(37, n, 20000);
  dist_graph<double, D> A(*world, orientation::out, partition_of(partition_kind::cyclic, n), 0);
  const edges s = share(all, 0, 12000);
  A.apply(s.src, s.dst, s.w);
  const auto before = local_cells(A);
  const auto version = A.local().version();
  edges more = share(all, 12000, all.src.size());
  more.src.push_back(n + 50), more.dst.push_back(3), more.w.push_back(1);  // a new vertex: the store grows
  const int last = world->size() - 1;
  std::set<std::string> steps;
  bool in = false;
  for (double extra = 1024; !in; extra *= 1.25) {
    if (world->rank() == last) memory::set_limit_for_testing(memory::bytes_in_use() + std::size_t(extra));
    try {
      A.apply(more.src, more.dst, more.w);
      in = true;
    } catch (const out_of_memory& e) {
      memory::set_limit_for_testing(0);  // the checks below read the store
      const std::string m = e.what();
      CHECK(m.find("rank " + std::to_string(last)) != std::string::npos);
      steps.insert(m.find("stage its edges") != std::string::npos ? "stage" : m.find("take its share") != std::string::npos ? "route" : "write");
      CHECK(local_cells(A) == before);
      CHECK(A.local().version() == version);
    }
    memory::set_limit_for_testing(0);
  }
  CHECK(steps.count("stage") == 1);
  CHECK(steps.count("write") == 1);
  CHECK(A.num_vertices() == n + 51);
  CHECK(local_cells(A) != before);
  A.local().validate();
}

TEST_CASE("size_sorted_ids: a permutation by decreasing row entries over every rank's edges, ties by id") {
  const vertex_t n = 400;
  const edges all = random_graph(31, n, 5000);
  const edges s = share(all, 0, all.src.size());
  const fluxgraph::edge_span<std::int32_t> span{s.src.data(), s.dst.data(), s.src.size(), nullptr};
  fluxgraph::ranks r("auto");
  for (bool in : {false, true}) {
    const std::vector<fluxgraph::vertex_id> id = fluxgraph::size_sorted_ids(r, n, span, in);
    std::vector<std::int64_t> rows(static_cast<std::size_t>(n), 0);  // every rank's rows, counted from the whole list
    for (std::size_t i = 0; i < all.src.size(); ++i) ++rows[std::size_t(in ? all.dst[i] : all.src[i])];
    std::vector<fluxgraph::vertex_id> at(static_cast<std::size_t>(n), -1);  // at[new id] = old id
    for (vertex_t v = 0; v < n; ++v) {
      REQUIRE(id[std::size_t(v)] >= 0);
      REQUIRE(id[std::size_t(v)] < n);
      at[std::size_t(id[std::size_t(v)])] = v;
    }
    for (vertex_t k = 0; k < n; ++k) REQUIRE(at[std::size_t(k)] >= 0);  // a permutation
    for (vertex_t k = 1; k < n; ++k) {
      const auto a = at[std::size_t(k - 1)], b = at[std::size_t(k)];
      CHECK((rows[std::size_t(a)] > rows[std::size_t(b)] || (rows[std::size_t(a)] == rows[std::size_t(b)] && a < b)));
    }
  }
}

TEST_CASE("the public distributed_graph: or-and SpMV takes any nonzero x as true") {
  fluxgraph::ranks r;  // its own communicator over the same ranks
  fluxgraph::distributed_graph g(r, 6);
  // every rank gives the same path 0 -> 1 -> 2 -> 3 -> 4 -> 5 (an unweighted graph keeps each edge once)
  const std::vector<std::int32_t> src{0, 1, 2, 3, 4}, dst{1, 2, 3, 4, 5};
  g.apply({src.data(), dst.data(), src.size(), nullptr});
  CHECK(g.num_edges() == 5);
  const std::vector<fluxgraph::vertex_id> ids = g.local_ids();
  std::vector<double> x(ids.size(), 0.0);
  for (std::size_t i = 0; i < ids.size(); ++i) x[i] = ids[i] == 3 ? 0.25 : 0.0;  // x[3] nonzero, below 1
  const std::vector<double> y = g.gather(g.spmv(fluxgraph::semiring::or_and, x));
  CHECK(y == std::vector<double>{0, 0, 1, 0, 0, 0});  // only 2 -> 3 reaches it
}

TEST_CASE("the public distributed_graph takes edges in device memory as it takes them from the host") {
  fluxgraph::ranks r;
  const vertex_t n = 700;
  const edges all = random_graph(43, n, 6000);
  const edges s = share(all, 0, all.src.size());
  fluxgraph::distributed_options o;
  o.weighted = true;
  fluxgraph::distributed_graph from_host(r, n, o), from_device(r, n, o);
  from_host.apply({s.src.data(), s.dst.data(), s.src.size(), s.w.data()});
  const array<vertex_t, D> src = to_space<D>(s.src), dst = to_space<D>(s.dst);
  const array<double, D> w = to_space<D>(s.w);
  fluxgraph::edge_span<std::int32_t> e{src.data(), dst.data(), s.src.size(), w.data(), fluxgraph::memory::device};
  const fluxgraph::distributed_batch b = from_device.apply(e);
  CHECK(b.edges == from_host.num_edges());
  std::vector<double> x(from_host.local_ids().size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 1.0 + double(from_host.local_ids()[i] % 7);
  CHECK(from_device.spmv(fluxgraph::semiring::plus_times, x) == from_host.spmv(fluxgraph::semiring::plus_times, x));
  // deletions from the device too: a third of the edges out again, on both
  const std::size_t k = s.src.size() / 3;
  from_host.apply({}, {s.src.data(), s.dst.data(), k, nullptr});
  from_device.apply({}, {src.data(), dst.data(), k, nullptr, fluxgraph::memory::device});
  CHECK(from_device.num_edges() == from_host.num_edges());
  CHECK(from_device.spmv(fluxgraph::semiring::plus_times, x) == from_host.spmv(fluxgraph::semiring::plus_times, x));
}

int main(int argc, char** argv) {
  std::unique_ptr<communicator> c = make_communicator("auto");
  world = c.get();
  doctest::Context context;
  context.applyCommandLine(argc, argv);
  if (c->rank() != 0) context.setOption("out", "/dev/null");  // one report; every rank's failures count
  const int failed = context.run() != 0;
  std::int64_t any = failed;
  c->allreduce(&any, 1, comm_op::max);
  if (c->rank() == 0) std::cout << "ranks: " << c->size() << " (" << c->transport() << "), failed on any rank: " << any << "\n";
  return any ? 1 : 0;
}
