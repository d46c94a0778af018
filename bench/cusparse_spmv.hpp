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

/// cuSPARSE's cusparseSpMM on CSR (double): Y = A X for k dense vectors, X and Y n x k, row-major
/// (entry v * k + j, as the engine's k-vector read takes them) or column-major (a vector after
/// another); CUSPARSE_SPMM_ALG_DEFAULT, buffers allocated once.
class cusparse_spmm {
 public:
  cusparse_spmm(const csr_matrix<double, device_space>& A, int k, bool row_major);
  ~cusparse_spmm();
  cusparse_spmm(const cusparse_spmm&) = delete;
  cusparse_spmm& operator=(const cusparse_spmm&) = delete;
  void run(const array<double, device_space>& X, array<double, device_space>& Y);

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace fg::bench
