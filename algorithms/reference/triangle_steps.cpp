// Reference twin of the triangle and CDLP steps (algorithms/detail/app_kernels.hpp): std::sort,
// merges and counts, one row at a time.
#include <algorithm>
#include <utility>
#include <vector>

#include "algorithms/detail/app_kernels.hpp"

namespace fg::detail {
using K = app_kernels<host_space>;

simple_dag<host_space> K::dag(const vertex_t* row, const vertex_t* col, std::size_t nnz, vertex_t n) {
  // Distinct directed pairs, then the undirected edges with how many directions each had.
  std::vector<std::pair<vertex_t, vertex_t>> d;
  for (std::size_t i = 0; i < nnz; ++i)
    if (row[i] != col[i]) d.emplace_back(row[i], col[i]);
  std::sort(d.begin(), d.end());
  d.erase(std::unique(d.begin(), d.end()), d.end());
  for (auto& p : d)
    if (p.first > p.second) std::swap(p.first, p.second);
  std::sort(d.begin(), d.end());
  std::vector<std::pair<vertex_t, vertex_t>> e;
  std::vector<std::uint8_t> mult;
  for (const auto& p : d) {
    if (!e.empty() && e.back() == p) ++mult.back();
    else e.push_back(p), mult.push_back(1);
  }
  simple_dag<host_space> g;
  g.n = n;
  g.deg = array<vertex_t, host_space>(std::size_t(n));
  std::fill(g.deg.data(), g.deg.data() + n, 0);
  for (const auto& p : e) ++g.deg[std::size_t(p.first)], ++g.deg[std::size_t(p.second)];
  auto before = [&](vertex_t a, vertex_t b) { return g.deg[std::size_t(a)] < g.deg[std::size_t(b)] || (g.deg[std::size_t(a)] == g.deg[std::size_t(b)] && a < b); };
  std::vector<std::pair<std::pair<vertex_t, vertex_t>, std::uint8_t>> o;
  for (std::size_t i = 0; i < e.size(); ++i) {
    auto [a, b] = e[i];
    o.push_back({before(a, b) ? std::make_pair(a, b) : std::make_pair(b, a), mult[i]});
  }
  std::sort(o.begin(), o.end());
  g.offsets = array<offset_t, host_space>(std::size_t(n) + 1);
  g.row = array<vertex_t, host_space>(o.size());
  g.col = array<vertex_t, host_space>(o.size());
  g.mult = array<std::uint8_t, host_space>(o.size());
  std::fill(g.offsets.data(), g.offsets.data() + n + 1, 0);
  for (std::size_t i = 0; i < o.size(); ++i) {
    g.row[i] = o[i].first.first, g.col[i] = o[i].first.second, g.mult[i] = o[i].second;
    ++g.offsets[std::size_t(o[i].first.first) + 1];
  }
  for (vertex_t v = 0; v < n; ++v) g.offsets[std::size_t(v) + 1] += g.offsets[std::size_t(v)];
  return g;
}

std::int64_t K::triangles(const simple_dag<host_space>& g, std::int64_t* per_vertex, bool weighted) {
  std::int64_t total = 0;
  if (per_vertex) std::fill(per_vertex, per_vertex + g.n, 0);
  for (vertex_t u = 0; u < g.n; ++u)
    for (offset_t e = g.offsets[std::size_t(u)]; e < g.offsets[std::size_t(u) + 1]; ++e) {
      const vertex_t v = g.col[std::size_t(e)];
      // Merge u's and v's rows: each common w closes the triangle u -> v -> w, u -> w.
      offset_t i = g.offsets[std::size_t(u)], j = g.offsets[std::size_t(v)];
      const offset_t ie = g.offsets[std::size_t(u) + 1], je = g.offsets[std::size_t(v) + 1];
      while (i < ie && j < je) {
        const vertex_t a = g.col[std::size_t(i)], b = g.col[std::size_t(j)];
        if (a < b) ++i;
        else if (b < a) ++j;
        else {
          ++total;
          if (per_vertex) {
            per_vertex[u] += weighted ? g.mult[std::size_t(j)] : 1;  // opposite edge v-w
            per_vertex[v] += weighted ? g.mult[std::size_t(i)] : 1;  // u-w
            per_vertex[a] += weighted ? g.mult[std::size_t(e)] : 1;  // u-v
          }
          ++i, ++j;
        }
      }
    }
  return total;
}

both_ways<host_space> K::neighbours(const vertex_t* row, const vertex_t* col, std::size_t nnz, vertex_t n) {
  std::vector<std::pair<vertex_t, vertex_t>> d, p;
  for (std::size_t i = 0; i < nnz; ++i)
    if (row[i] != col[i]) d.emplace_back(row[i], col[i]);
  std::sort(d.begin(), d.end());
  d.erase(std::unique(d.begin(), d.end()), d.end());
  for (const auto& e : d) p.push_back(e), p.emplace_back(e.second, e.first);
  std::sort(p.begin(), p.end());
  both_ways<host_space> g;
  g.n = n;
  g.offsets = array<offset_t, host_space>(std::size_t(n) + 1);
  g.row = array<vertex_t, host_space>(p.size());
  g.col = array<vertex_t, host_space>(p.size());
  std::fill(g.offsets.data(), g.offsets.data() + n + 1, 0);
  for (std::size_t i = 0; i < p.size(); ++i) g.row[i] = p[i].first, g.col[i] = p[i].second, ++g.offsets[std::size_t(p[i].first) + 1];
  for (vertex_t v = 0; v < n; ++v) g.offsets[std::size_t(v) + 1] += g.offsets[std::size_t(v)];
  return g;
}

void K::cdlp_step(const both_ways<host_space>& g, const vertex_t* label, vertex_t* next) {
  std::vector<vertex_t> l;
  for (vertex_t v = 0; v < g.n; ++v) {
    l.assign(g.col.data() + g.offsets[std::size_t(v)], g.col.data() + g.offsets[std::size_t(v) + 1]);
    if (l.empty()) {
      next[v] = label[v];
      continue;
    }
    for (auto& x : l) x = label[x];
    std::sort(l.begin(), l.end());
    vertex_t best = l[0];
    std::size_t best_n = 0;
    for (std::size_t i = 0; i < l.size();) {
      std::size_t j = i;
      while (j < l.size() && l[j] == l[i]) ++j;
      if (j - i > best_n) best = l[i], best_n = j - i;  // ascending: the first of the most frequent
      i = j;
    }
    next[v] = best;
  }
}

}  // namespace fg::detail
