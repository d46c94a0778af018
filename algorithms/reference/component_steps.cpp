// Reference twin of the WCC steps (algorithms/detail/app_kernels.hpp): sequential union-find with
// the device twin's rule (the larger root hooks under the smaller), so the labels are the same.
#include <numeric>

#include "algorithms/detail/app_kernels.hpp"

namespace fg::detail {
using K = app_kernels<host_space>;

namespace {
vertex_t find(vertex_t* parent, vertex_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}
bool unite(vertex_t* parent, vertex_t a, vertex_t b) {
  a = find(parent, a), b = find(parent, b);
  if (a == b) return false;
  if (a < b) parent[b] = a;
  else parent[a] = b;
  return true;
}
}  // namespace

void K::wcc_init(vertex_t* parent, vertex_t first, vertex_t n) { std::iota(parent + first, parent + n, first); }

std::int64_t K::wcc_hook(const dcsr_view<pattern>& g, vertex_t* parent) {
  std::int64_t hooks = 0;
  for (vertex_t r = 0; r < g.rows; ++r)
    for_each_entry(g, r, [&](offset_t j) {
      hooks += unite(parent, r, g.col[j]);
      return true;
    });
  return hooks;
}

std::int64_t K::wcc_hook_pairs(const vertex_t* u, const vertex_t* v, std::size_t m, vertex_t* parent) {
  std::int64_t hooks = 0;
  for (std::size_t i = 0; i < m; ++i) hooks += unite(parent, u[i], v[i]);
  return hooks;
}

void K::wcc_flatten(vertex_t* parent, vertex_t n) {
  for (vertex_t v = 0; v < n; ++v) parent[v] = find(parent, v);
}

}  // namespace fg::detail
