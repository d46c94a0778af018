// Device timing for benchmarks: the library's device_stopwatch (CUDA events in the CUDA build, a
// host clock in the CPU build, where "device" work is OpenMP and completes before returning).
#pragma once
#include <algorithm>
#include <functional>
#include <vector>

#include "core/stopwatch.hpp"

namespace fg::bench {

class device_timer {
 public:
  /// Milliseconds the device spent on f().
  double time_ms(const std::function<void()>& f) {
    w_.start();
    f();
    w_.stop();
    return 1e3 * w_.seconds();
  }

 private:
  device_stopwatch w_;
};

/// Medians of the calls fs[k](i), timed round-robin: a round times one call of each, so a slow spell
/// of the host or the device falls on every kernel alike instead of on whichever was being timed
/// (H100: deezer's float csr_vector .. adcsr read 2-3x their double times for a few ms, while
/// cuSPARSE before them and CMRS after did not, and that one point cost the selector its 90%).
/// Warm-up: at least `warmup` rounds and 2 ms of them (after a host-side pause, a file read or a
/// reference product, the clocks have dropped and a few 10-us calls do not bring them back; H100).
/// Then at least `runs` rounds and `min_ms` of them, so a spell of a few ms is under half of them.
/// f(i) gets the round index (for rotating x).
inline std::vector<double> interleaved_medians(device_timer& t, int warmup, int runs,
                                               const std::vector<std::function<void(int)>>& fs, double min_ms = 0) {
  double ms = 0;
  for (int i = 0; i < warmup || (ms < 2.0 && i < 1000); ++i)
    for (const auto& f : fs) ms += t.time_ms([&] { f(i); });
  std::vector<std::vector<double>> v(fs.size());
  ms = 0;
  for (int i = 0; i < runs || (ms < min_ms && i < 1000); ++i)
    for (std::size_t k = 0; k < fs.size(); ++k) {
      v[k].push_back(t.time_ms([&] { fs[k](i); }));
      ms += v[k].back();
    }
  std::vector<double> med;
  for (auto& w : v) {
    std::nth_element(w.begin(), w.begin() + std::ptrdiff_t(w.size() / 2), w.end());
    med.push_back(w[w.size() / 2]);
  }
  return med;
}

/// Milliseconds a call when calls are queued back to back between one pair of events, as in a
/// read-heavy phase (a solver's or PageRank's iterations): each launch then overlaps the work before
/// it, where median_ms's single calls each pay the launch and the idle GPU's wake-up. The batch is
/// sized to ~2 ms at `single_ms` a call (at least 2 calls); the median of 5 batches (3 when a call
/// takes over 1 ms), after one batch of warm-up. f(i) gets the call's index (for rotating x).
inline double queued_ms(device_timer& t, double single_ms, const std::function<void(int)>& f) {
  const int reps = std::clamp(int(2.0 / std::max(single_ms, 1e-4)), 2, 500), batches = single_ms > 1.0 ? 3 : 5;
  std::vector<double> v;
  for (int b = 0; b <= batches; ++b) {
    const double ms = t.time_ms([&] {
      for (int i = 0; i < reps; ++i) f(i);
    });
    if (b > 0) v.push_back(ms / reps);
  }
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}

/// The median of `runs` timings of one call, after the warm-up above.
inline double median_ms(device_timer& t, int warmup, int runs, const std::function<void(int)>& f) {
  return interleaved_medians(t, warmup, runs, {f})[0];
}

}  // namespace fg::bench
