// CSR-Adaptive orchestration: copy, cut into row blocks, SpMV dispatch (kernels in the twins).
#include "storage/csr_adaptive.hpp"

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/csr_adaptive_kernels.hpp"

namespace fg {

template <class V, class S>
csr_adaptive_matrix<V, S> to_csr_adaptive(const csr_matrix<V, S>& A, const csr_adaptive_options& o) {
  FG_EXPECTS(o.block_nnz >= 32 && o.block_nnz <= csr_adaptive_max_block_nnz,
             "csr_adaptive: block_nnz must be in [32, 2048] (row blocks are staged in shared memory)");
  csr_adaptive_matrix<V, S> m;
  m.csr = clone_csr<S>(A);
  m.block_nnz = o.block_nnz;
  array<vertex_t, S> b(std::size_t(A.rows) + 1);
  const offset_t count = detail::csr_adaptive_kernels<S>::row_blocks(m.csr.row_ptr.data(), A.rows, o.block_nnz, b.data());
  m.blocks = count - 1;
  m.row_blocks = array<vertex_t, S>(std::size_t(count));
  copy_prefix(m.row_blocks, b, std::size_t(count));
  return m;
}

template <class Sr, class V, class S>
void spmv(const csr_adaptive_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.csr.rows, A.csr.cols);
  if (A.blocks > 0) detail::csr_adaptive_kernels<S>::template spmv<Sr>(A.view(), x.data(), y.data());
}

#define FG_CONVERT(V)                                                                                          \
  template csr_adaptive_matrix<V, host_space> to_csr_adaptive(const csr_matrix<V, host_space>&, const csr_adaptive_options&); \
  template csr_adaptive_matrix<V, device_space> to_csr_adaptive(const csr_matrix<V, device_space>&, const csr_adaptive_options&);
FG_FOR_EACH_VALUE(FG_CONVERT)
#undef FG_CONVERT
#define FG_SPMV_FORMAT csr_adaptive_matrix
FG_FOR_EACH_SPMV(FG_SPMV_OF_FORMAT)
#undef FG_SPMV_FORMAT

}  // namespace fg
