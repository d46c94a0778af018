// Device twin of CSR-Adaptive's row-block cut: one predicate per row, a stream compaction.
#include <thrust/copy.h>

#include "storage/detail/csr_adaptive_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {

offset_t csr_adaptive_kernels<device_space>::row_blocks(const offset_t* rp, vertex_t rows, offset_t block_nnz,
                                                         vertex_t* out) {
  auto first = thrust::counting_iterator<vertex_t>(0);
  auto pred = FG_LAMBDA(vertex_t r) { return csr_adaptive_boundary(rp, rows, r, block_nnz); };
  return offset_t(thrust::copy_if(policy(), first, first + rows + 1, out, pred) - out);
}

}  // namespace fg::detail
