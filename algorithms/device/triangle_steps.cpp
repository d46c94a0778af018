// Device twin of the triangle and CDLP steps (algorithms/detail/app_kernels.hpp): sorts of 64-bit
// (row, col) keys build the degree-ordered DAG and the neighbour multisets; a thread per DAG edge
// merges its two sorted rows (each triangle found once, from its lowest edge); CDLP counts labels
// by a sort of (vertex, label) keys and keeps each vertex's most frequent, least label (one max
// over (count, ~label) packed in 64 bits).
#include <thrust/binary_search.h>
#include <thrust/functional.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include "algorithms/detail/app_kernels.hpp"
#include "core/atomics.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = app_kernels<device_space>;

namespace {
constexpr std::uint64_t none = ~std::uint64_t(0);
FG_HD inline std::uint64_t key(vertex_t a, vertex_t b) { return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b); }
FG_HD inline vertex_t hi(std::uint64_t k) { return vertex_t(k >> 32); }
FG_HD inline vertex_t lo(std::uint64_t k) { return vertex_t(k & 0xffffffffu); }

/// offsets[v] = the first position of row v among keys sorted by row (n + 1 entries).
void row_offsets(const std::uint64_t* keys, std::size_t m, vertex_t n, offset_t* offsets) {
  parallel_for(std::int64_t(n) + 1, FG_LAMBDA(std::int64_t v) {
    std::size_t lo_ = 0, hi_ = m;  // first key with row >= v
    while (lo_ < hi_) {
      const std::size_t mid = (lo_ + hi_) / 2;
      if (std::int64_t(keys[mid] >> 32) < v) lo_ = mid + 1;
      else hi_ = mid;
    }
    offsets[v] = offset_t(lo_);
  });
}

/// The keys (row, col) of the pairs, sorted; self-loops become `none` (last).
array<std::uint64_t, device_space> sorted_pairs(const vertex_t* row, const vertex_t* col, std::size_t nnz) {
  array<std::uint64_t, device_space> k(nnz);
  std::uint64_t* kp = k.data();
  parallel_for(std::int64_t(nnz), FG_LAMBDA(std::int64_t i) { kp[i] = row[i] == col[i] ? none : key(row[i], col[i]); });
  claim_sort_scratch(k.bytes());
  thrust::sort(policy(), kp, kp + k.size());
  return k;
}
}  // namespace

simple_dag<device_space> K::dag(const vertex_t* row, const vertex_t* col, std::size_t nnz, vertex_t n) {
  auto k = sorted_pairs(row, col, nnz);
  std::uint64_t* kp = k.data();
  std::size_t m = std::size_t(thrust::unique(policy(), kp, kp + k.size()) - kp);
  m = std::size_t(thrust::lower_bound(policy(), kp, kp + m, none) - kp);
  // Undirected: (min, max), then count how many directions each edge had.
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) {
    const vertex_t a = hi(kp[i]), b = lo(kp[i]);
    kp[i] = a < b ? key(a, b) : key(b, a);
  });
  claim_sort_scratch(m * 8);
  thrust::sort(policy(), kp, kp + m);
  array<std::uint64_t, device_space> e(m);
  array<std::uint8_t, device_space> mult(m);
  const auto ends = thrust::reduce_by_key(policy(), kp, kp + m, thrust::constant_iterator<std::uint8_t>(1), e.data(),
                                          mult.data());
  const std::size_t me = std::size_t(ends.first - e.data());
  simple_dag<device_space> g;
  g.n = n;
  g.deg = array<vertex_t, device_space>(std::size_t(n));
  vertex_t* deg = g.deg.data();
  memory::zero_on_device(deg, g.deg.bytes());
  std::uint64_t* ep = e.data();
  parallel_for(std::int64_t(me), FG_LAMBDA(std::int64_t i) {
    atomic::fetch_add(deg + hi(ep[i]), vertex_t(1));
    atomic::fetch_add(deg + lo(ep[i]), vertex_t(1));
  });
  // Orient low -> high in (degree, id) order and sort the DAG's rows.
  parallel_for(std::int64_t(me), FG_LAMBDA(std::int64_t i) {
    const vertex_t a = hi(ep[i]), b = lo(ep[i]);
    const bool ab = deg[a] < deg[b] || (deg[a] == deg[b] && a < b);
    ep[i] = ab ? key(a, b) : key(b, a);
  });
  std::uint8_t* mp = mult.data();
  claim_sort_scratch(me * 9);
  thrust::sort_by_key(policy(), ep, ep + me, mp);
  g.offsets = array<offset_t, device_space>(std::size_t(n) + 1);
  row_offsets(ep, me, n, g.offsets.data());
  g.row = array<vertex_t, device_space>(me);
  g.col = array<vertex_t, device_space>(me);
  g.mult = array<std::uint8_t, device_space>(me);
  vertex_t *gr = g.row.data(), *gc = g.col.data();
  std::uint8_t* gm = g.mult.data();
  parallel_for(std::int64_t(me), FG_LAMBDA(std::int64_t i) {
    gr[i] = hi(ep[i]), gc[i] = lo(ep[i]), gm[i] = mp[i];
  });
  return g;
}

std::int64_t K::triangles(const simple_dag<device_space>& g, std::int64_t* per_vertex, bool weighted) {
  if (per_vertex) memory::zero_on_device(per_vertex, sizeof(std::int64_t) * std::size_t(g.n));
  const offset_t* off = g.offsets.data();
  const vertex_t *row = g.row.data(), *col = g.col.data();
  const std::uint8_t* mult = g.mult.data();
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<offset_t>(0), thrust::counting_iterator<offset_t>(g.edges()),
      FG_LAMBDA(offset_t e) {
        const vertex_t u = row[e], v = col[e];
        offset_t i = off[u], j = off[v];
        const offset_t ie = off[u + 1], je = off[v + 1];
        std::int64_t found = 0;
        while (i < ie && j < je) {
          const vertex_t a = col[i], b = col[j];
          if (a < b) {
            ++i;
          } else if (b < a) {
            ++j;
          } else {
            ++found;
            if (per_vertex) {
              atomic::fetch_add(per_vertex + u, std::int64_t(weighted ? mult[j] : 1));
              atomic::fetch_add(per_vertex + v, std::int64_t(weighted ? mult[i] : 1));
              atomic::fetch_add(per_vertex + a, std::int64_t(weighted ? mult[e] : 1));
            }
            ++i, ++j;
          }
        }
        return found;
      },
      std::int64_t(0), thrust::plus<std::int64_t>());
}

both_ways<device_space> K::neighbours(const vertex_t* row, const vertex_t* col, std::size_t nnz, vertex_t n) {
  // The distinct directed edges (a store that accumulates may repeat one), then each both ways.
  auto d = sorted_pairs(row, col, nnz);
  const std::uint64_t* dp = d.data();
  std::size_t m = std::size_t(thrust::unique(policy(), d.data(), d.data() + d.size()) - d.data());
  m = std::size_t(thrust::lower_bound(policy(), d.data(), d.data() + m, none) - d.data());
  array<std::uint64_t, device_space> k(2 * m);
  std::uint64_t* kp = k.data();
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) { kp[i] = dp[i], kp[m + i] = key(lo(dp[i]), hi(dp[i])); });
  claim_sort_scratch(k.bytes());
  thrust::sort(policy(), kp, kp + k.size());
  both_ways<device_space> g;
  g.n = n;
  g.offsets = array<offset_t, device_space>(std::size_t(n) + 1);
  row_offsets(kp, k.size(), n, g.offsets.data());
  g.row = array<vertex_t, device_space>(k.size());
  g.col = array<vertex_t, device_space>(k.size());
  vertex_t *gr = g.row.data(), *gc = g.col.data();
  parallel_for(std::int64_t(k.size()), FG_LAMBDA(std::int64_t i) { gr[i] = hi(kp[i]), gc[i] = lo(kp[i]); });
  return g;
}

void K::cdlp_step(const both_ways<device_space>& g, const vertex_t* label, vertex_t* next) {
  const std::size_t m = g.col.size();
  memory::copy_on_device(next, label, sizeof(vertex_t) * std::size_t(g.n));  // vertices with no neighbours
  if (m == 0) return;
  array<std::uint64_t, device_space> k(m), runs(m);
  array<std::int32_t, device_space> count(m);
  std::uint64_t *kp = k.data(), *rp = runs.data();
  std::int32_t* cp = count.data();
  const vertex_t *row = g.row.data(), *col = g.col.data();
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) { kp[i] = key(row[i], label[col[i]]); });
  claim_sort_scratch(k.bytes());
  thrust::sort(policy(), kp, kp + m);
  const auto ends = thrust::reduce_by_key(policy(), kp, kp + m, thrust::constant_iterator<std::int32_t>(1), rp, cp);
  const std::size_t r = std::size_t(ends.first - rp);
  // Each (vertex, label) run as count << 32 | ~label: the largest is the most frequent, least
  // label. Packed into k (free after the reduction); the run's vertex into count, in place.
  parallel_for(std::int64_t(r), FG_LAMBDA(std::int64_t i) {
    kp[i] = (std::uint64_t(std::uint32_t(cp[i])) << 32) | std::uint32_t(~std::uint32_t(lo(rp[i])));
    cp[i] = hi(rp[i]);
  });
  array<vertex_t, device_space> who(r);
  const auto e2 = thrust::reduce_by_key(policy(), cp, cp + r, kp, who.data(), rp, thrust::equal_to<std::int32_t>(),
                                        thrust::maximum<std::uint64_t>());
  const std::int64_t nv = e2.first - who.data();
  const vertex_t* wp = who.data();
  parallel_for(nv, FG_LAMBDA(std::int64_t i) { next[wp[i]] = vertex_t(~std::uint32_t(rp[i] & 0xffffffffu)); });
}

}  // namespace fg::detail
