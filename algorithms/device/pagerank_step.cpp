// Device twin of algorithms/reference/pagerank_step.cpp. The update is one fused pass (new score,
// L1 change, next scaled vector, dangling mass), so an iteration reads each vector once.
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <vector>

#include "algorithms/detail/pagerank_kernels.hpp"
#include "algorithms/device/balanced_edges.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using P = pagerank_kernels<device_space>;

namespace {
template <class T>
FG_HD inline void add_to(T* p, T v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(p, v);
#elif defined(_OPENMP)
#pragma omp atomic
  *p += v;
#else
  *p += v;
#endif
}
struct add_sums {
  FG_HD pagerank_sums operator()(const pagerank_sums& a, const pagerank_sums& b) const {
    return {a.change + b.change, a.dangling + b.dangling};
  }
};
}  // namespace

template <class V>
void P::out_weights(const dcsr_view<V>& At, double* out, vertex_t n) {
  // Every in-edge adds to its column's out-weight, entries spread evenly over the threads
  // (balanced_edges.hpp: a packed store flat, any other by chunks; with a thread per row, rmat-24's
  // hub rows serialised 10^5+ atomics each). A pattern store counts in 32 bits: half the bytes of the
  // random sectors the atomics land on. Floating-point atomics make the last bits order-dependent
  // for weighted graphs; pattern counts are exact.
  if constexpr (is_pattern_v<V>) {
    array<std::uint32_t, device_space> count(static_cast<std::size_t>(n));
    memory::zero_on_device(count.data(), sizeof(std::uint32_t) * std::size_t(n));
    std::uint32_t* c = count.data();
    for_each_stored_entry(At, FG_LAMBDA(std::int64_t j) { add_to(c + At.col[j], 1u); });
    parallel_for(n, FG_LAMBDA(std::int64_t u) { out[u] = double(c[u]); });
  } else {
    memory::zero_on_device(out, sizeof(double) * std::size_t(n));
    for_each_stored_entry(At, FG_LAMBDA(std::int64_t j) { add_to(out + At.col[j], double(At.val[j])); });
  }
}

void P::from_degrees(const vertex_t* deg, double* out, vertex_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t u) { out[u] = double(deg[u]); });
}

double P::init(double* rank, double* scaled, const double* out_w, vertex_t n) {
  const double r0 = 1.0 / n;
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(n),
      FG_LAMBDA(std::int64_t u) {
        rank[u] = r0;
        scaled[u] = out_w[u] > 0 ? r0 / out_w[u] : 0.0;
        return out_w[u] == 0 ? r0 : 0.0;
      },
      0.0, thrust::plus<double>());
}

double P::resume(const double* rank, double* scaled, const double* out_w, vertex_t n) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(n),
      FG_LAMBDA(std::int64_t u) {
        scaled[u] = out_w[u] > 0 ? rank[u] / out_w[u] : 0.0;
        return out_w[u] == 0 ? rank[u] : 0.0;
      },
      0.0, thrust::plus<double>());
}

pagerank_sums P::update(const double* y, double* rank, double* scaled, float* scaled32, const double* out_w,
                        vertex_t n, double damping, double base) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(n),
      FG_LAMBDA(std::int64_t v) {
        const double r = damping * y[v] + base;
        pagerank_sums s;
        s.change = r > rank[v] ? r - rank[v] : rank[v] - r;
        rank[v] = r;
        const double x = out_w[v] > 0 ? r / out_w[v] : 0.0;
        if (scaled32) scaled32[v] = float(x);
        else scaled[v] = x;
        s.dangling = out_w[v] == 0 ? r : 0.0;
        return s;
      },
      pagerank_sums{}, add_sums{});
}

void P::to_float(const double* from, float* to, vertex_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t i) { to[i] = float(from[i]); });
}

void P::to_double(const float* from, double* to, vertex_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t i) { to[i] = double(from[i]); });
}

namespace {
// Column sums of an m x c row-major matrix on the device, to the host: blocks of rows summed in
// place of the matrix until a few hundred rows are left, which the host adds. A thread a (block,
// column): the c threads of a block read a row's c adjacent entries together.
std::vector<double> column_sums(array<double, device_space> a, std::int64_t m, int c) {
  constexpr std::int64_t rows_a_thread = 64, host_rows = 256;
  while (m > host_rows) {
    const std::int64_t blocks = (m + rows_a_thread - 1) / rows_a_thread;
    array<double, device_space> next(std::size_t(blocks * c));
    const double* in = a.data();
    double* out = next.data();
    parallel_for(blocks * c, FG_LAMBDA(std::int64_t t) {
      const std::int64_t b = t / c, j = t % c, end = b * rows_a_thread + rows_a_thread < m ? b * rows_a_thread + rows_a_thread : m;
      double s = 0;
      for (std::int64_t r = b * rows_a_thread; r < end; ++r) s += in[r * c + j];
      out[t] = s;
    });
    a = std::move(next), m = blocks;
  }
  const std::vector<double> h = to_vector(a);
  std::vector<double> sums(std::size_t(c), 0.0);
  for (std::int64_t r = 0; r < m; ++r)
    for (int j = 0; j < c; ++j) sums[std::size_t(j)] += h[std::size_t(r * c + j)];
  return sums;
}
}  // namespace

// A thread a (share of the vertices, vector): share b takes vertices b, b + shares, b + 2 shares, ...,
// so a warp's threads read 32 adjacent entries at each step whatever k is (k threads a vertex,
// 32 / k vertices side by side), each thread keeping its vector's sums; the shares' sums are then
// added up (column_sums). About 2^18 threads run (a few per H100 core slot).
void P::update_k(const double* y, double* rank, double* scaled, const double* out_w, const std::int32_t* slot,
                 const double* seed_w, const ppr_step& step, vertex_t n, double damping, double* sums) {
  const int k = step.k;
  const std::int64_t per = std::max<std::int64_t>(16, std::int64_t(n) * k >> 18), blocks = (n + per - 1) / per;
  array<double, device_space> part(std::size_t(blocks * 2 * k));
  double* p = part.data();
  const double r0 = 1.0 / n;
  parallel_for(blocks * k, FG_LAMBDA(std::int64_t t) {
    const std::int64_t b = t / k;
    const int j = int(t % k);
    double change = 0, dangling = 0;
    if (!step.done[j])
      for (std::int64_t v = b; v < n; v += blocks) {
        const std::int64_t e = v * k + j;
        const double seed = slot[v] < 0 ? 0.0 : seed_w[std::int64_t(slot[v]) * k + j];
        const double r = y ? damping * y[e] + step.teleport[j] * seed : r0;
        if (y) change += r > rank[e] ? r - rank[e] : rank[e] - r;
        rank[e] = r;
        scaled[e] = out_w[v] > 0 ? r / out_w[v] : 0.0;
        if (out_w[v] == 0) dangling += r;
      }
    p[b * 2 * k + j] = change;
    p[b * 2 * k + k + j] = dangling;
  });
  const std::vector<double> s = column_sums(std::move(part), blocks, 2 * k);
  std::copy(s.begin(), s.end(), sums);
}

void P::pick_columns(const double* in, int k, double* out, const column_pick& pick, std::int64_t rows) {
  const int c = pick.count;
  parallel_for(rows * c, FG_LAMBDA(std::int64_t t) { out[t] = in[(t / c) * k + pick.from[t % c]]; });
}

template void P::out_weights<pattern>(const dcsr_view<pattern>&, double*, vertex_t);
template void P::out_weights<double>(const dcsr_view<double>&, double*, vertex_t);

}  // namespace fg::detail
