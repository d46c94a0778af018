// Kernels of PageRank kept current by residual pushes (algorithms/dynamic_pagerank.hpp). Twins:
//   dynamic_pagerank_kernels<host_space>   algorithms/reference/dynamic_pagerank_step.cpp
//   dynamic_pagerank_kernels<device_space> algorithms/device/dynamic_pagerank_step.cpp (OpenMP or CUDA)
// y is the unnormalised score (the solution of (I - dP) y = 1, P the out-degree-scaled adjacency with
// dangling columns zero) and r its residual, r = 1 - y + d P y, kept exact under pushes and batches.
// The twins push in different orders, so their y differ within the stopping rule, not bit for bit.
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "storage/dcsr.hpp"
#include "storage/edge_set.hpp"

namespace fg::detail {

struct residual_sums {
  double residual = 0;  ///< sum |r|
  double mass = 0;      ///< sum y
  double dangling = 0;  ///< sum y over the vertices without out-edges
};

/// A pair key's row and column (edge_set_view::key: row << 32 | col).
FG_HD inline vertex_t key_row(std::uint64_t k) { return vertex_t(std::uint32_t(k >> 32)); }
FG_HD inline vertex_t key_col(std::uint64_t k) { return vertex_t(std::uint32_t(k)); }
/// Whether v's residual r is over the level's threshold eps (1 + deg v): the one test every push,
/// list and scan makes.
FG_HD inline bool over_threshold(double r, vertex_t deg, double eps) { return (r < 0 ? -r : r) > eps * (1.0 + deg); }

template <class Space>
struct dynamic_pagerank_kernels;

#define FG_DYNAMIC_PAGERANK_KERNELS(Space)                                                                        \
  /* the distinct pairs (row[i], col[i]) of both lists as sorted keys row << 32 | col (ids as unsigned) */        \
  static array<std::uint64_t, Space> keys(const vertex_t* row, const vertex_t* col, std::size_t m,                \
                                          const vertex_t* row2, const vertex_t* col2, std::size_t m2);           \
  /* found[i] = whether the out-edge store holds key[i] (rows past it: no); by its pair index when the view   \
     has one (set.slot), else by walking the keys' rows */                                                      \
  static void holds(const dcsr_view<pattern>& out, const edge_set_view& set, const std::uint64_t* key,            \
                    std::size_t k, std::uint8_t* found);                                                        \
  /* A batch's effect on r, y: pair i went (was[i] && !is[i]) or came (!was[i] && is[i]); deg = out-degrees    \
     after the batch; net (n, zero on entry and on return) counts per source. A source u of degree k -> k'    \
     keeps what each of its kept edges carries, q = y[u] / k (y[u] / k' when k = 0): a gone edge takes d q    \
     from r at its target, a new one adds d q, and y[u] becomes k' q (r[u] moves by the opposite). Returns the \
     pairs that went or came */                                                                                \
  static std::int64_t seed(const std::uint64_t* key, const std::uint8_t* was, const std::uint8_t* is, std::size_t k, \
                           const vertex_t* deg, vertex_t n, std::int32_t* net, double* y, double* r, double damping); \
  /* Pushes from the frontier, first in first out: a vertex v takes its residual into y and pushes         \
     d r[v] / deg[v] to each out-neighbour, and those whose |r| passes eps (1 + deg) are queued (once at a   \
     time: mark[v] == stamp while queued), until none is over the threshold or the |r| taken reaches budget. \
     The reference and OpenMP: one thread (algorithms/detail/push_fifo.hpp); CUDA: one launch over a device  \
     queue (algorithms/cuda/push_queue.cuh; m the entries, hub_share and hub_left n each, for its hub rows).  \
     Adds the entries read to *edges, sum |r[v]| taken to taken->residual and sum r[v] to taken->mass */      \
  static void push(const dcsr_view<pattern>& out, offset_t m, const vertex_t* frontier, vertex_t nf, double* y,     \
                   double* r, double damping, double eps, double budget, std::int32_t* mark, std::int32_t stamp,   \
                   double* hub_share, std::int32_t* hub_left, std::int64_t* edges, residual_sums* taken);          \
  /* the vertices [0, n) whose |r| passes eps (1 + deg), in id order; returns how many */                      \
  static vertex_t over(const double* r, const vertex_t* deg, vertex_t n, double eps, vertex_t* list);            \
  static residual_sums sums(const double* y, const double* r, const vertex_t* deg, vertex_t n);                  \
  /* sum |r[v] - shift| */                                                                                      \
  static double shifted_l1(const double* r, double shift, vertex_t n);                                          \
  /* x[u] = y[u] / deg[u] (0 when deg[u] = 0) */                                                             \
  static void spread(const double* y, const vertex_t* deg, double* x, vertex_t n);                               \
  /* z[w] = sum of x[u] over the out-edge store's m entries u -> w: P y read along the out-edges (x = y /   \
     deg), for a graph kept in one orientation (fluxgraph::footprint::compact). Atomics on the device twin */ \
  static void scatter(const dcsr_view<pattern>& out, offset_t m, const double* x, double* z);                   \
  /* r = 1 - y + d z (z = P y, pulled over the in-edges or scattered along the out-edges) */                   \
  static void residual(const double* y, const double* z, double* r, vertex_t n, double damping);                 \
  /* y[v] += r[v] (a Jacobi sweep's step: the residual taken into y everywhere) */                             \
  static void absorb(double* y, const double* r, vertex_t n);                                                    \
  /* y[v] = a * y[v] for v < n; y = 1, r = 0 for v in [n, to) */                                               \
  static void scale(double* y, double a, vertex_t n);                                                           \
  static void extend(double* y, double* r, vertex_t from, vertex_t to);                                          \
  /* the vertices with y >= floor, in id order, and their y; returns how many */                              \
  static vertex_t at_least(const double* y, vertex_t n, double floor, vertex_t* list, double* value);             \
  /* score = y / mass */                                                                                       \
  static void normalise(const double* y, double mass, double* score, vertex_t n);

template <>
struct dynamic_pagerank_kernels<host_space> {
  FG_DYNAMIC_PAGERANK_KERNELS(host_space)
};
template <>
struct dynamic_pagerank_kernels<device_space> {
  FG_DYNAMIC_PAGERANK_KERNELS(device_space)
};
#undef FG_DYNAMIC_PAGERANK_KERNELS

}  // namespace fg::detail
