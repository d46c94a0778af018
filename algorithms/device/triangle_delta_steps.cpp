// Device twin of the incremental triangle steps (algorithms/detail/app_kernels.hpp). The rows a
// batch touches are read once each (a thread per 16 entries on the GPU): membership by a binary
// search of each entry among the batch's sorted keys, triangles by sorting the (edge, neighbour)
// keys both endpoints' rows emit and counting the pairs.
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include "algorithms/detail/app_kernels.hpp"
#include "algorithms/device/balanced_edges.hpp"
#include "core/atomics.hpp"

namespace fg::detail {
using K = app_kernels<device_space>;

namespace {
constexpr std::uint64_t none = ~std::uint64_t(0);
FG_HD inline std::uint64_t key_of(vertex_t a, vertex_t b) {
  return a < b ? (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b) : (std::uint64_t(std::uint32_t(b)) << 32) | std::uint32_t(a);
}
/// The index of e among the sorted key[0, k), or -1.
FG_HD inline std::int64_t rank_of(const std::uint64_t* key, std::size_t k, std::uint64_t e) {
  std::size_t lo = 0, hi = k;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (key[mid] < e) lo = mid + 1;
    else hi = mid;
  }
  return lo < k && key[lo] == e ? std::int64_t(lo) : -1;
}
array<std::uint64_t, device_space> prefix(const array<std::uint64_t, device_space>& a, std::size_t n) {
  array<std::uint64_t, device_space> out(n);
  memory::copy_on_device(out.data(), a.data(), n * sizeof(std::uint64_t));
  return out;
}
}  // namespace

array<std::uint64_t, device_space> K::canonical_keys(const vertex_t* u, const vertex_t* v, std::size_t m) {
  array<std::uint64_t, device_space> k(m);
  std::uint64_t* kp = k.data();
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) { kp[i] = u[i] == v[i] ? none : key_of(u[i], v[i]); });
  claim_sort_scratch(k.bytes());
  thrust::sort(policy(), kp, kp + m);
  std::size_t n = std::size_t(thrust::unique(policy(), kp, kp + m) - kp);
  n = std::size_t(thrust::lower_bound(policy(), kp, kp + n, none) - kp);
  return prefix(k, n);
}

void K::contains(const dcsr_view<pattern>& g, const std::uint64_t* key, std::size_t k, std::uint8_t* found) {
  memory::zero_on_device(found, k);
  if (k == 0) return;
  // the distinct rows the keys name (sorted keys: sorted rows), inside the store
  array<vertex_t, device_space> rows(k);
  vertex_t* rp = rows.data();
  const vertex_t nrows = g.rows;
  parallel_for(std::int64_t(k), FG_LAMBDA(std::int64_t i) {
    const vertex_t r = vertex_t(key[i] >> 32);
    rp[i] = r < nrows ? r : nrows;  // past the store: one sentinel, dropped below
  });
  std::size_t nr = std::size_t(thrust::unique(policy(), rp, rp + k) - rp);
  nr = std::size_t(thrust::lower_bound(policy(), rp, rp + nr, nrows) - rp);
  const vertex_t* col = g.col;
  for_each_edge(g, rp, vertex_t(nr), FG_LAMBDA(vertex_t, vertex_t u, offset_t j) {
    const std::uint64_t e = (std::uint64_t(std::uint32_t(u)) << 32) | std::uint32_t(col[j]);
    std::size_t lo = 0, hi = k;
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (key[mid] < e) lo = mid + 1;
      else hi = mid;
    }
    if (lo < k && key[lo] == e) found[lo] = 1;
  });
}

array<std::uint64_t, device_space> K::select(const std::uint64_t* key, const std::uint8_t* flag, std::size_t k, bool want) {
  array<std::uint64_t, device_space> out(k);
  const std::uint8_t w = want;
  const auto end = thrust::copy_if(policy(), key, key + k, flag, out.data(), FG_LAMBDA(std::uint8_t f) { return f == w; });
  return prefix(out, std::size_t(end - out.data()));
}

coo_matrix<pattern, device_space> K::symmetric_pairs(const std::uint64_t* key, std::size_t k) {
  coo_matrix<pattern, device_space> c;
  c.nnz = 2 * k;
  c.row = array<vertex_t, device_space>(2 * k);
  c.col = array<vertex_t, device_space>(2 * k);
  vertex_t *r = c.row.data(), *cl = c.col.data();
  parallel_for(std::int64_t(k), FG_LAMBDA(std::int64_t i) {
    const vertex_t a = vertex_t(key[i] >> 32), b = vertex_t(key[i] & 0xffffffffu);
    r[2 * i] = a, cl[2 * i] = b, r[2 * i + 1] = b, cl[2 * i + 1] = a;
  });
  return c;
}

std::int64_t K::closing(const dcsr_view<pattern>& U, const std::uint64_t* key, std::size_t k, bool removal,
                        std::int64_t* per_vertex) {
  if (k == 0) return 0;
  // rows[2i] = a_i, rows[2i + 1] = b_i; their entries' volume bounds what they emit
  array<vertex_t, device_space> rows(2 * k);
  vertex_t* rp = rows.data();
  parallel_for(std::int64_t(k), FG_LAMBDA(std::int64_t i) {
    rp[2 * i] = vertex_t(key[i] >> 32), rp[2 * i + 1] = vertex_t(key[i] & 0xffffffffu);
  });
  const vertex_t* sizes = U.sizes;
  const offset_t volume = thrust::transform_reduce(
      policy(), rp, rp + 2 * k, FG_LAMBDA(vertex_t r) { return offset_t(sizes[r]); }, offset_t(0), thrust::plus<offset_t>());
  array<std::uint64_t, device_space> emitted(std::size_t(volume) + 1);
  array<offset_t, device_space> count(1);
  zero(count);
  std::uint64_t* ep = emitted.data();
  offset_t* cnt = count.data();
  const vertex_t* col = U.col;
  // entry (x, w) of a_i's or b_i's row emits (i, w) when w is not the other end and {x, w} counts for i
  for_each_edge(U, rp, vertex_t(2 * k), FG_LAMBDA(vertex_t idx, vertex_t x, offset_t j) {
    const std::size_t i = std::size_t(idx) / 2;
    const vertex_t w = col[j], other = rp[idx ^ 1];
    if (w == other) return;
    const std::int64_t r = rank_of(key, k, key_of(x, w));
    if (r >= 0 && (removal ? r <= std::int64_t(i) : r >= std::int64_t(i))) return;
    ep[atomic::fetch_add_shared(cnt, offset_t(1))] = (std::uint64_t(i) << 32) | std::uint32_t(w);
  });
  const std::size_t m = std::size_t(to_vector(count)[0]);
  if (m < 2) return 0;
  const std::int64_t d = removal ? -1 : 1;
  claim_sort_scratch(m * 8);
  thrust::sort(policy(), ep, ep + m);
  // a key emitted twice (once from each end's row) closes a triangle
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::size_t>(1), thrust::counting_iterator<std::size_t>(m),
      FG_LAMBDA(std::size_t p) {
        if (ep[p] != ep[p - 1]) return std::int64_t(0);
        if (per_vertex) {
          const std::size_t i = std::size_t(ep[p] >> 32);
          atomic::fetch_add(per_vertex + rp[2 * i], d);
          atomic::fetch_add(per_vertex + rp[2 * i + 1], d);
          atomic::fetch_add(per_vertex + vertex_t(ep[p] & 0xffffffffu), d);
        }
        return std::int64_t(1);
      },
      std::int64_t(0), thrust::plus<std::int64_t>());
}

}  // namespace fg::detail
