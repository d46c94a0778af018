// Incremental closure and reachability (extend_closure / extend_reachable in algorithms/closure.hpp),
// both twins: after every insert batch the extended R⁺ must equal, pair for pair, Boost.Graph's
// transitive_closure of all edges so far and a from-scratch transitive_closure of the store. The
// batches hold repeats, self-loops, edges the closure already implies, edges that close cycles and
// ids past the store (the store grows); a real graph streamed in batches ends at the published count.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/closure.hpp"
#include "core/error.hpp"
#include "loaders/graph_file.hpp"
#include "storage/dcsr.hpp"
#include "closure_support.hpp"

namespace {
using namespace fg;
using namespace fg::test;
using edges = pair_list;

template <class S>
coo_matrix<pattern, S> batch_of(const edges& e) {
  std::vector<vertex_t> r, c;
  for (const auto& [u, v] : e) r.push_back(u), c.push_back(v);
  return make_coo<pattern, S>(r, c);
}

// Streams `batches` into a store on twin S, extending R⁺ after each; every step checked against
// Boost and a from-scratch closure. Returns the rounds the extensions took in all.
template <class S>
int stream_and_check(const std::string& what, const std::vector<edges>& batches, const closure_options& opt = {}) {
  CAPTURE(what);
  dcsr_matrix<pattern, S> R;
  dcsr_matrix<pattern, S> plus = transitive_closure(R);
  edges so_far;
  int rounds = 0;
  for (std::size_t b = 0; b < batches.size(); ++b) {
    CAPTURE(b);
    R.insert_batch(batch_of<S>(batches[b]));
    so_far.insert(so_far.end(), batches[b].begin(), batches[b].end());
    closure_stats st;
    extend_closure(plus, R, batch_of<S>(batches[b]), opt, &st);
    const pair_set got = pairs_of(plus);
    CHECK(got == boost_closure(R.rows(), so_far));
    CHECK(got == pairs_of(transitive_closure(R, opt)));
    CHECK(st.pairs == offset_t(got.size()));
    CHECK(plus.rows() == R.rows());
    rounds += st.iterations;
  }
  return rounds;
}

template <class S>
void reach_and_check(const std::string& what, const std::vector<vertex_t>& sources, const std::vector<edges>& batches) {
  CAPTURE(what);
  vertex_t n = 0;
  for (vertex_t s : sources) n = std::max(n, s + 1);
  dcsr_matrix<pattern, S> R = dcsr_matrix<pattern, S>::from_coo(coo_matrix<pattern, S>{}, n, n);
  dcsr_matrix<pattern, S> plus = reachable(R, sources);
  for (std::size_t b = 0; b < batches.size(); ++b) {
    CAPTURE(b);
    R.insert_batch(batch_of<S>(batches[b]));
    extend_reachable(plus, R, sources, batch_of<S>(batches[b]));
    CHECK(pairs_of(plus) == pairs_of(reachable(R, sources)));
  }
}

std::vector<edges> random_batches(std::mt19937& g, vertex_t n, std::size_t count, std::size_t size) {
  std::vector<edges> out(count);
  for (std::size_t b = 0; b < count; ++b) {
    // Ids drawn from a range that widens batch by batch, so later batches grow the store.
    const auto span = std::uint32_t(std::max<vertex_t>(1, vertex_t(n * (b + 1) / count)));
    for (std::size_t i = 0; i < size; ++i) out[b].emplace_back(vertex_t(g() % span), vertex_t(g() % span));
    if (size > 0 && g() % 3 == 0) out[b].push_back(out[b].front());  // a repeat within the batch
  }
  return out;
}
}  // namespace

TEST_CASE("incremental closure equals Boost and a from-scratch closure after every batch (hand-made streams)") {
  const std::vector<edges> chain_backwards = {{{3, 4}}, {{2, 3}}, {{1, 2}}, {{0, 1}}};  // each edge prepends
  const std::vector<edges> chain_forwards = {{{0, 1}}, {{1, 2}}, {{2, 3}}, {{3, 4}}};   // each edge appends
  const std::vector<edges> close_cycle = {{{0, 1}, {1, 2}, {2, 3}}, {{3, 0}}, {{4, 0}}, {{3, 5}}};
  const std::vector<edges> implied = {{{0, 1}, {1, 2}}, {{0, 2}, {0, 1}, {0, 2}}, {}};  // nothing new
  const std::vector<edges> bridge = {{{0, 1}, {1, 2}, {5, 6}, {6, 7}}, {{2, 5}}, {{7, 7}}, {{9, 0}}};
  for (int twin = 0; twin < 2; ++twin) {
    const auto run = [&](const std::string& what, const std::vector<edges>& b) {
      return twin == 0 ? stream_and_check<host_space>(what, b) : stream_and_check<device_space>(what, b);
    };
    run("chain, edges prepended", chain_backwards);
    run("chain, edges appended", chain_forwards);
    run("a batch closes a cycle", close_cycle);
    // Two rounds for the first batch (one finds (0, 2), one finds nothing), none for the others.
  CHECK(run("edges already implied, an empty batch", implied) == 2);
    run("a batch bridges two chains; a self-loop; a new vertex", bridge);
  }
}

TEST_CASE("incremental closure on random streams (both twins), with repeats and a growing store") {
  std::mt19937 g(7);
  for (vertex_t n : {5, 40, 150})
    for (std::size_t size : {1, 6, 40}) {
      const auto batches = random_batches(g, n, 12, size);
      const std::string what = "n=" + std::to_string(n) + " batch=" + std::to_string(size);
      stream_and_check<host_space>(what, batches);
      stream_and_check<device_space>(what, batches);
    }
}

TEST_CASE("incremental reachability equals reachable() from scratch after every batch") {
  std::mt19937 g(11);
  const std::vector<vertex_t> sources = {0, 3, 3, 17, 59};
  const auto batches = random_batches(g, 60, 10, 15);
  reach_and_check<host_space>("random", sources, batches);
  reach_and_check<device_space>("random", sources, batches);
  dcsr_matrix<pattern, host_space> R;
  R.insert_batch(batch_of<host_space>({{0, 1}}));
  auto plus = reachable(R, {0});
  CHECK_THROWS_AS(extend_reachable(plus, R, {0, 1}, batch_of<host_space>({{1, 0}})), invalid_argument);
  auto whole = transitive_closure(R);
  dcsr_matrix<pattern, host_space> small;  // R⁺ larger than R: not the closure of R's past
  CHECK_THROWS_AS(extend_closure(whole, small, batch_of<host_space>({})), invalid_argument);
}

TEST_CASE("a real graph streamed in 10 batches ends at the published closure size") {
  const edge_file f = read_graph(data("closure/TG.cedge.data_23874.txt.gz"));
  const auto n = vertex_t(f.num_vertices);
  dcsr_matrix<pattern, device_space> R = dcsr_matrix<pattern, device_space>::from_coo({}, n, n);
  dcsr_matrix<pattern, device_space> plus = transitive_closure(R);
  const std::size_t step = (f.src.size() + 9) / 10;
  for (std::size_t first = 0; first < f.src.size(); first += step) {
    const std::size_t last = std::min(f.src.size(), first + step);
    const std::vector<vertex_t> s(f.src.begin() + std::ptrdiff_t(first), f.src.begin() + std::ptrdiff_t(last));
    const std::vector<vertex_t> d(f.dst.begin() + std::ptrdiff_t(first), f.dst.begin() + std::ptrdiff_t(last));
    const auto batch = make_coo<pattern, device_space>(s, d);
    R.insert_batch(batch);
    extend_closure(plus, R, batch);
  }
  CHECK(plus.nnz() == 481121);  // tests/data/closure/expected.tsv
  CHECK(pairs_of(plus) == pairs_of(transitive_closure(R)));
}

TEST_CASE("the membership bitmap of the set differences (forced on) changes no pair, from scratch or incremental") {
  // By default it is used only from 32768 rows; forced here on small graphs so both builds run it.
  closure_options on;
  on.bitmap = 1;
  std::mt19937 g(3);
  for (vertex_t n : {1, 33, 200})
    for (double degree : {1.0, 3.0}) {
      edges e;
      for (std::size_t i = 0; i < std::size_t(degree * n); ++i) e.emplace_back(vertex_t(g() % n), vertex_t(g() % n));
      std::vector<vertex_t> r, c;
      for (const auto& [u, v] : e) r.push_back(u), c.push_back(v);
      const auto R = dcsr_matrix<pattern, device_space>::from_coo(make_coo<pattern, device_space>(r, c), n, n);
      closure_stats st;
      CHECK(pairs_of(transitive_closure(R, on, &st)) == boost_closure(n, e));
      const std::vector<vertex_t> sources = {0, vertex_t(n / 2), 0};
      CHECK(pairs_of(reachable(R, sources, on)) == pairs_of(reachable(R, sources)));
    }
  const std::string what = "bitmap on, n=150 batch=20";
  stream_and_check<device_space>(what, random_batches(g, 150, 10, 20), on);
  const edge_file f = read_graph(data("closure/TG.cedge.data_23874.txt.gz"));
  const auto n = vertex_t(f.num_vertices);
  const auto R = dcsr_matrix<pattern, device_space>::from_coo(make_coo<pattern, device_space>(f.src, f.dst), n, n);
  closure_stats st;
  const auto plus = transitive_closure(R, on, &st);
  CHECK(st.pairs == 481121);
  CHECK(st.iterations == 58);
  CHECK(pairs_of(plus) == pairs_of(transitive_closure(R)));
}
