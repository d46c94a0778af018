// Device time of a stretch of work, without waiting for it: CUDA events in the CUDA build (the
// calibration's times are events too, so a measurement and the model's figure compare directly), a
// host clock in the CPU build (where device work is OpenMP and has finished when a call returns).
// Why not a host clock after a wait everywhere: on the GPU host that wait adds a launch and a round
// trip, 5-10 us, which is most of a small graph's read (loc-Brightkite: 0.0158 ms measured that way,
// 0.0086 by events), and the wait itself stalls the work that follows.
#pragma once

namespace fg {

class device_stopwatch {
 public:
  device_stopwatch();
  ~device_stopwatch();
  device_stopwatch(const device_stopwatch&) = delete;
  device_stopwatch& operator=(const device_stopwatch&) = delete;

  void start();  ///< marks the device's position in the work now queued
  void stop();
  /// Seconds between start() and stop(); waits for stop()'s mark if the device has not reached it
  /// (none when the caller has synchronized since). Throws fg::invalid_argument before start/stop.
  double seconds();

 private:
  void* a_ = nullptr;
  void* b_ = nullptr;
  double t0_ = -1, t1_ = -1;  // host clock (CPU build); -1 = not marked
};

}  // namespace fg
