// Reference twin of the BFS and SSSP steps (algorithms/detail/app_kernels.hpp): sequential loops.
#include <algorithm>
#include <limits>

#include "algorithms/detail/app_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = app_kernels<host_space>;

void K::bfs_init(std::int32_t* level, vertex_t n, vertex_t source) {
  std::fill(level, level + n, -1);
  if (source >= 0) level[source] = 0;
}

std::int64_t K::count_reached(const std::int32_t* level, const double* dist, vertex_t n) {
  std::int64_t c = 0;
  for (vertex_t v = 0; v < n; ++v) c += level ? level[v] >= 0 : dist[v] < std::numeric_limits<double>::infinity();
  return c;
}

void K::sssp_init(double* dist, vertex_t n, vertex_t source) {
  std::fill(dist, dist + n, std::numeric_limits<double>::infinity());
  if (source >= 0) dist[source] = 0;
}

vertex_t K::bfs_push(const dcsr_view<pattern>& out, const vertex_t* frontier, vertex_t nf, std::int32_t* level,
                     std::int32_t depth, vertex_t* next, offset_t* next_edges) {
  vertex_t m = 0;
  for (vertex_t i = 0; i < nf; ++i)
    for_each_entry(out, frontier[i], [&](offset_t j) {
      const vertex_t w = out.col[j];
      if (level[w] < 0) {
        level[w] = depth + 1;
        next[m++] = w;
        *next_edges += out.sizes[w];
      }
      return true;
    });
  return m;
}

vertex_t K::bfs_pull(const dcsr_view<pattern>& in, const vertex_t* out_sizes, std::int32_t* level, std::int32_t depth,
                     offset_t* next_edges) {
  vertex_t m = 0;
  for (vertex_t v = 0; v < in.rows; ++v) {
    if (level[v] >= 0) continue;
    const bool found = !for_each_entry(in, v, [&](offset_t j) { return level[in.col[j]] != depth; });
    if (found) {
      level[v] = depth + 1;  // depth + 1 never equals depth: this pass reads only level depth
      ++m;
      *next_edges += out_sizes[v];
    }
  }
  return m;
}

vertex_t K::bfs_frontier(const std::int32_t* level, vertex_t n, std::int32_t depth, vertex_t* list) {
  vertex_t m = 0;
  for (vertex_t v = 0; v < n; ++v)
    if (level[v] == depth) list[m++] = v;
  return m;
}

vertex_t K::bfs_seed(const vertex_t* u, const vertex_t* v, std::size_t m, std::int32_t* level, vertex_t* list,
                     std::int32_t* mark, std::int32_t stamp) {
  std::vector<vertex_t> lowered;
  for (std::size_t i = 0; i < m; ++i) {
    if (level[u[i]] < 0) continue;
    const std::int32_t l = level[u[i]] + 1;
    if (level[v[i]] < 0 || l < level[v[i]]) level[v[i]] = l, lowered.push_back(v[i]);
  }
  vertex_t k = 0;
  for (vertex_t w : lowered)
    if (mark[w] != stamp) mark[w] = stamp, list[k++] = w;
  return k;
}

vertex_t K::bfs_lower(const dcsr_view<pattern>& out, const vertex_t* frontier, vertex_t nf, std::int32_t* level,
                      vertex_t* next, std::int32_t* mark, std::int32_t stamp) {
  vertex_t m = 0;
  for (vertex_t i = 0; i < nf; ++i) {
    const vertex_t u = frontier[i];
    for_each_entry(out, u, [&](offset_t j) {
      const vertex_t w = out.col[j];
      if (level[w] < 0 || level[u] + 1 < level[w]) {
        level[w] = level[u] + 1;
        if (mark[w] != stamp) mark[w] = stamp, next[m++] = w;
      }
      return true;
    });
  }
  return m;
}

template <class V>
void K::sssp_relax(const dcsr_view<V>& out, const vertex_t* frontier, vertex_t nf, double* dist, std::uint8_t* pending) {
  for (vertex_t i = 0; i < nf; ++i) {
    const vertex_t u = frontier[i];
    for_each_entry(out, u, [&](offset_t j) {
      const double d = dist[u] + value_or<V>(out.val, j, 1.0);
      const vertex_t w = out.col[j];
      if (d < dist[w]) dist[w] = d, pending[w] = 1;
      return true;
    });
  }
}

vertex_t K::sssp_take(const double* dist, std::uint8_t* pending, vertex_t n, double bound, vertex_t* list) {
  vertex_t m = 0;
  for (vertex_t v = 0; v < n; ++v)
    if (pending[v] && dist[v] < bound) pending[v] = 0, list[m++] = v;
  return m;
}

double K::sssp_min_pending(const double* dist, const std::uint8_t* pending, vertex_t n) {
  double best = std::numeric_limits<double>::infinity();
  for (vertex_t v = 0; v < n; ++v)
    if (pending[v]) best = std::min(best, dist[v]);
  return best;
}

template <class V>
weight_summary K::weights(const dcsr_view<V>& g) {
  weight_summary w{std::numeric_limits<double>::infinity(), -1, 0.0};
  for (vertex_t r = 0; r < g.rows; ++r)
    for_each_entry(g, r, [&](offset_t j) {
      const double x = value_or<V>(g.val, j, 1.0);
      if (x < w.min) w.min = x, w.min_row = r;
      w.sum += x;
      return true;
    });
  return w;
}

bool K::any_tight(const vertex_t* u, const vertex_t* v, std::size_t m, const std::int32_t* level, vertex_t n) {
  for (std::size_t i = 0; i < m; ++i)
    if (u[i] < n && v[i] < n && level[u[i]] >= 0 && level[v[i]] == level[u[i]] + 1) return true;
  return false;
}

bool K::any_tight(const vertex_t* u, const vertex_t* v, std::size_t m, const double* dist, vertex_t n) {
  for (std::size_t i = 0; i < m; ++i)
    if (u[i] < n && v[i] < n && dist[u[i]] < std::numeric_limits<double>::infinity() && dist[v[i]] >= dist[u[i]]) return true;
  return false;
}

void K::sssp_relax_pairs(const vertex_t* u, const vertex_t* v, const double* w, std::size_t m, double* dist,
                         std::uint8_t* pending) {
  for (std::size_t i = 0; i < m; ++i) {
    const double d = dist[u[i]] + (w ? w[i] : 1.0);
    if (d < dist[v[i]]) dist[v[i]] = d, pending[v[i]] = 1;
  }
}

template void K::sssp_relax<pattern>(const dcsr_view<pattern>&, const vertex_t*, vertex_t, double*, std::uint8_t*);
template void K::sssp_relax<double>(const dcsr_view<double>&, const vertex_t*, vertex_t, double*, std::uint8_t*);
template weight_summary K::weights<pattern>(const dcsr_view<pattern>&);
template weight_summary K::weights<double>(const dcsr_view<double>&);

}  // namespace fg::detail
