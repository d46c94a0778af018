// CUDA only: residual pushes in one launch, first in first out over a device-wide queue (the GPU
// twin of algorithms/detail/push_fifo.hpp; docs/dynamic-pagerank.md, "Order of the pushes").
//
// Why not rounds: a round pushes every vertex over the threshold at once and waits for the device
// before the next, so a residual moves one hop a round and each hop re-reads the rows of everything
// still over the threshold. On cnr-2000 (1e5-edge batches) the rounds read ~35 hops of the change a
// batch, as much as a power iteration reads of the graph, and the FIFO on one CPU core read ~15x less.
// Here a vertex is pushed when its turn comes, with everything that reached it since it was queued,
// and a pushed residual is in the queue at once, as in the FIFO; the order of the pushes (not their
// sum) depends on the threads' timing.
//
// The queue: a ring of 64-bit items, tickets from two counters (tail: produced, head: claimed). A
// producer takes a ticket and puts its item into the ticket's slot (CAS from empty); a consumer takes
// a ticket and swaps the slot's item out (spinning until one is there). Tickets are claimed before
// their items exist (a warp waits at its slot for the next item); `pending` (items queued or being
// pushed) reaches 0 only when no item can come again: then every waiting warp leaves. Each vertex is
// queued at most once at a time (mark[v] == stamp while queued or pushed), so the ring holds at most
// n vertex items plus the chunks of the hub rows being pushed.
//
// A warp pushes one item: a vertex (its residual taken, its row walked by the lanes) or, for a row
// longer than queue_chunk, one chunk of it: the hub's taker queues its chunks, which other warps walk
// with the share it left in hub_share[v]; the last chunk done releases the hub.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "algorithms/detail/dynamic_pagerank_kernels.hpp"
#include "core/atomics.hpp"
#include "core/cuda_check.hpp"

namespace fg::detail {

/// Entries of a hub row one warp walks as one item.
constexpr offset_t queue_chunk = 2048;
constexpr int queue_block = 256;
constexpr std::uint64_t queue_empty = ~std::uint64_t(0);

/// The queue's counters and the launch's sums, in device memory (zeroed, then tail = pending = the
/// first items).
struct push_queue_counters {
  unsigned long long head, tail;
  unsigned long long pending;
  unsigned long long edges;
  double taken_abs, taken_sum;
  int stop;  ///< the budget was reached: every warp leaves
};

struct push_queue_args {
  dcsr_view<pattern> g;
  double* y;
  double* r;
  double* hub_share;
  std::int32_t* hub_left;
  std::int32_t* mark;
  std::uint64_t* ring;
  unsigned long long cap;
  push_queue_counters* c;
  double damping, eps, budget;
  double flush;  ///< a warp adds what it took to the counters once it holds this much: budget / warps
  std::int32_t stamp;
};

namespace queue_detail {
__device__ inline std::uint64_t item(vertex_t v, std::uint32_t chunk) { return (std::uint64_t(chunk) << 32) | std::uint32_t(v); }

__device__ inline bool stopped(const push_queue_counters* c) { return atomic::load(&c->stop) != 0; }

// Puts k items (item(i) for i < k) into the ring from one thread; pending first, so that it never
// reads 0 while an item is on its way.
template <class F>
__device__ void produce(const push_queue_args& a, std::uint32_t k, F item_of) {
  atomicAdd(&a.c->pending, (unsigned long long)k);
  const unsigned long long t = atomicAdd(&a.c->tail, (unsigned long long)k);
  for (std::uint32_t i = 0; i < k; ++i) {
    auto* slot = reinterpret_cast<unsigned long long*>(a.ring + (t + i) % a.cap);
    // the slot's last item is being taken (at most a few warps behind): wait for it
    while (atomicCAS(slot, queue_empty, item_of(i)) != queue_empty)
      if (stopped(a.c)) return;
  }
}

// v is no longer queued; queued again when its residual is over the threshold now (a push reached
// it while it was out).
__device__ inline void release(const push_queue_args& a, vertex_t v) {
  __threadfence();
  atomicExch(a.mark + v, a.stamp - 1);
  const double now = atomic::load(a.r + v);
  if (over_threshold(now, a.g.sizes[v], a.eps) && atomic::claim(a.mark + v, a.stamp))
    produce(a, 1, [&](std::uint32_t) { return item(v, 0); });
}

// The lanes push share onto the entries [from, to) of row v (positions in the row, over its
// segments); lanes queue the targets their push lifts over the threshold.
__device__ inline unsigned long long walk(const push_queue_args& a, vertex_t v, offset_t from, offset_t to, double share, int lane) {
  offset_t pos = 0;
  a.g.for_each_piece(v, [&](offset_t b, offset_t e) {
    const offset_t lo = from > pos ? from - pos : 0, hi = to - pos < e - b ? to - pos : e - b;
    for (offset_t j = b + lo + lane; j < b + hi; j += 32) {
      const vertex_t w = a.g.col[j];
      const double now = atomicAdd(a.r + w, share) + share;
      if (over_threshold(now, a.g.sizes[w], a.eps) && atomic::claim(a.mark + w, a.stamp))
        produce(a, 1, [&](std::uint32_t) { return item(w, 0); });
    }
    pos += e - b;
  });
  return to - from;
}
}  // namespace queue_detail

// static: one copy a translation unit (only algorithms/device/dynamic_pagerank_step.cpp includes it)
static __global__ void __launch_bounds__(queue_block) push_queue_kernel(push_queue_args a) {
  using namespace queue_detail;
  const int lane = int(threadIdx.x % 32);
  unsigned long long edges = 0;
  double taken_abs = 0, taken_sum = 0;
  for (;;) {
    // lane 0 claims a ticket and waits for its item (or for the end)
    std::uint64_t it = queue_empty;
    if (lane == 0 && !stopped(a.c)) {
      const unsigned long long h = atomicAdd(&a.c->head, 1ULL);
      auto* slot = reinterpret_cast<unsigned long long*>(a.ring + h % a.cap);
      for (;;) {  // read before swapping: thousands of waiting warps poll, and plain loads stay in L2
        if (atomic::load(slot) != queue_empty && (it = atomicExch(slot, queue_empty)) != queue_empty) break;
        if (atomic::load(&a.c->pending) == 0 || stopped(a.c)) break;
        __nanosleep(128);
      }
    }
    it = __shfl_sync(0xffffffffu, it, 0);
    if (it == queue_empty) break;
    const vertex_t v = vertex_t(std::uint32_t(it));
    const std::uint32_t chunk = std::uint32_t(it >> 32);
    const offset_t deg = a.g.sizes[v];
    bool done = true;  // v is released once its pushes are out (a hub: by its last chunk)
    if (chunk == 0) {
      double got = 0;
      if (lane == 0) {
        const double seen = atomic::load(a.r + v);
        if (over_threshold(seen, vertex_t(deg), a.eps)) {
          got = atomic::exchange_double(a.r + v, 0.0);
          atomicAdd(a.y + v, got);
          taken_abs += got < 0 ? -got : got, taken_sum += got;
        }
      }
      got = __shfl_sync(0xffffffffu, got, 0);
      if (got != 0 && deg > 0) {
        const double share = a.damping * got / double(deg);
        if (deg <= queue_chunk) {
          edges += walk(a, v, 0, deg, share, lane);
        } else if (lane == 0) {  // a hub: its chunks go to other warps
          const auto k = std::uint32_t((deg + queue_chunk - 1) / queue_chunk);
          a.hub_share[v] = share;
          atomicExch(a.hub_left + v, std::int32_t(k));
          __threadfence();
          produce(a, k, [&](std::uint32_t i) { return item(v, i + 1); });
          done = false;
        }
        done = __shfl_sync(0xffffffffu, done, 0);
      }
    } else {
      const double share = atomic::load(a.hub_share + v);
      const offset_t from = offset_t(chunk - 1) * queue_chunk;
      edges += walk(a, v, from, from + queue_chunk < deg ? from + queue_chunk : deg, share, lane);
      __syncwarp();
      done = lane == 0 ? atomicSub(a.hub_left + v, 1) == 1 : false;
      done = __shfl_sync(0xffffffffu, done, 0);
    }
    __threadfence();
    __syncwarp();
    if (lane == 0) {
      if (done) release(a, v);
      atomicAdd(&a.c->pending, ~0ULL);  // - 1
      if (taken_abs >= a.flush) {  // what is not added yet stays under the budget, over all warps
        atomicAdd(&a.c->taken_abs, taken_abs), atomicAdd(&a.c->taken_sum, taken_sum);
        if (atomic::load(&a.c->taken_abs) >= a.budget) atomicExch(&a.c->stop, 1);
        taken_abs = taken_sum = 0;
      }
    }
  }
  edges += __shfl_down_sync(0xffffffffu, edges, 16);
  edges += __shfl_down_sync(0xffffffffu, edges, 8);
  edges += __shfl_down_sync(0xffffffffu, edges, 4);
  edges += __shfl_down_sync(0xffffffffu, edges, 2);
  edges += __shfl_down_sync(0xffffffffu, edges, 1);
  if (lane == 0) {
    atomicAdd(&a.c->edges, edges);
    if (taken_abs != 0 || taken_sum != 0) atomicAdd(&a.c->taken_abs, taken_abs), atomicAdd(&a.c->taken_sum, taken_sum);
  }
}

/// The ring's size for n vertices and m entries: every vertex once, every hub's chunks, a margin.
inline unsigned long long push_queue_capacity(vertex_t n, offset_t m) {
  return (unsigned long long)n + 2ULL * (unsigned long long)(m / queue_chunk) + 1024ULL;
}

/// Blocks that are resident together (a warp waits at its slot for another warp's item: every warp
/// must be running).
inline int push_queue_grid() {
  int per_sm = 0;
  FG_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, push_queue_kernel, queue_block, 0));
  return sm_count() * (per_sm > 0 ? per_sm : 1);
}

}  // namespace fg::detail
