// A set of CUDA streams for one SpMV call (SURAA Algorithm 1: a stream per segment; ADCSR: a stream
// per bin). Streams are created blocking (cudaStreamCreate), so their kernels wait for earlier work on
// the legacy default stream, where Thrust and the other kernels produced x; they still overlap with
// each other. finish() synchronizes and destroys them; the destructor only cleans up after an error.
#pragma once
#include <cuda_runtime.h>

#include <vector>

#include "core/cuda_check.hpp"

namespace fg::detail {

class stream_set {
 public:
  explicit stream_set(std::size_t n) {
    s_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      cudaStream_t s = nullptr;
      FG_CUDA_TRY(cudaStreamCreate(&s));  // on failure the destructor destroys those made so far
      s_.push_back(s);
    }
  }
  stream_set(const stream_set&) = delete;
  stream_set& operator=(const stream_set&) = delete;
  ~stream_set() {
    for (cudaStream_t s : s_) {
      try {
        FG_CUDA_TRY(cudaStreamDestroy(s));
      } catch (...) {  // already unwinding from the error that matters
      }
    }
  }

  cudaStream_t operator[](std::size_t i) const { return s_[i]; }
  std::size_t size() const { return s_.size(); }

  /// Waits for every stream, then destroys them; surfaces asynchronous kernel errors.
  void finish() {
    for (cudaStream_t s : s_) FG_CUDA_TRY(cudaStreamSynchronize(s));
    std::vector<cudaStream_t> done;
    done.swap(s_);
    for (cudaStream_t s : done) FG_CUDA_TRY(cudaStreamDestroy(s));
  }

 private:
  std::vector<cudaStream_t> s_;
};

}  // namespace fg::detail
