// Portable twin of CSR-scalar SpMV for the CPU build (OpenMP through Thrust): a loop iteration per
// row, which is what the CUDA kernel's thread per row is. The CUDA build compiles
// storage/cuda/csr_scalar_spmv.cu instead (same symbols). Reference twin: storage/reference/csr_scalar.cpp.
#include "core/semiring.hpp"
#include "storage/detail/csr_scalar_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = csr_scalar_kernels<device_space>;

template <class Sr, class V>
void K::csr_scalar_spmv(const csr_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  parallel_for(A.rows, FG_LAMBDA(std::int64_t r) {
    y[r] = row_sum<Sr, V>(A.col, A.val, A.row_ptr[r], A.row_ptr[r + 1], x);
  });
}

#define FG_INSTANTIATE(Sr, V) \
  template void K::csr_scalar_spmv<Sr, V>(const csr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
