// Residual pushes in one thread, first in first out (algorithms/detail/dynamic_pagerank_kernels.hpp's
// push for the reference twin and the OpenMP device twin; algorithms/cuda/push_queue.cuh is its
// parallel form): a vertex's residual is pushed when its turn comes, with whatever reached it since
// it was queued, so a residual travels many hops in one call and no atomics are needed. On two
// cores this beat parallel rounds 4x per entry (cnr-2000: the rounds' double atomics and team
// wake-ups cost ~19 ns an entry read; docs/dynamic-pagerank.md).
#pragma once
#include <cmath>
#include <vector>

#include "algorithms/detail/app_kernels.hpp"
#include "algorithms/detail/dynamic_pagerank_kernels.hpp"

namespace fg::detail {

/// The FIFO from frontier[0, nf) until no vertex is over eps (1 + deg) or the |r| taken reaches
/// budget; mark[v] == stamp while v is queued.
inline void push_fifo(const dcsr_view<pattern>& out, const vertex_t* frontier, vertex_t nf, double* y, double* r,
                          double damping, double eps, double budget, std::int32_t* mark, std::int32_t stamp,
                          std::int64_t* edges, residual_sums* taken) {
  const vertex_t* deg = out.sizes;
  std::vector<vertex_t> queue(frontier, frontier + nf);
  for (vertex_t v : queue) mark[v] = stamp;
  const double start = taken->residual;
  for (std::size_t head = 0; head < queue.size() && taken->residual - start < budget; ++head) {
    const vertex_t v = queue[head];
    mark[v] = stamp - 1;  // not queued: a push that lifts it over the threshold queues it again
    const double t = r[v];
    if (!over_threshold(t, deg[v], eps)) continue;
    r[v] = 0, y[v] += t, *edges += deg[v];
    taken->residual += std::fabs(t), taken->mass += t;
    if (deg[v] == 0) continue;
    const double share = damping * t / deg[v];
    for_each_entry(out, v, [&](offset_t j) {
      const vertex_t w = out.col[j];
      r[w] += share;
      if (mark[w] != stamp && over_threshold(r[w], deg[w], eps)) mark[w] = stamp, queue.push_back(w);
      return true;
    });
  }
}

}  // namespace fg::detail
