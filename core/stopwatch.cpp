// device_stopwatch (core/stopwatch.hpp).
#include "core/stopwatch.hpp"

#include <chrono>

#include "core/error.hpp"

#if defined(FG_WITH_CUDA)
#include <cuda_runtime_api.h>

#include "core/cuda_check.hpp"
#endif

namespace fg {

#if defined(FG_WITH_CUDA)
device_stopwatch::device_stopwatch() {
  cudaEvent_t a, b;
  FG_CUDA_TRY(cudaEventCreate(&a));
  FG_CUDA_TRY(cudaEventCreate(&b));
  a_ = a;
  b_ = b;
}
device_stopwatch::~device_stopwatch() {
  cudaEventDestroy(cudaEvent_t(a_));  // a destructor cannot report; nothing is left to clean
  cudaEventDestroy(cudaEvent_t(b_));
}
void device_stopwatch::start() {
  FG_CUDA_TRY(cudaEventRecord(cudaEvent_t(a_)));
  t0_ = 0;
}
void device_stopwatch::stop() {
  FG_CUDA_TRY(cudaEventRecord(cudaEvent_t(b_)));
  t1_ = 0;
}
double device_stopwatch::seconds() {
  FG_EXPECTS(t0_ >= 0 && t1_ >= 0, "device_stopwatch: seconds() before start() and stop()");
  FG_CUDA_TRY(cudaEventSynchronize(cudaEvent_t(b_)));
  float ms = 0;
  FG_CUDA_TRY(cudaEventElapsedTime(&ms, cudaEvent_t(a_), cudaEvent_t(b_)));
  return 1e-3 * double(ms);
}
#else
namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace
device_stopwatch::device_stopwatch() = default;
device_stopwatch::~device_stopwatch() = default;
void device_stopwatch::start() { t0_ = now(); }
void device_stopwatch::stop() { t1_ = now(); }
double device_stopwatch::seconds() {
  FG_EXPECTS(t0_ >= 0 && t1_ >= 0, "device_stopwatch: seconds() before start() and stop()");
  return t1_ - t0_;
}
#endif

}  // namespace fg
