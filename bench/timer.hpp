// Device timing for benchmarks: CUDA events in the CUDA build, a host clock after a device sync in
// the CPU build (where "device" work is OpenMP and completes before returning).
#pragma once
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#include "core/memory.hpp"

#if defined(FG_WITH_CUDA)
#include <cuda_runtime_api.h>

#include "core/cuda_check.hpp"
#endif

namespace fg::bench {

class device_timer {
 public:
  device_timer() {
#if defined(FG_WITH_CUDA)
    FG_CUDA_TRY(cudaEventCreate(&a_));
    FG_CUDA_TRY(cudaEventCreate(&b_));
#endif
  }
  ~device_timer() {
#if defined(FG_WITH_CUDA)
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
#endif
  }
  device_timer(const device_timer&) = delete;
  device_timer& operator=(const device_timer&) = delete;

  /// Milliseconds the device spent on f().
  double time_ms(const std::function<void()>& f) {
#if defined(FG_WITH_CUDA)
    FG_CUDA_TRY(cudaEventRecord(a_));
    f();
    FG_CUDA_TRY(cudaEventRecord(b_));
    FG_CUDA_TRY(cudaEventSynchronize(b_));
    float ms = 0;
    FG_CUDA_TRY(cudaEventElapsedTime(&ms, a_, b_));
    return ms;
#else
    memory::synchronize();
    auto t = std::chrono::steady_clock::now();
    f();
    memory::synchronize();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
#endif
  }

 private:
#if defined(FG_WITH_CUDA)
  cudaEvent_t a_{}, b_{};
#endif
};

/// Median of `runs` timings after at least `warmup` untimed calls and 2 ms of them: after a host-side
/// pause (a file read, a reference product) the clocks have dropped, and a few 10-us calls do not
/// bring them back (run 30: wiki-Vote's first float kernels read 1.6-2.2x their double times, and
/// that one point misled the selector on 5 neighbours). f(i) gets the run index (for rotation).
inline double median_ms(device_timer& t, int warmup, int runs, const std::function<void(int)>& f) {
  double warm_ms = 0;
  for (int i = 0; i < warmup || (warm_ms < 2.0 && i < 1000); ++i) warm_ms += t.time_ms([&] { f(i); });
  std::vector<double> v;
  for (int i = 0; i < runs; ++i) v.push_back(t.time_ms([&] { f(i); }));
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

}  // namespace fg::bench
