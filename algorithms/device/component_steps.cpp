// Device twin of the WCC steps (algorithms/detail/app_kernels.hpp): concurrent union-find in the
// style of ECL-CC (Jaiganesh & Burtscher, HPDC'18). A root hooks only under a smaller root (by CAS),
// so parent[v] <= v always and a tree's root is its least vertex: the labels are the reference
// twin's, whatever order the threads hook in. find() halves paths as it walks; those writes only
// move a vertex's parent to one of its ancestors, so racing with them is harmless.
#include <thrust/transform_reduce.h>

#include "algorithms/detail/app_kernels.hpp"
#include "algorithms/device/balanced_edges.hpp"
#include "core/atomics.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = app_kernels<device_space>;

namespace {
FG_HD inline vertex_t find(vertex_t* parent, vertex_t x) {
  vertex_t p = atomic::load(parent + x);
  while (p != x) {
    const vertex_t gp = atomic::load(parent + p);
    if (gp != p) atomic::store(parent + x, gp);
    x = p;
    p = gp;
  }
  return x;
}
FG_HD inline int unite(vertex_t* parent, vertex_t a, vertex_t b) {
  for (;;) {
    a = find(parent, a), b = find(parent, b);
    if (a == b) return 0;
    if (a < b) {
      const vertex_t t = a;
      a = b, b = t;
    }
    if (atomic::cas(parent + a, a, b) == a) return 1;  // a was still a root: hooked
  }
}
}  // namespace

void K::wcc_init(vertex_t* parent, vertex_t first, vertex_t n) {
  parallel_for(n - first, FG_LAMBDA(std::int64_t i) { parent[first + i] = vertex_t(first + i); });
}

std::int64_t K::wcc_hook(const dcsr_view<pattern>& g, vertex_t* parent) {
  array<std::int64_t, device_space> hooks(1);
  zero(hooks);
  std::int64_t* h = hooks.data();
  const vertex_t* col = g.col;
  for_each_edge(g, nullptr, g.rows, FG_LAMBDA(vertex_t, vertex_t u, offset_t j) {
    if (unite(parent, u, col[j])) atomic::fetch_add_shared(h, std::int64_t(1));
  });
  return to_vector(hooks)[0];
}

std::int64_t K::wcc_hook_pairs(const vertex_t* u, const vertex_t* v, std::size_t m, vertex_t* parent) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(m),
      FG_LAMBDA(std::size_t i) { return std::int64_t(unite(parent, u[i], v[i])); }, std::int64_t(0),
      thrust::plus<std::int64_t>());
}

void K::wcc_flatten(vertex_t* parent, vertex_t n) {
  // Read-only walks: a halving write by one thread could land after another thread set that
  // vertex to its root, leaving it one step short (seen on TG.cedge on the GPU). Each thread writes
  // only its own vertex, with a root, so every walk still ends at the root.
  parallel_for(n, FG_LAMBDA(std::int64_t v) {
    vertex_t x = atomic::load(parent + v);
    for (vertex_t p; (p = atomic::load(parent + x)) != x;) x = p;
    atomic::store(parent + v, x);
  });
}

}  // namespace fg::detail
