// Portable CSR-Adaptive SpMV (CPU build): a parallel loop over row blocks, rows in order inside a
// block. The CUDA build compiles storage/cuda/csr_adaptive_spmv.cu instead. Twin: reference/csr_adaptive.cpp.
#include "core/semiring.hpp"
#include "storage/detail/csr_adaptive_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = csr_adaptive_kernels<device_space>;

template <class Sr, class V>
void K::spmv(const csr_adaptive_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  parallel_for(A.blocks, FG_LAMBDA(std::int64_t b) {
    for (vertex_t r = A.row_blocks[b]; r < A.row_blocks[b + 1]; ++r) {
      y[r] = row_sum<Sr, V>(A.csr.col, A.csr.val, A.csr.row_ptr[r], A.csr.row_ptr[r + 1], x);
    }
  });
}

#define FG_INSTANTIATE(Sr, V) \
  template void K::spmv<Sr, V>(const csr_adaptive_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
