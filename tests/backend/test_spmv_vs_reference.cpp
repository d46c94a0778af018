// SpMV on the device (DCSR fragmented and defragmented, and CSR) and on the reference DCSR, against
// the reference CSR SpMV, for every semiring it is built for (tests/format_support.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "core/semiring.hpp"
#include "storage/dcsr.hpp"
#include "tests/format_support.hpp"
#include "tests/support.hpp"

using namespace fg;
using H = host_space;
using D = device_space;

namespace {
template <class V>
struct built {
  dcsr_matrix<V, H> ref;
  dcsr_matrix<V, D> dev;
};

// Fragmented stores: several batches into power-law rows, so rows span several segments.
template <class V>
built<V> make(std::uint64_t seed, vertex_t n, std::size_t per_batch, int batches) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  built<V> b{dcsr_matrix<V, H>(), dcsr_matrix<V, D>()};
  for (int k = 0; k < batches; ++k) {
    std::vector<vertex_t> r, c;
    std::vector<stored_t<V>> v;
    for (std::size_t i = 0; i < per_batch; ++i) {
      r.push_back(vertex_t(n * std::pow(u(g), 3.0)) % n);
      c.push_back(vertex_t(u(g) * n) % n);
      if constexpr (!is_pattern_v<V>) v.push_back(stored_t<V>(u(g) * 2 - 1));
    }
    b.ref.insert_batch(make_coo<V, H>(r, c, v));
    b.dev.insert_batch(make_coo<V, D>(r, c, v));
  }
  return b;
}

template <class Sr, class V>
void compare(const built<V>& b, std::uint64_t seed) {
  using T = typename Sr::value_type;
  const auto xs = test::random_x<Sr>(std::size_t(b.ref.cols()), seed);
  auto xd = to_space<D>(xs);
  array<T, D> yd(std::size_t(b.dev.rows()));
  const auto ref_csr = b.ref.to_csr();
  spmv<Sr>(b.dev, xd, yd);
  test::require_spmv_equal<Sr>(ref_csr, xs, to_vector(yd), "dcsr");
  spmv<Sr>(b.dev.to_csr(), xd, yd);
  test::require_spmv_equal<Sr>(ref_csr, xs, to_vector(yd), "csr");
  array<T, H> yh(std::size_t(b.ref.rows()));
  spmv<Sr>(b.ref, to_space<H>(xs), yh);
  test::require_spmv_equal<Sr>(ref_csr, xs, to_vector(yh), "reference dcsr");
}
}  // namespace

TEST_CASE("device SpMV equals the reference for every semiring, fragmented and packed") {
  for (auto [n, per, batches] : {std::tuple<vertex_t, std::size_t, int>{1, 1, 1}, {31, 40, 3}, {33, 300, 4},
                                 {257, 2000, 5}, {1025, 20000, 6}, {100000, 400000, 4}}) {
    CAPTURE(n);
    auto f = make<float>(n, n, per, batches);
    auto d = make<double>(n + 1, n, per, batches);
    auto p = make<pattern>(n + 2, n, per, batches);
    for (int pass = 0; pass < 2; ++pass) {
      CAPTURE(pass);
      compare<plus_times<float>>(f, 1);
      compare<min_plus<float>>(f, 2);
      compare<plus_times<double>>(d, 3);
      compare<min_plus<double>>(d, 4);
      compare<plus_times<double>>(p, 5);
      compare<plus_times<float>>(p, 6);
      compare<or_and>(p, 7);
      compare<min_plus<double>>(p, 8);
      f.ref.defragment(), f.dev.defragment(), d.ref.defragment(), d.dev.defragment();
      p.ref.defragment(), p.dev.defragment();
    }
  }
}
