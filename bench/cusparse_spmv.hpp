// cuSPARSE's cusparseSpMV on CSR (default algorithm), the baseline of the SpMV benchmark. CUDA
// build only; 32-bit row offsets and column indices (its fast path), buffers allocated once.
#pragma once
#include <memory>

#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg::bench {

template <class V>  // float or double
class cusparse_csr {
 public:
  explicit cusparse_csr(const csr_matrix<V, device_space>& A);
  ~cusparse_csr();
  cusparse_csr(const cusparse_csr&) = delete;
  cusparse_csr& operator=(const cusparse_csr&) = delete;
  /// y = A x (alpha = 1, beta = 0).
  void run(const array<V, device_space>& x, array<V, device_space>& y);

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace fg::bench
