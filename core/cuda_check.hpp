// FG_CUDA_TRY: every CUDA runtime call goes through this; failures become fg::cuda_error with file:line.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

#include "core/error.hpp"

#define FG_CUDA_TRY(call)                                                                    \
  do {                                                                                       \
    cudaError_t fg_err_ = (call);                                                            \
    if (fg_err_ != cudaSuccess) {                                                            \
      (void)cudaGetLastError(); /* a non-sticky error must not resurface at the next check */ \
      throw ::fg::cuda_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + \
                             #call + ": " + cudaGetErrorString(fg_err_));                    \
    }                                                                                        \
  } while (0)

/// After a kernel launch: configuration errors surface here, execution errors at the next sync.
#define FG_CUDA_CHECK_LAUNCH() FG_CUDA_TRY(cudaGetLastError())

namespace fg {
/// Streaming multiprocessors of the device in use (asked once: a process uses one device), for
/// grids sized to fill the GPU.
inline int sm_count() {
  static const int n = [] {
    int dev = 0, sms = 0;
    FG_CUDA_TRY(cudaGetDevice(&dev));
    FG_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return sms;
  }();
  return n;
}
}  // namespace fg
