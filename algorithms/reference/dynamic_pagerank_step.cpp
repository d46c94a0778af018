// Reference twin of algorithms/device/dynamic_pagerank_step.cpp: sequential loops; the pushes in one
// FIFO (algorithms/detail/push_fifo.hpp), where the GPU pushes in rounds: the two meet the same
// bound, not the same bits.
#include <algorithm>
#include <cmath>

#include "algorithms/detail/app_kernels.hpp"
#include "algorithms/detail/dynamic_pagerank_kernels.hpp"
#include "algorithms/detail/push_fifo.hpp"

namespace fg::detail {
using K = dynamic_pagerank_kernels<host_space>;

array<std::uint64_t, host_space> K::keys(const vertex_t* row, const vertex_t* col, std::size_t m,
                                         const vertex_t* row2, const vertex_t* col2, std::size_t m2) {
  std::vector<std::uint64_t> k;
  k.reserve(m + m2);
  for (std::size_t i = 0; i < m + m2; ++i) {
    const vertex_t r = i < m ? row[i] : row2[i - m], c = i < m ? col[i] : col2[i - m];
    if (r >= 0 && c >= 0) k.push_back(edge_set_view::key(r, c));  // a bad id: the store rejects the batch
  }
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  return to_space<host_space>(k);
}

void K::holds(const dcsr_view<pattern>& out, const edge_set_view&, const std::uint64_t* key, std::size_t k,
              std::uint8_t* found) {
  app_kernels<host_space>::contains(out, key, k, found);
}

std::int64_t K::seed(const std::uint64_t* key, const std::uint8_t* was, const std::uint8_t* is, std::size_t k,
                     const vertex_t* deg, vertex_t n, std::int32_t* net, double* y, double* r, double damping) {
  std::int64_t changed = 0;
  for (std::size_t i = 0; i < k; ++i)
    if (was[i] != is[i]) net[key_row(key[i])] += is[i] ? 1 : -1, ++changed;
  for (std::size_t i = 0; i < k; ++i) {
    if (was[i] == is[i]) continue;
    const vertex_t u = key_row(key[i]), after = deg[u], before = after - net[u];
    const double q = before > 0 ? y[u] / before : after > 0 ? y[u] / after : 0.0;
    r[key_col(key[i])] += is[i] ? damping * q : -damping * q;
  }
  for (std::size_t i = 0; i < k; ++i) {
    const vertex_t u = key_row(key[i]);
    if (u >= n || (i > 0 && key_row(key[i - 1]) == u) || net[u] == 0) continue;
    const vertex_t after = deg[u], before = after - net[u];
    if (before > 0 && after > 0) {
      const double moved = y[u] * (double(after) / before) - y[u];
      y[u] += moved;
      r[u] -= moved;
    }
    net[u] = 0;
  }
  return changed;
}

void K::push(const dcsr_view<pattern>& out, offset_t, const vertex_t* frontier, vertex_t nf, double* y, double* r,
             double damping, double eps, double budget, std::int32_t* mark, std::int32_t stamp, double*, std::int32_t*,
             std::int64_t* edges, residual_sums* taken) {
  push_fifo(out, frontier, nf, y, r, damping, eps, budget, mark, stamp, edges, taken);
}

vertex_t K::over(const double* r, const vertex_t* deg, vertex_t n, double eps, vertex_t* list) {
  vertex_t count = 0;
  for (vertex_t v = 0; v < n; ++v)
    if (over_threshold(r[v], deg[v], eps)) list[count++] = v;
  return count;
}

residual_sums K::sums(const double* y, const double* r, const vertex_t* deg, vertex_t n) {
  residual_sums s;
  for (vertex_t v = 0; v < n; ++v) {
    s.residual += std::fabs(r[v]), s.mass += y[v];
    if (deg[v] == 0) s.dangling += y[v];
  }
  return s;
}

double K::shifted_l1(const double* r, double shift, vertex_t n) {
  double s = 0;
  for (vertex_t v = 0; v < n; ++v) s += std::fabs(r[v] - shift);
  return s;
}

void K::spread(const double* y, const vertex_t* deg, double* x, vertex_t n) {
  for (vertex_t u = 0; u < n; ++u) x[u] = deg[u] > 0 ? y[u] / deg[u] : 0.0;
}

void K::scatter(const dcsr_view<pattern>& out, offset_t, const double* x, double* z) {
  std::fill(z, z + out.rows, 0.0);
  for (vertex_t u = 0; u < out.rows; ++u)
    for_each_entry(out, u, [&](offset_t j) {
      z[out.col[j]] += x[u];
      return true;
    });
}

void K::residual(const double* y, const double* z, double* r, vertex_t n, double damping) {
  for (vertex_t v = 0; v < n; ++v) r[v] = 1.0 - y[v] + damping * z[v];
}

void K::absorb(double* y, const double* r, vertex_t n) {
  for (vertex_t v = 0; v < n; ++v) y[v] += r[v];
}

void K::scale(double* y, double a, vertex_t n) {
  for (vertex_t v = 0; v < n; ++v) y[v] *= a;
}

void K::extend(double* y, double* r, vertex_t from, vertex_t to) {
  for (vertex_t v = from; v < to; ++v) y[v] = 1.0, r[v] = 0.0;
}

vertex_t K::at_least(const double* y, vertex_t n, double floor, vertex_t* list, double* value) {
  vertex_t c = 0;
  for (vertex_t v = 0; v < n; ++v)
    if (y[v] >= floor) list[c] = v, value[c++] = y[v];
  return c;
}

void K::normalise(const double* y, double mass, double* score, vertex_t n) {
  for (vertex_t v = 0; v < n; ++v) score[v] = y[v] / mass;
}

}  // namespace fg::detail
