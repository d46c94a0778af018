// Portable gather of Algorithm 4 (CompactIndices), the CPU build's; storage/cuda/dcsr_compact.cu
// replaces it in the CUDA build. The entries are walked in ranges (storage/device/entry_ranges.hpp).
#include "storage/detail/kernels.hpp"
#include "storage/device/entry_ranges.hpp"

namespace fg::detail {
using K = kernels<device_space>;

template <class V>
void K::compact(const dcsr_view<V>& A, const offset_t* row_ptr, const vertex_t* order, offset_t nnz,
                vertex_t* out_col, stored_t<V>* out_val) {
  for_each_entry_ranged(A, row_ptr, A.rows, order, nnz, FG_LAMBDA(offset_t i, std::int64_t, offset_t src) {
    out_col[i] = A.col[src];
    copy_value<V>(out_val, i, A.val, src);
  });
}

#define FG_INSTANTIATE(V) \
  template void K::compact<V>(const dcsr_view<V>&, const offset_t*, const vertex_t*, offset_t, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
