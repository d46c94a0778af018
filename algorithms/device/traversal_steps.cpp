// Device twin of the BFS and SSSP steps (algorithms/detail/app_kernels.hpp): a thread per frontier
// vertex (push, relax) or per unvisited vertex (pull); levels and distances only ever go down, set
// by atomics, so the result is the reference twin's whatever the threads' order.
#include <thrust/copy.h>
#include <thrust/transform_reduce.h>

#include <limits>

#include "algorithms/detail/app_kernels.hpp"
#include "algorithms/device/balanced_edges.hpp"
#include "core/atomics.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = app_kernels<device_space>;

namespace {
#if !defined(FG_WITH_CUDA)
struct counts {  // the OpenMP pull's reduction
  offset_t vertices = 0, edges = 0;
};
struct add_counts {
  FG_HD counts operator()(const counts& a, const counts& b) const { return {a.vertices + b.vertices, a.edges + b.edges}; }
};
#endif
struct merge_weights {  // the least weight at the least row; sums add (the order makes the last bits vary)
  FG_HD weight_summary operator()(const weight_summary& a, const weight_summary& b) const {
    weight_summary r = b.min < a.min || (b.min == a.min && b.min_row >= 0 && (a.min_row < 0 || b.min_row < a.min_row)) ? b : a;
    r.sum = a.sum + b.sum;
    return r;
  }
};
FG_HD inline bool in_bitmap(const std::uint32_t* bits, vertex_t u) { return (bits[u >> 5] >> (u & 31)) & 1u; }
template <class T>
T read_back(const array<T, device_space>& a) {
  T v;
  memory::copy_to_host(&v, a.data(), sizeof(T));
  return v;
}
}  // namespace

void K::bfs_init(std::int32_t* level, vertex_t n, vertex_t source) {
  parallel_for(n, FG_LAMBDA(std::int64_t v) { level[v] = v == source ? 0 : -1; });
}

std::int64_t K::count_reached(const std::int32_t* level, const double* dist, vertex_t n) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<vertex_t>(0), thrust::counting_iterator<vertex_t>(n),
      FG_LAMBDA(vertex_t v) { return std::int64_t(level ? level[v] >= 0 : dist[v] < inf); }, std::int64_t(0),
      thrust::plus<std::int64_t>());
}

void K::sssp_init(double* dist, vertex_t n, vertex_t source) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  parallel_for(n, FG_LAMBDA(std::int64_t v) { dist[v] = v == source ? 0.0 : inf; });
}

vertex_t K::bfs_push(const dcsr_view<pattern>& out, const vertex_t* frontier, vertex_t nf, std::int32_t* level,
                     std::int32_t depth, vertex_t* next, offset_t* next_edges) {
  array<offset_t, device_space> c(2);
  memory::zero_on_device(c.data(), c.bytes());
  offset_t* cnt = c.data();
  const vertex_t* col = out.col;
  const vertex_t* sizes = out.sizes;
  for_each_edge(out, frontier, nf, FG_LAMBDA(vertex_t, vertex_t, offset_t j) {
    const vertex_t w = col[j];
    if (atomic::load(level + w) < 0 && atomic::cas(level + w, -1, depth + 1) == -1) {
      next[atomic::fetch_add_shared(cnt, offset_t(1))] = w;
      atomic::fetch_add_shared(cnt + 1, offset_t(sizes[w]));
    }
  });
  offset_t h[2];
  memory::copy_to_host(h, cnt, sizeof(h));
  *next_edges += h[1];
  return vertex_t(h[0]);
}

vertex_t K::bfs_pull(const dcsr_view<pattern>& in, const vertex_t* out_sizes, std::int32_t* level, std::int32_t depth,
                     offset_t* next_edges) {
  // The frontier as a bitmap (n / 8 bytes, read-only during the pass): the lookups of an unvisited
  // vertex's in-neighbours hit a table 32x smaller than the levels, and plain cached loads do (the
  // levels are written during the pass, so they needed atomic loads past L1). A vertex found is
  // written depth + 1, which no lookup of this pass reads.
  const vertex_t n = in.rows;
  array<std::uint32_t, device_space> bitmap((std::size_t(n) + 31) / 32);
  std::uint32_t* bw = bitmap.data();
  parallel_for(std::int64_t(bitmap.size()), FG_LAMBDA(std::int64_t w) {
    std::uint32_t bits = 0;
    for (vertex_t b = 0; b < 32 && w * 32 + b < n; ++b) bits |= std::uint32_t(level[w * 32 + b] == depth) << b;
    bw[w] = bits;
  });
  const std::uint32_t* fb = bw;
  const vertex_t* col = in.col;
#if defined(FG_WITH_CUDA)
  // Two passes. A thread per unvisited vertex reads at most the first 32 entries of its row (on
  // R-MAT nearly every vertex finds a parent there); the rows longer than that and not yet found go
  // to a list whose in-edges are read in balanced chunks (a chunk stops once its vertex is found).
  // One pass of either kind: a thread per vertex walked a hub's whole row alone (cnr-2000: 40 ms
  // pulling vs 2.3 pushing, H100); chunks alone lost the early exit (rmat-22: 1.2 -> 11 ms).
  constexpr offset_t head = 32;
  array<vertex_t, device_space> long_rows(static_cast<std::size_t>(n));
  array<offset_t, device_space> c(3);
  zero(c);
  offset_t* cnt = c.data();  // found, their out-edges, long rows
  vertex_t* lp = long_rows.data();
  parallel_for(n, FG_LAMBDA(std::int64_t v) {
    if (level[v] >= 0) return;
    offset_t seen = 0;
    const bool found = !for_each_entry(in, vertex_t(v), [&](offset_t j) {
      return ++seen <= head ? !in_bitmap(fb, col[j]) : false;
    }) && seen <= head;
    if (found) {
      level[v] = depth + 1;
      atomic::fetch_add_shared(cnt, offset_t(1));
      atomic::fetch_add_shared(cnt + 1, offset_t(out_sizes[v]));
    } else if (in.sizes[v] > head) {
      lp[atomic::fetch_add_shared(cnt + 2, offset_t(1))] = vertex_t(v);
    }
  });
  offset_t h[3];
  memory::copy_to_host(h, cnt, sizeof(h));
  if (h[2] > 0) {
    for_each_edge(in, lp, vertex_t(h[2]), FG_LAMBDA(vertex_t, vertex_t v, offset_t j) {
      if (atomic::load(level + v) >= 0) return;
      if (in_bitmap(fb, col[j]) && atomic::cas(level + v, -1, depth + 1) == -1) {
        atomic::fetch_add_shared(cnt, offset_t(1));
        atomic::fetch_add_shared(cnt + 1, offset_t(out_sizes[v]));
      }
    });
    memory::copy_to_host(h, cnt, 2 * sizeof(offset_t));
  }
  *next_edges += h[1];
  return vertex_t(h[0]);
#else
  const counts c = thrust::transform_reduce(
      policy(), thrust::counting_iterator<vertex_t>(0), thrust::counting_iterator<vertex_t>(n),
      FG_LAMBDA(vertex_t v) {
        if (level[v] >= 0) return counts{};
        const bool found = !for_each_entry(in, v, [&](offset_t j) { return !in_bitmap(fb, col[j]); });
        if (!found) return counts{};
        level[v] = depth + 1;
        return counts{1, out_sizes[v]};
      },
      counts{}, add_counts{});
  *next_edges += c.edges;
  return vertex_t(c.vertices);
#endif
}

vertex_t K::bfs_frontier(const std::int32_t* level, vertex_t n, std::int32_t depth, vertex_t* list) {
  auto end = thrust::copy_if(policy(), thrust::counting_iterator<vertex_t>(0), thrust::counting_iterator<vertex_t>(n),
                             list, FG_LAMBDA(vertex_t v) { return level[v] == depth; });
  return vertex_t(end - list);
}

vertex_t K::bfs_seed(const vertex_t* u, const vertex_t* v, std::size_t m, std::int32_t* level, vertex_t* list,
                     std::int32_t* mark, std::int32_t stamp) {
  array<offset_t, device_space> c(1);
  memory::zero_on_device(c.data(), c.bytes());
  offset_t* cnt = c.data();
  // Levels only go down: an unvisited vertex (-1) is taken as +inf through the unsigned compare.
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) {
    const std::int32_t lu = atomic::load(level + u[i]);
    if (lu < 0) return;
    const std::uint32_t l = std::uint32_t(lu) + 1;
    const auto old = atomic::fetch_min(reinterpret_cast<std::uint32_t*>(level + v[i]), l);
    if (l < old && atomic::claim(mark + v[i], stamp)) list[atomic::fetch_add_shared(cnt, offset_t(1))] = v[i];
  });
  return vertex_t(read_back(c));
}

vertex_t K::bfs_lower(const dcsr_view<pattern>& out, const vertex_t* frontier, vertex_t nf, std::int32_t* level,
                      vertex_t* next, std::int32_t* mark, std::int32_t stamp) {
  array<offset_t, device_space> c(1);
  memory::zero_on_device(c.data(), c.bytes());
  offset_t* cnt = c.data();
  const vertex_t* col = out.col;
  for_each_edge(out, frontier, nf, FG_LAMBDA(vertex_t, vertex_t u, offset_t j) {
    const vertex_t w = col[j];
    const std::uint32_t l = std::uint32_t(atomic::load(level + u)) + 1;
    const auto old = atomic::fetch_min(reinterpret_cast<std::uint32_t*>(level + w), l);
    if (l < old && atomic::claim(mark + w, stamp)) next[atomic::fetch_add_shared(cnt, offset_t(1))] = w;
  });
  return vertex_t(read_back(c));
}

template <class V>
void K::sssp_relax(const dcsr_view<V>& out, const vertex_t* frontier, vertex_t nf, double* dist, std::uint8_t* pending) {
  const vertex_t* col = out.col;
  const stored_t<V>* val = out.val;
  for_each_edge(out, frontier, nf, FG_LAMBDA(vertex_t, vertex_t u, offset_t j) {
    const double d = atomic::load(dist + u) + value_or<V>(val, j, 1.0);
    const vertex_t w = col[j];
    if (d < atomic::load(dist + w)) {
      atomic::min_nonneg(dist + w, d);
      atomic::store(pending + w, std::uint8_t(1));
    }
  });
}

vertex_t K::sssp_take(const double* dist, std::uint8_t* pending, vertex_t n, double bound, vertex_t* list) {
  auto end = thrust::copy_if(policy(), thrust::counting_iterator<vertex_t>(0), thrust::counting_iterator<vertex_t>(n),
                             list, FG_LAMBDA(vertex_t v) { return pending[v] && dist[v] < bound; });
  const vertex_t m = vertex_t(end - list);
  parallel_for(m, FG_LAMBDA(std::int64_t i) { pending[list[i]] = 0; });
  return m;
}

double K::sssp_min_pending(const double* dist, const std::uint8_t* pending, vertex_t n) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<vertex_t>(0), thrust::counting_iterator<vertex_t>(n),
      FG_LAMBDA(vertex_t v) { return pending[v] ? dist[v] : inf; }, inf, thrust::minimum<double>());
}

template <class V>
weight_summary K::weights(const dcsr_view<V>& g) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<vertex_t>(0), thrust::counting_iterator<vertex_t>(g.rows),
      FG_LAMBDA(vertex_t r) {
        weight_summary b{inf, -1, 0.0};
        for_each_entry(g, r, [&](offset_t j) {
          const double x = value_or<V>(g.val, j, 1.0);
          if (x < b.min) b.min = x, b.min_row = r;
          b.sum += x;
          return true;
        });
        return b;
      },
      weight_summary{inf, -1, 0.0}, merge_weights{});
}

bool K::any_tight(const vertex_t* u, const vertex_t* v, std::size_t m, const std::int32_t* level, vertex_t n) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(m),
      FG_LAMBDA(std::size_t i) { return u[i] < n && v[i] < n && level[u[i]] >= 0 && level[v[i]] == level[u[i]] + 1; }, false,
      thrust::logical_or<bool>());
}

bool K::any_tight(const vertex_t* u, const vertex_t* v, std::size_t m, const double* dist, vertex_t n) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(m),
      FG_LAMBDA(std::size_t i) { return u[i] < n && v[i] < n && dist[u[i]] < inf && dist[v[i]] >= dist[u[i]]; }, false,
      thrust::logical_or<bool>());
}

void K::sssp_relax_pairs(const vertex_t* u, const vertex_t* v, const double* w, std::size_t m, double* dist,
                         std::uint8_t* pending) {
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) {
    const double d = atomic::load(dist + u[i]) + (w ? w[i] : 1.0);
    if (d < atomic::load(dist + v[i])) {
      atomic::min_nonneg(dist + v[i], d);
      atomic::store(pending + v[i], std::uint8_t(1));
    }
  });
}

template void K::sssp_relax<pattern>(const dcsr_view<pattern>&, const vertex_t*, vertex_t, double*, std::uint8_t*);
template void K::sssp_relax<double>(const dcsr_view<double>&, const vertex_t*, vertex_t, double*, std::uint8_t*);
template weight_summary K::weights<pattern>(const dcsr_view<pattern>&);
template weight_summary K::weights<double>(const dcsr_view<double>&);

}  // namespace fg::detail
