// Reference twin of algorithms/device/pagerank_step.cpp: sequential loops.
#include <cmath>

#include "algorithms/detail/pagerank_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
using P = pagerank_kernels<host_space>;

template <class V>
void P::out_weights(const dcsr_view<V>& At, double* out, vertex_t n) {
  for (vertex_t u = 0; u < n; ++u) out[u] = 0;
  for (vertex_t v = 0; v < At.rows; ++v) {
    offset_t left = At.sizes[v];
    for (int s = 0; s < At.nseg[v] && left > 0; ++s)
      for (offset_t j = At.seg[s * At.pitch + 2 * offset_t(v)]; j < At.seg[s * At.pitch + 2 * offset_t(v) + 1] && left > 0; ++j, --left) {
        if constexpr (is_pattern_v<V>) out[At.col[j]] += 1.0;
        else out[At.col[j]] += double(At.val[j]);
      }
  }
}

void P::from_degrees(const vertex_t* deg, double* out, vertex_t n) {
  for (vertex_t u = 0; u < n; ++u) out[u] = double(deg[u]);
}

double P::init(double* rank, double* scaled, const double* out_w, vertex_t n) {
  double dangling = 0;
  for (vertex_t u = 0; u < n; ++u) {
    rank[u] = 1.0 / n;
    scaled[u] = out_w[u] > 0 ? rank[u] / out_w[u] : 0.0;
    if (out_w[u] == 0) dangling += rank[u];
  }
  return dangling;
}

double P::resume(const double* rank, double* scaled, const double* out_w, vertex_t n) {
  double dangling = 0;
  for (vertex_t u = 0; u < n; ++u) {
    scaled[u] = out_w[u] > 0 ? rank[u] / out_w[u] : 0.0;
    if (out_w[u] == 0) dangling += rank[u];
  }
  return dangling;
}

pagerank_sums P::update(const double* y, double* rank, double* scaled, float* scaled32, const double* out_w,
                        vertex_t n, double damping, double base) {
  pagerank_sums s;
  for (vertex_t v = 0; v < n; ++v) {
    const double r = damping * y[v] + base;
    s.change += std::fabs(r - rank[v]);
    rank[v] = r;
    const double x = out_w[v] > 0 ? r / out_w[v] : 0.0;
    if (scaled32) scaled32[v] = float(x);
    else scaled[v] = x;
    if (out_w[v] == 0) s.dangling += r;
  }
  return s;
}

void P::to_float(const double* from, float* to, vertex_t n) {
  for (vertex_t i = 0; i < n; ++i) to[i] = float(from[i]);
}

void P::to_double(const float* from, double* to, vertex_t n) {
  for (vertex_t i = 0; i < n; ++i) to[i] = double(from[i]);
}

void P::update_k(const double* y, double* rank, double* scaled, const double* out_w, const std::int32_t* slot,
                 const double* seed_w, const ppr_step& step, vertex_t n, double damping, double* sums) {
  const int k = step.k;
  for (int j = 0; j < 2 * k; ++j) sums[j] = 0;
  for (vertex_t v = 0; v < n; ++v)
    for (int j = 0; j < k; ++j) {
      if (step.done[j]) continue;
      const std::size_t e = std::size_t(v) * std::size_t(k) + std::size_t(j);
      const double seed = slot[v] < 0 ? 0.0 : seed_w[std::size_t(slot[v]) * std::size_t(k) + std::size_t(j)];
      const double r = y ? damping * y[e] + step.teleport[j] * seed : 1.0 / n;
      if (y) sums[j] += std::fabs(r - rank[e]);
      rank[e] = r;
      scaled[e] = out_w[v] > 0 ? r / out_w[v] : 0.0;
      if (out_w[v] == 0) sums[k + j] += r;
    }
}

void P::pick_columns(const double* in, int k, double* out, const column_pick& pick, std::int64_t rows) {
  for (std::int64_t r = 0; r < rows; ++r)
    for (int i = 0; i < pick.count; ++i) out[r * pick.count + i] = in[r * k + pick.from[i]];
}

template void P::out_weights<pattern>(const dcsr_view<pattern>&, double*, vertex_t);
template void P::out_weights<double>(const dcsr_view<double>&, double*, vertex_t);

}  // namespace fg::detail
