// Reference twin of the incremental triangle steps (algorithms/detail/app_kernels.hpp): sets and
// row scans, one key at a time.
#include <algorithm>
#include <set>
#include <vector>

#include "algorithms/detail/app_kernels.hpp"

namespace fg::detail {
using K = app_kernels<host_space>;

namespace {
std::uint64_t key_of(vertex_t a, vertex_t b) {
  return a < b ? (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b) : (std::uint64_t(std::uint32_t(b)) << 32) | std::uint32_t(a);
}
}  // namespace

array<std::uint64_t, host_space> K::canonical_keys(const vertex_t* u, const vertex_t* v, std::size_t m) {
  std::vector<std::uint64_t> k;
  for (std::size_t i = 0; i < m; ++i)
    if (u[i] != v[i]) k.push_back(key_of(u[i], v[i]));
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  return to_space<host_space>(k);
}

void K::contains(const dcsr_view<pattern>& g, const std::uint64_t* key, std::size_t k, std::uint8_t* found) {
  for (std::size_t i = 0; i < k; ++i) {
    const vertex_t a = vertex_t(key[i] >> 32), b = vertex_t(key[i] & 0xffffffffu);
    found[i] = a < g.rows && !for_each_entry(g, a, [&](offset_t j) { return g.col[j] != b; });
  }
}

array<std::uint64_t, host_space> K::select(const std::uint64_t* key, const std::uint8_t* flag, std::size_t k, bool want) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < k; ++i)
    if (bool(flag[i]) == want) out.push_back(key[i]);
  return to_space<host_space>(out);
}

coo_matrix<pattern, host_space> K::symmetric_pairs(const std::uint64_t* key, std::size_t k) {
  std::vector<vertex_t> r, c;
  for (std::size_t i = 0; i < k; ++i) {
    const vertex_t a = vertex_t(key[i] >> 32), b = vertex_t(key[i] & 0xffffffffu);
    r.push_back(a), c.push_back(b), r.push_back(b), c.push_back(a);
  }
  return make_coo<pattern, host_space>(r, c);
}

std::int64_t K::closing(const dcsr_view<pattern>& U, const std::uint64_t* key, std::size_t k, bool removal,
                        std::int64_t* per_vertex) {
  // Whether edge {x, w} of U counts for key i (see the declaration).
  auto kept = [&](vertex_t x, vertex_t w, std::size_t i) {
    const std::uint64_t e = key_of(x, w);
    const std::uint64_t* at = std::lower_bound(key, key + k, e);
    if (at == key + k || *at != e) return true;
    const std::size_t r = std::size_t(at - key);
    return removal ? r > i : r < i;
  };
  std::int64_t total = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const vertex_t a = vertex_t(key[i] >> 32), b = vertex_t(key[i] & 0xffffffffu);
    std::set<vertex_t> na;
    for_each_entry(U, a, [&](offset_t j) {
      if (U.col[j] != b && kept(a, U.col[j], i)) na.insert(U.col[j]);
      return true;
    });
    for_each_entry(U, b, [&](offset_t j) {
      const vertex_t w = U.col[j];
      if (w != a && na.count(w) && kept(b, w, i)) {
        ++total;
        if (per_vertex) {
          const std::int64_t d = removal ? -1 : 1;
          per_vertex[a] += d, per_vertex[b] += d, per_vertex[w] += d;
        }
      }
      return true;
    });
  }
  return total;
}

}  // namespace fg::detail
