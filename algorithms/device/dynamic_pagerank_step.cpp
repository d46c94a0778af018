// Device twin of algorithms/reference/dynamic_pagerank_step.cpp. On the GPU residuals move by double
// atomics (a push lands on a target that other warps' pushes reach too), so the sums' last bits and
// the order of the pushes depend on the threads' timing; r stays the residual of y to within that
// rounding. The OpenMP build pushes with the reference's FIFO (algorithms/detail/push_fifo.hpp).
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cmath>
#if !defined(FG_WITH_CUDA)
#include <omp.h>
#endif

#include "algorithms/detail/app_kernels.hpp"
#include "algorithms/device/balanced_edges.hpp"
#include "algorithms/detail/dynamic_pagerank_kernels.hpp"
#include "algorithms/detail/push_fifo.hpp"
#if defined(FG_WITH_CUDA)
#include "algorithms/cuda/push_queue.cuh"
#endif
#include "core/atomics.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = dynamic_pagerank_kernels<device_space>;

namespace {
constexpr std::uint64_t none = ~std::uint64_t(0);
struct add_residual_sums {
  FG_HD residual_sums operator()(const residual_sums& a, const residual_sums& b) const {
    return {a.residual + b.residual, a.mass + b.mass, a.dangling + b.dangling};
  }
};
}  // namespace

array<std::uint64_t, device_space> K::keys(const vertex_t* row, const vertex_t* col, std::size_t m,
                                           const vertex_t* row2, const vertex_t* col2, std::size_t m2) {
  array<std::uint64_t, device_space> k(m + m2);
  std::uint64_t* kp = k.data();
  parallel_for(std::int64_t(m + m2), FG_LAMBDA(std::int64_t i) {
    const bool first = std::size_t(i) < m;
    const vertex_t r = first ? row[i] : row2[std::size_t(i) - m], c = first ? col[i] : col2[std::size_t(i) - m];
    kp[i] = r < 0 || c < 0 ? none : edge_set_view::key(r, c);  // a bad id: the store rejects the batch
  });
  claim_sort_scratch(k.bytes());
  thrust::sort(policy(), kp, kp + m + m2);
  std::size_t n = std::size_t(thrust::unique(policy(), kp, kp + m + m2) - kp);
  n = std::size_t(thrust::lower_bound(policy(), kp, kp + n, none) - kp);
  array<std::uint64_t, device_space> out(n);
  if (n > 0) memory::copy_on_device(out.data(), kp, n * sizeof(std::uint64_t));
  return out;
}

void K::holds(const dcsr_view<pattern>& out, const edge_set_view& set, const std::uint64_t* key, std::size_t k,
              std::uint8_t* found) {
  if (k == 0) return;
  if (!set.slot) {
    app_kernels<device_space>::contains(out, key, k, found);
    return;
  }
  const vertex_t rows = out.rows;
  parallel_for(std::int64_t(k), FG_LAMBDA(std::int64_t i) {
    const vertex_t r = key_row(key[i]);
    found[i] = r < rows && set.contains(key[i]) ? 1 : 0;
  });
}

std::int64_t K::seed(const std::uint64_t* key, const std::uint8_t* was, const std::uint8_t* is, std::size_t k,
                     const vertex_t* deg, vertex_t n, std::int32_t* net, double* y, double* r, double damping) {
  if (k == 0) return 0;
  const auto m = std::int64_t(k);
  array<std::int64_t, device_space> count{1};
  memory::zero_on_device(count.data(), count.bytes());
  std::int64_t* changed = count.data();
  parallel_for(m, FG_LAMBDA(std::int64_t i) {
    if (was[i] == is[i]) return;
    atomic::fetch_add(net + key_row(key[i]), is[i] ? 1 : -1);
    atomic::fetch_add_shared(changed, std::int64_t(1));
  });
  // What each edge of u carried before the batch: y[u] over its degree then (k' - net).
  parallel_for(m, FG_LAMBDA(std::int64_t i) {
    if (was[i] == is[i]) return;
    const vertex_t u = key_row(key[i]), after = deg[u], before = after - net[u];
    const double q = before > 0 ? y[u] / before : after > 0 ? y[u] / after : 0.0;
    atomic::fetch_add_double(r + key_col(key[i]), is[i] ? damping * q : -damping * q);
  });
  // The kept edges keep carrying q: y[u] = k' q, and the residual moves by the opposite.
  parallel_for(m, FG_LAMBDA(std::int64_t i) {
    const vertex_t u = key_row(key[i]);
    if (u < 0 || u >= n || (i > 0 && key_row(key[i - 1]) == u) || net[u] == 0) return;
    const vertex_t after = deg[u], before = after - net[u];
    if (before > 0 && after > 0) {
      const double moved = y[u] * (double(after) / before) - y[u];
      y[u] += moved;
      atomic::fetch_add_double(r + u, -moved);
    }
    net[u] = 0;
  });
  return read_one<device_space>(changed);
}

void K::push(const dcsr_view<pattern>& out, offset_t m, const vertex_t* frontier, vertex_t nf, double* y, double* r,
             double damping, double eps, double budget, std::int32_t* mark, std::int32_t stamp, double* hub_share,
             std::int32_t* hub_left, std::int64_t* edges, residual_sums* taken) {
  if (nf <= 0) return;
#if !defined(FG_WITH_CUDA)
  (void)m, (void)hub_share, (void)hub_left;
  push_fifo(out, frontier, nf, y, r, damping, eps, budget, mark, stamp, edges, taken);
#else
  const unsigned long long cap = push_queue_capacity(out.rows, m);
  array<std::uint64_t, device_space> ring{std::size_t(cap)};
  array<push_queue_counters, device_space> c{1};
  FG_CUDA_TRY(cudaMemsetAsync(ring.data(), 0xff, ring.bytes()));
  FG_CUDA_TRY(cudaMemsetAsync(c.data(), 0, c.bytes()));
  std::uint64_t* slot = ring.data();
  push_queue_counters* cp = c.data();
  parallel_for(nf, FG_LAMBDA(std::int64_t i) {
    const vertex_t v = frontier[i];
    mark[v] = stamp;
    slot[i] = std::uint32_t(v);  // a vertex item: chunk 0
    if (i == 0) cp->tail = cp->pending = (unsigned long long)nf;
  });
  const int grid = push_queue_grid();
  const double flush = budget / (double(grid) * (queue_block / 32));
  push_queue_args a{out, y, r, hub_share, hub_left, mark, slot, cap, cp, damping, eps, budget, flush, stamp};
  push_queue_kernel<<<grid, queue_block>>>(a);
  FG_CUDA_CHECK_LAUNCH();
  const push_queue_counters got = read_one<device_space>(cp);
  *edges += std::int64_t(got.edges);
  taken->residual += got.taken_abs, taken->mass += got.taken_sum;
#endif
}

vertex_t K::over(const double* r, const vertex_t* deg, vertex_t n, double eps, vertex_t* list) {
  auto end = thrust::copy_if(policy(), thrust::counting_iterator<vertex_t>(0), thrust::counting_iterator<vertex_t>(n),
                             list, FG_LAMBDA(vertex_t v) { return over_threshold(r[v], deg[v], eps); });
  return vertex_t(end - list);
}

residual_sums K::sums(const double* y, const double* r, const vertex_t* deg, vertex_t n) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(n),
      FG_LAMBDA(std::int64_t v) { return residual_sums{std::fabs(r[v]), y[v], deg[v] == 0 ? y[v] : 0.0}; },
      residual_sums{}, add_residual_sums{});
}

double K::shifted_l1(const double* r, double shift, vertex_t n) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(n),
      FG_LAMBDA(std::int64_t v) { return std::fabs(r[v] - shift); }, 0.0, thrust::plus<double>());
}

void K::spread(const double* y, const vertex_t* deg, double* x, vertex_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t u) { x[u] = deg[u] > 0 ? y[u] / deg[u] : 0.0; });
}

// P y along the out-edges. GPU: one double atomic an entry, balanced by chunks of entries
// (balanced_edges.hpp). OpenMP: each thread sums its rows' shares into its own vector, then the
// vectors are added (a CAS loop an entry on 2 cores was ~10x a pull over in-edges); n doubles a
// thread, freed on return. The price of keeping no in-edge store, paid by the sweeps and the runs
// from scratch, not by the pushes.
void K::scatter(const dcsr_view<pattern>& out, offset_t m, const double* x, double* z) {
  const vertex_t n = out.rows;
#if defined(FG_WITH_CUDA)
  (void)m;
  parallel_for(n, FG_LAMBDA(std::int64_t v) { z[v] = 0.0; });
  const vertex_t* col = out.col;
  for_each_edge(out, nullptr, n, FG_LAMBDA(vertex_t, vertex_t u, offset_t j) {
    const double a = x[u];
    if (a != 0.0) atomic::fetch_add_double(&z[col[j]], a);
  });
#else
  // At most one vector a thread for every 4 stored entries a vertex: the sums' scratch stays under
  // 2 bytes per stored edge (rmat-27 on 16 cores would take 16 GB otherwise).
  const offset_t per_vertex = m / std::max<vertex_t>(n, 1);
  const int threads = int(std::min<offset_t>(omp_get_max_threads(), std::max<offset_t>(1, per_vertex / 4)));
  array<double, device_space> part(std::size_t(threads) * std::size_t(n));
  double* p = part.data();
#pragma omp parallel num_threads(threads)
  {
    const int team = omp_get_num_threads();  // may be fewer than asked: only their vectors are summed
    double* mine = p + std::size_t(omp_get_thread_num()) * std::size_t(n);
    std::fill(mine, mine + n, 0.0);
#pragma omp for schedule(dynamic, 256)
    for (vertex_t u = 0; u < n; ++u) {
      const double a = x[u];
      if (a == 0.0) continue;
      for_each_entry(out, u, [&](offset_t j) {
        mine[out.col[j]] += a;
        return true;
      });
    }
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) {
      double sum = 0;
      for (int t = 0; t < team; ++t) sum += p[std::size_t(t) * std::size_t(n) + std::size_t(v)];
      z[v] = sum;
    }
  }
#endif
}

void K::residual(const double* y, const double* z, double* r, vertex_t n, double damping) {
  parallel_for(n, FG_LAMBDA(std::int64_t v) { r[v] = 1.0 - y[v] + damping * z[v]; });
}

void K::absorb(double* y, const double* r, vertex_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t v) { y[v] += r[v]; });
}

void K::scale(double* y, double a, vertex_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t v) { y[v] *= a; });
}

void K::extend(double* y, double* r, vertex_t from, vertex_t to) {
  parallel_for(to - from, FG_LAMBDA(std::int64_t i) {
    y[from + i] = 1.0;
    r[from + i] = 0.0;
  });
}

vertex_t K::at_least(const double* y, vertex_t n, double floor, vertex_t* list, double* value) {
  auto end = thrust::copy_if(policy(), thrust::counting_iterator<vertex_t>(0), thrust::counting_iterator<vertex_t>(n),
                             list, FG_LAMBDA(vertex_t v) { return y[v] >= floor; });
  const auto c = vertex_t(end - list);
  parallel_for(c, FG_LAMBDA(std::int64_t i) { value[i] = y[list[i]]; });
  return c;
}

void K::normalise(const double* y, double mass, double* score, vertex_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t v) { score[v] = y[v] / mass; });
}

}  // namespace fg::detail
