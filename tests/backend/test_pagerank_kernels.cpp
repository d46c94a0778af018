// PageRank's vector kernels, device twin against the reference: the out-weights on a packed store
// and on a size-ordered one (read flat: balanced_edges.hpp's for_each_stored_entry) and on a store
// grown by batches (read by segments), pattern and weighted; the fused update's sums, into double or
// float x; and csr_merge's mixed read (float x, double sums) that PageRank takes on large graphs.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "algorithms/detail/pagerank_kernels.hpp"
#include "algorithms/pagerank.hpp"
#include "core/semiring.hpp"
#include "storage/csr_merge.hpp"
#include "tests/format_support.hpp"
#include "tests/support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {
test::edges random_edges(std::mt19937_64& g, std::size_t m, vertex_t n) {
  test::edges e;
  std::uniform_int_distribution<vertex_t> R(0, n - 1);
  std::uniform_real_distribution<double> V(0.5, 2.0);
  for (std::size_t i = 0; i < m; ++i) {
    // a hub column (vertex 3) and a hub row (vertex 5): the atomics' contention and a long row
    e.add(i % 7 == 0 ? 5 : R(g), i % 5 == 0 ? 3 : R(g), V(g));
  }
  return e;
}

template <class V>
void require_same_out_weights(const dcsr_matrix<V, H>& ref, const dcsr_matrix<V, D>& dev) {
  const vertex_t n = ref.rows();
  array<double, H> want(static_cast<std::size_t>(n));
  array<double, D> got(static_cast<std::size_t>(n));
  detail::pagerank_kernels<H>::out_weights<V>(ref.view(), want.data(), n);
  detail::pagerank_kernels<D>::out_weights<V>(dev.view(), got.data(), n);
  const auto w = to_vector(want), g = to_vector(got);
  double total = 0;
  for (std::size_t u = 0; u < w.size(); ++u) {
    CAPTURE(u);
    total += w[u];
    if constexpr (is_pattern_v<V>) REQUIRE(g[u] == w[u]);  // counts: exact
    else REQUIRE(std::fabs(g[u] - w[u]) <= 1e-12 * std::fabs(w[u]));
  }
  if constexpr (is_pattern_v<V>) CHECK(total == double(ref.nnz()));
}

/// An update's inputs: y and the old ranks random in [0, 1/n), out-weights 1 + u mod `weights`, and
/// every `dangling`-th vertex without out-edges.
struct update_inputs {
  std::vector<double> y, rank, w;
  update_inputs(std::uint64_t seed, vertex_t n, vertex_t dangling, vertex_t weights) : y(n), rank(n), w(n) {
    std::mt19937_64 g(seed);
    std::uniform_real_distribution<double> U(0, 1);
    for (vertex_t u = 0; u < n; ++u) {
      y[u] = U(g) / n;
      rank[u] = U(g) / n;
      w[u] = u % dangling == 0 ? 0.0 : double(1 + u % weights);
    }
  }
};

// Y = A X for k vectors in both twins, and column by column by the one-vector reference read.
template <class V>
void require_k_reads_agree(const dcsr_matrix<V, H>& ref, const dcsr_matrix<V, D>& dev, int k, std::uint64_t seed) {
  const vertex_t n = ref.rows();
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<double> x(std::size_t(n) * k);
  for (double& v : x) v = U(g);
  array<double, H> hx = to_space<H>(x), hy(x.size());
  array<double, D> dx = to_space<D>(x), dy(x.size());
  spmv_k(ref, hx, hy, k);
  spmv_k(dev, dx, dy, k);
  const std::vector<double> want = to_vector(hy), got = to_vector(dy);
  for (int j = 0; j < k; ++j) {
    std::vector<double> col(static_cast<std::size_t>(n));
    for (vertex_t v = 0; v < n; ++v) col[std::size_t(v)] = x[std::size_t(v) * k + j];
    array<double, H> cx = to_space<H>(col), cy{static_cast<std::size_t>(n)};
    spmv<plus_times<double>>(ref, cx, cy);
    const std::vector<double> one = to_vector(cy);
    for (vertex_t v = 0; v < n; ++v) {
      CAPTURE(j);
      CAPTURE(v);
      const double w = one[std::size_t(v)], a = want[std::size_t(v) * k + j], b = got[std::size_t(v) * k + j];
      REQUIRE(a == w);  // the same entries in the same order
      REQUIRE(std::fabs(b - w) <= 1e-12 * (1 + std::fabs(w)));  // the GPU sums a row's lanes in another order
    }
  }
}
}  // namespace

TEST_CASE_TEMPLATE("pagerank out-weights: device equals the reference, packed and grown by batches", V, double, pattern) {
  std::mt19937_64 g(5);
  const vertex_t n = 2000;
  dcsr_config cfg;
  cfg.dups = duplicates::collapse;
  const test::edges e = random_edges(g, 30000, n);
  auto ref = dcsr_matrix<V, H>::from_coo(make_coo<V, H>(e.r, e.c, test::values<V>(e)), n, n, cfg);
  auto dev = dcsr_matrix<V, D>::from_coo(make_coo<V, D>(e.r, e.c, test::values<V>(e)), n, n, cfg);
  REQUIRE(dev.view().dense == dev.nnz());
  require_same_out_weights(ref, dev);  // packed: the flat pass
  for (int b = 0; b < 3; ++b) {
    const test::edges more = random_edges(g, 3000, n);
    ref.insert_batch(make_coo<V, H>(more.r, more.c, test::values<V>(more)));
    dev.insert_batch(make_coo<V, D>(more.r, more.c, test::values<V>(more)));
  }
  REQUIRE(dev.view().dense == -1);
  require_same_out_weights(ref, dev);  // rows in several segments, with slack: the walk
  ref.defragment(dcsr_layout::size_order);
  dev.defragment(dcsr_layout::size_order);
  REQUIRE(dev.view().dense == dev.nnz());
  require_same_out_weights(ref, dev);  // dense, rows out of order: the flat pass still
}

TEST_CASE("pagerank update: device sums and vectors equal the reference") {
  const vertex_t n = 100003;
  const update_inputs in(9, n, 11, 17);
  const auto &y = in.y, &rank = in.rank, &w = in.w;
  array<double, H> hr = to_space<H>(rank), hs{std::size_t(n)}, hy = to_space<H>(y), hw = to_space<H>(w);
  array<double, D> dr = to_space<D>(rank), ds{std::size_t(n)}, dy = to_space<D>(y), dw = to_space<D>(w);
  const auto a = detail::pagerank_kernels<H>::update(hy.data(), hr.data(), hs.data(), nullptr, hw.data(), n, 0.85, 0.15 / n);
  const auto b = detail::pagerank_kernels<D>::update(dy.data(), dr.data(), ds.data(), nullptr, dw.data(), n, 0.85, 0.15 / n);
  CHECK(b.change == doctest::Approx(a.change).epsilon(1e-12));
  CHECK(b.dangling == doctest::Approx(a.dangling).epsilon(1e-12));
  // The GPU may fuse d * y + base into one rounding (FMA): equal within an ulp or two, not bitwise.
  auto require_close = [](const std::vector<double>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t u = 0; u < got.size(); ++u) {
      CAPTURE(u);
      REQUIRE(std::fabs(got[u] - want[u]) <= 1e-15 * std::fabs(want[u]));
    }
  };
  require_close(to_vector(dr), to_vector(hr));
  require_close(to_vector(ds), to_vector(hs));
}

TEST_CASE("pagerank update into float x: device equals the reference within float rounding") {
  const vertex_t n = 50021;
  const update_inputs in(13, n, 13, 29);
  const auto &y = in.y, &rank = in.rank, &w = in.w;
  array<double, H> hr = to_space<H>(rank), hy = to_space<H>(y), hw = to_space<H>(w);
  array<double, D> dr = to_space<D>(rank), dy = to_space<D>(y), dw = to_space<D>(w);
  array<float, H> hx{std::size_t(n)};
  array<float, D> dx{std::size_t(n)};
  detail::pagerank_kernels<H>::update(hy.data(), hr.data(), nullptr, hx.data(), hw.data(), n, 0.85, 0.15 / n);
  detail::pagerank_kernels<D>::update(dy.data(), dr.data(), nullptr, dx.data(), dw.data(), n, 0.85, 0.15 / n);
  const std::vector<float> a = to_vector(hx), b = to_vector(dx);
  const std::vector<double> r = to_vector(hr);
  for (vertex_t u = 0; u < n; ++u) {
    CAPTURE(u);
    const double want = w[u] > 0 ? r[u] / w[u] : 0.0;  // the double x, rounded once
    REQUIRE(std::fabs(double(a[u]) - want) <= std::ldexp(want, -24));
    REQUIRE(std::fabs(double(b[u]) - double(a[u])) <= std::ldexp(std::fabs(double(a[u])), -23));  // FMA: an ulp
  }
  // and back: widening is exact
  array<double, D> back{std::size_t(n)};
  detail::pagerank_kernels<D>::to_double(dx.data(), back.data(), n);
  array<float, D> again{std::size_t(n)};
  detail::pagerank_kernels<D>::to_float(back.data(), again.data(), n);
  CHECK(to_vector(again) == b);
}

TEST_CASE_TEMPLATE("csr_merge mixed read: float x, double sums, within 2^-24 of the double read in both twins", V,
                   double, pattern) {
  for (test::shape sh : {test::shape::uniform, test::shape::power_law, test::shape::one_huge_row}) {
    CAPTURE(int(sh));
    auto c = test::random_csr<V>(31 + std::uint64_t(sh), 20000, 20000, 300000, sh);
    if constexpr (!is_pattern_v<V>) {  // non-negative weights, as PageRank's
      auto v = to_vector(c.val);
      for (auto& x : v) x = std::fabs(x);
      c.val = to_space<H>(v);
    }
    std::mt19937_64 g(3);
    std::uniform_real_distribution<double> U(0, 1e-4);
    std::vector<double> x(20000);
    for (auto& e : x) e = U(g);
    std::vector<float> x32(x.begin(), x.end());
    const auto hm = to_csr_merge(c);
    const auto dm = to_csr_merge(clone_csr<D>(c));
    array<double, H> y_ref{20000}, y_h{20000};
    array<double, D> y_d{20000};
    spmv<plus_times<double>>(hm, to_space<H>(x), y_ref);
    spmv_mixed(hm, to_space<H>(x32), y_h);
    spmv_mixed(dm, to_space<D>(x32), y_d);
    const auto want = to_vector(y_ref), ref32 = to_vector(y_h), got = to_vector(y_d);
    for (std::size_t r = 0; r < want.size(); ++r) {
      CAPTURE(r);
      REQUIRE(std::fabs(ref32[r] - want[r]) <= std::ldexp(want[r], -24) + 1e-14 * want[r]);
      REQUIRE(std::fabs(got[r] - ref32[r]) <= 1e-12 * ref32[r]);  // the same products, summed in another order
    }
  }
}

TEST_CASE_TEMPLATE("pagerank reads float x where the tolerance allows, within the stated bound of double reads", S,
                   host_space, device_space) {
  const vertex_t n = 20000;
  const auto c = test::random_csr<pattern>(77, n, n, 250000, test::shape::power_law);
  const auto At = dcsr_matrix<pattern, S>::from_csr(clone_csr<S>(c));
  pagerank_options o;
  o.kernel = "csr_merge";
  o.tol = 1e-9;  // tol n = 2e-5 >= 2^-16: mixed reads
  const pagerank_result mixed = pagerank(At, o);
  o.mixed_precision = false;
  const pagerank_result exact = pagerank(At, o);
  REQUIRE(mixed.converged);
  REQUIRE(exact.converged);
  CHECK(mixed.mixed_reads == mixed.iterations);
  CHECK(exact.mixed_reads == 0);
  const double d = o.damping, bound = d / (1 - d) * (o.tol * n + std::ldexp(1.0, -24));
  double l1 = 0, sum = 0;
  for (std::size_t v = 0; v < mixed.score.size(); ++v) l1 += std::fabs(mixed.score[v] - exact.score[v]), sum += mixed.score[v];
  CHECK(l1 <= 2 * bound);  // each within the bound of the fixed point
  CHECK(sum == doctest::Approx(1.0).epsilon(1e-9));
  o.mixed_precision = true;
  o.tol = 1e-10;  // tol n = 2e-6: below 2^-16, double reads only
  CHECK(pagerank(At, o).mixed_reads == 0);
  o.tol = 1e-9;
  o.kernel = "dcsr";  // a kernel without a mixed read
  CHECK(pagerank(At, o).mixed_reads == 0);
}

TEST_CASE_TEMPLATE("k-vector read: device equals the reference and k one-vector reads, packed and grown", V, double, pattern) {
  std::mt19937_64 g(21);
  const vertex_t n = 3001;
  dcsr_config cfg;
  cfg.dups = duplicates::collapse;
  const test::edges e = random_edges(g, 40000, n);
  auto ref = dcsr_matrix<V, H>::from_coo(make_coo<V, H>(e.r, e.c, test::values<V>(e)), n, n, cfg);
  auto dev = dcsr_matrix<V, D>::from_coo(make_coo<V, D>(e.r, e.c, test::values<V>(e)), n, n, cfg);
  for (int k : {1, 3, 8, 32}) require_k_reads_agree(ref, dev, k, std::uint64_t(k));
  for (int b = 0; b < 4; ++b) {  // rows of several segments
    const test::edges more = random_edges(g, 4000, n);
    ref.insert_batch(make_coo<V, H>(more.r, more.c, test::values<V>(more)));
    dev.insert_batch(make_coo<V, D>(more.r, more.c, test::values<V>(more)));
  }
  REQUIRE(dev.view().single_segment == false);
  for (int k : {2, 8, 17}) require_k_reads_agree(ref, dev, k, std::uint64_t(100 + k));
  array<double, D> x(std::size_t(n) * 8), y(std::size_t(n) * 8);
  CHECK_THROWS_AS(spmv_k(dev, x, y, 33), fg::invalid_argument);
  CHECK_THROWS_AS(spmv_k(dev, x, y, 0), fg::invalid_argument);
  array<double, D> short_y(std::size_t(n) * 4);
  CHECK_THROWS_AS(spmv_k(dev, x, short_y, 8), fg::invalid_argument);
}

TEST_CASE("personalized pagerank update: device sums and vectors equal the reference, done vectors untouched") {
  const vertex_t n = 70001;
  const int k = 5;
  std::mt19937_64 g(4);
  std::uniform_real_distribution<double> U(0, 1);
  std::vector<double> y(static_cast<std::size_t>(n) * k), rank(y.size()), w(static_cast<std::size_t>(n));
  for (double& v : y) v = U(g) / n;
  for (double& v : rank) v = U(g) / n;
  for (vertex_t u = 0; u < n; ++u) w[std::size_t(u)] = u % 13 == 0 ? 0.0 : double(1 + u % 7);
  std::vector<std::int32_t> slot(static_cast<std::size_t>(n), -1);
  slot[10] = 0, slot[20000] = 1;
  const std::vector<double> seed_w = {0.5, 0, 1, 0.25, 0, 0.5, 1, 0, 0.75, 0};
  detail::ppr_step step;
  step.k = k;
  for (int j = 0; j < k; ++j) step.teleport[j] = 0.15 + 0.01 * j;
  step.done[3] = 1;
  array<double, H> hr = to_space<H>(rank), hs(y.size()), hy = to_space<H>(y), hw = to_space<H>(w), hsw = to_space<H>(seed_w);
  array<double, D> dr = to_space<D>(rank), ds(y.size()), dy = to_space<D>(y), dw = to_space<D>(w), dsw = to_space<D>(seed_w);
  array<std::int32_t, H> hslot = to_space<H>(slot);
  array<std::int32_t, D> dslot = to_space<D>(slot);
  std::vector<double> a(2 * k), b(2 * k);
  detail::pagerank_kernels<H>::update_k(hy.data(), hr.data(), hs.data(), hw.data(), hslot.data(), hsw.data(), step, n, 0.85, a.data());
  detail::pagerank_kernels<D>::update_k(dy.data(), dr.data(), ds.data(), dw.data(), dslot.data(), dsw.data(), step, n, 0.85, b.data());
  for (int j = 0; j < 2 * k; ++j) {
    CAPTURE(j);
    CHECK(b[std::size_t(j)] == doctest::Approx(a[std::size_t(j)]).epsilon(1e-12));
  }
  CHECK(a[3] == 0);
  CHECK(a[k + 3] == 0);
  const std::vector<double> hrank = to_vector(hr), drank = to_vector(dr);
  for (vertex_t v = 0; v < n; ++v)
    for (int j = 0; j < k; ++j) {
      const std::size_t e = std::size_t(v) * k + std::size_t(j);
      const double seed = slot[std::size_t(v)] < 0 ? 0.0 : seed_w[std::size_t(slot[std::size_t(v)]) * k + std::size_t(j)];
      const double want = j == 3 ? rank[e] : 0.85 * y[e] + step.teleport[j] * seed;  // by hand
      CAPTURE(v);
      CAPTURE(j);
      REQUIRE(std::fabs(hrank[e] - want) <= 1e-15 * want);
      REQUIRE(std::fabs(drank[e] - want) <= 1e-15 * want);
    }
}

TEST_CASE("personalized pagerank: picking columns of a block, device equals the reference and the hand") {
  const std::int64_t rows = 10007;
  const int k = 7;
  std::vector<double> in(std::size_t(rows) * k);
  for (std::size_t e = 0; e < in.size(); ++e) in[e] = double(e) + 0.5;
  detail::column_pick pick;
  pick.count = 3, pick.from[0] = 6, pick.from[1] = 0, pick.from[2] = 4;
  array<double, H> hi = to_space<H>(in), ho(std::size_t(rows) * 3);
  array<double, D> di = to_space<D>(in), dout(std::size_t(rows) * 3);
  detail::pagerank_kernels<H>::pick_columns(hi.data(), k, ho.data(), pick, rows);
  detail::pagerank_kernels<D>::pick_columns(di.data(), k, dout.data(), pick, rows);
  const std::vector<double> a = to_vector(ho), b = to_vector(dout);
  CHECK(a == b);
  for (std::int64_t r = 0; r < rows; r += 97) {
    CHECK(a[std::size_t(r * 3)] == in[std::size_t(r * k + 6)]);
    CHECK(a[std::size_t(r * 3 + 1)] == in[std::size_t(r * k)]);
    CHECK(a[std::size_t(r * 3 + 2)] == in[std::size_t(r * k + 4)]);
  }
}

TEST_CASE_TEMPLATE("personalized pagerank equals networkx on a hand-checked graph, in both twins", S, H, D) {
  // 1->2, 2->3, 3->1, 3->4, 5->1 as in-edges (row v: the sources of v) on vertices 0..4 = 1..5; 4 dangling.
  // networkx.pagerank(G, personalization={1: 1}) and {2: 1, 3: 1}, tol 1e-10, over vertices 1..5.
  const test::edges e = [] {
    test::edges t;
    for (auto [u, v] : std::vector<std::pair<int, int>>{{1, 2}, {2, 3}, {3, 1}, {3, 4}, {5, 1}}) t.add(v - 1, u - 1, 1);
    return t;
  }();
  auto A = dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(e.r, e.c, {}), 5, 5);
  pagerank_options o;
  o.tol = 1e-10;
  const std::vector<pagerank_result> r = personalized_pagerank(A, o, {{0}, {1, 2, 2}});
  REQUIRE(r.size() == 2);
  const std::vector<double> one = {0.34727497658636314, 0.29518373012713933, 0.25090617076565924, 0.10663512252083826, 0.0};
  const std::vector<double> two = {0.16435850541732872, 0.2845570942885782, 0.38672589487676434, 0.16435850541732872, 0.0};
  for (std::size_t v = 0; v < 5; ++v) {
    CAPTURE(v);
    CHECK(r[0].score[v] == doctest::Approx(one[v]).epsilon(1e-12));
    CHECK(r[1].score[v] == doctest::Approx(two[v]).epsilon(1e-12));
  }
  CHECK(r[0].converged);
  CHECK(r[0].iterations == 74);  // networkx's count at this tolerance (the same stopping rule)
  CHECK(r[1].iterations == 67);
  CHECK(r[0].kernel == "dcsr");
  CHECK_THROWS_AS(personalized_pagerank(A, o, {{0}, {}}), fg::invalid_argument);
  CHECK_THROWS_AS(personalized_pagerank(A, o, {{5}}), fg::invalid_argument);
  CHECK_THROWS_AS(personalized_pagerank(A, o, {}), fg::invalid_argument);
  pagerank_options forced = o;
  forced.kernel = "csr_merge";
  CHECK_THROWS_AS(personalized_pagerank(A, forced, {{0}}), fg::invalid_argument);
}

TEST_CASE_TEMPLATE("personalized pagerank: each of 40 sets read together equals its run alone; twins agree", V, double, pattern) {
  std::mt19937_64 g(8);
  const vertex_t n = 1500;
  dcsr_config cfg;
  cfg.dups = duplicates::collapse;
  const test::edges e = random_edges(g, 12000, n);
  auto ref = dcsr_matrix<V, H>::from_coo(make_coo<V, H>(e.r, e.c, test::values<V>(e)), n, n, cfg);
  auto dev = dcsr_matrix<V, D>::from_coo(make_coo<V, D>(e.r, e.c, test::values<V>(e)), n, n, cfg);
  std::vector<std::vector<vertex_t>> sets;
  std::uniform_int_distribution<vertex_t> R(0, n - 1);
  for (int s = 0; s < 40; ++s) {  // two reads' worth: 32 + 8
    sets.emplace_back();
    for (int i = 0; i <= s % 4; ++i) sets.back().push_back(R(g));
  }
  pagerank_options o;
  o.tol = 1e-12;
  const std::vector<pagerank_result> all = personalized_pagerank(dev, o, sets);
  const std::vector<pagerank_result> want = personalized_pagerank(ref, o, sets);
  REQUIRE(all.size() == sets.size());
  for (std::size_t s = 0; s < sets.size(); s += 7) {
    CAPTURE(s);
    const pagerank_result alone = personalized_pagerank(ref, o, {sets[s]}).front();
    CHECK(want[s].iterations == alone.iterations);
    double l1 = 0, sum = 0, twin = 0;
    for (vertex_t v = 0; v < n; ++v) {
      l1 += std::fabs(all[s].score[std::size_t(v)] - alone.score[std::size_t(v)]);
      twin += std::fabs(all[s].score[std::size_t(v)] - want[s].score[std::size_t(v)]);
      sum += alone.score[std::size_t(v)];
    }
    CHECK(l1 <= 1e-10);
    CHECK(twin <= 1e-10);
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-9));
    for (vertex_t seed : sets[s]) CHECK(alone.score[std::size_t(seed)] >= 0.15 / double(sets[s].size()) - 1e-12);
  }
}
