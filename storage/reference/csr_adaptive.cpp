// Reference twin of CSR-Adaptive: the same row blocks, sequentially; SpMV row by row in order.
#include "core/semiring.hpp"
#include "storage/detail/csr_adaptive_kernels.hpp"

namespace fg::detail {
using K = csr_adaptive_kernels<host_space>;

offset_t K::row_blocks(const offset_t* rp, vertex_t rows, offset_t block_nnz, vertex_t* out) {
  offset_t n = 0;
  for (offset_t r = 0; r <= rows; ++r)
    if (csr_adaptive_boundary(rp, rows, r, block_nnz)) out[n++] = vertex_t(r);
  return n;
}

template <class Sr, class V>
void K::spmv(const csr_adaptive_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (offset_t b = 0; b < A.blocks; ++b)
    for (vertex_t r = A.row_blocks[b]; r < A.row_blocks[b + 1]; ++r) {
      y[r] = row_sum<Sr, V>(A.csr.col, A.csr.val, A.csr.row_ptr[r], A.csr.row_ptr[r + 1], x);
    }
}

#define FG_INSTANTIATE(Sr, V) \
  template void K::spmv<Sr, V>(const csr_adaptive_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
