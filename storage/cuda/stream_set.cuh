// Streams for one multi-kernel SpMV call (SURAA Algorithm 1: a stream per segment; ADCSR: a stream
// per bin), taken from a per-device pool that is created once per process and reused by every call.
// Creating and destroying streams per call cost ~8-10 us per stream on an H100 (docs/perf-journal.md,
// 2026-11-22): more than a whole SpMV on a small graph.
//
// Ordering: pooled streams are blocking streams (cudaStreamCreate, as before), so their kernels wait
// for earlier work on the legacy default stream, where Thrust and the other kernels produced x, and
// later default-stream work waits for them; they still overlap with each other. finish() waits for
// every stream of the set, so the SpMV is complete when spmv() returns (as before).
//
// Sharing: the pool is per device and per process; concurrent calls from several host threads share
// its streams, which only serialises their kernels (each call still waits for all of its own work).
// The pool holds at most stream_pool_max streams; a set asking for more reuses them round-robin
// (kernels on one stream simply run in order). Streams are never destroyed: the pool is leaked on
// purpose, since at static-destruction time the CUDA runtime may already be gone; the process exit
// releases them with the context. (A cudaDeviceReset would invalidate them; fluxgraph never calls it.)
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/cuda_check.hpp"

namespace fg::detail {

/// Most streams kept per device: the hardware has at most 32 work queues (CUDA_DEVICE_MAX_CONNECTIONS,
/// default 8), so more streams add no concurrency.
inline constexpr std::size_t stream_pool_max = 32;

/// A launch with at most this many entries of work (nonzeros + rows) is "small": it cannot keep an
/// H100 busy beyond its launch latency, so it gains nothing from a stream of its own. All small
/// launches of a call share one stream (in order), which saves a stream sync each.
inline constexpr std::int64_t small_launch_work = std::int64_t(1) << 16;

inline bool small_launch(std::int64_t work) { return work <= small_launch_work; }

/// The first n (<= stream_pool_max) streams of the current device's pool, created on first use.
inline void pooled_streams(std::size_t n, std::vector<cudaStream_t>& out) {
  static std::mutex* lock = new std::mutex;  // leaked with the pool: no static destructor runs
  static std::vector<std::vector<cudaStream_t>>* pool = new std::vector<std::vector<cudaStream_t>>;
  int device = 0;
  FG_CUDA_TRY(cudaGetDevice(&device));
  std::lock_guard<std::mutex> guard(*lock);
  if (pool->size() <= std::size_t(device)) pool->resize(std::size_t(device) + 1);
  std::vector<cudaStream_t>& mine = (*pool)[std::size_t(device)];
  while (mine.size() < n) {
    cudaStream_t s = nullptr;
    FG_CUDA_TRY(cudaStreamCreate(&s));  // blocking: ordered after the legacy default stream
    mine.push_back(s);
  }
  out.assign(mine.begin(), mine.begin() + std::ptrdiff_t(n));
}

class stream_set {
 public:
  /// n streams' worth of launches; holds min(n, stream_pool_max) pooled streams.
  explicit stream_set(std::size_t n) {
    if (n > 0) pooled_streams(n < stream_pool_max ? n : stream_pool_max, s_);
  }
  stream_set(const stream_set&) = delete;
  stream_set& operator=(const stream_set&) = delete;
  /// After an error: wait for what was already launched (so no kernel of this call still runs when
  /// the exception reaches the caller), ignoring errors; the streams stay in the pool.
  ~stream_set() {
    if (finished_) return;
    for (cudaStream_t s : s_) (void)cudaStreamSynchronize(s);
  }

  /// Stream of launch i (round-robin over the held streams).
  cudaStream_t operator[](std::size_t i) const { return s_[i % s_.size()]; }
  std::size_t size() const { return s_.size(); }

  /// Waits for every stream of the set; surfaces asynchronous kernel errors.
  void finish() {
    finished_ = true;
    for (cudaStream_t s : s_) FG_CUDA_TRY(cudaStreamSynchronize(s));
  }

 private:
  std::vector<cudaStream_t> s_;
  bool finished_ = false;
};

}  // namespace fg::detail
