// Portable merge-path CSR SpMV (CPU build): a parallel loop over the same tiles, each computing the
// rows that END in it, whole (a row cut by earlier tiles is read from its start). Balanced by rows +
// nonzeros like the CUDA kernel except for a row spanning many tiles, which its last tile computes
// alone; no carries, so nothing is shared between threads. The CUDA build compiles
// storage/cuda/csr_merge_spmv.cu instead. Twin: storage/reference/csr_merge.cpp.
#include "core/semiring.hpp"
#include "storage/detail/csr_merge_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = csr_merge_kernels<device_space>;

template <class Sr, class V, class X>
void K::spmv(const csr_merge_view<V>& A, const X* x, typename Sr::value_type* y) {
  parallel_for(A.tiles, FG_LAMBDA(std::int64_t t) {
    const csr_view<V>& M = A.csr;
    for (offset_t r = A.coords[t].row; r < A.coords[t + 1].row; ++r)
      y[r] = row_sum<Sr, V, X>(M.col, M.val, M.row_ptr[r], M.row_ptr[r + 1], x);
  });
}

#define FG_CSR_MERGE_INSTANCE(Sr, V, X) template void K::spmv<Sr, V, X>(const csr_merge_view<V>&, const X*, Sr::value_type*);
FG_CSR_MERGE_SPMVS
#undef FG_CSR_MERGE_INSTANCE

}  // namespace fg::detail
