// Portable gather of Algorithm 4 (CompactIndices); storage/cuda/dcsr_compact.cu replaces it in the
// CUDA build. One thread per output entry finds its row by binary search over the new row offsets
// and its source through the row's segments, so long rows cannot unbalance the gather.
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = kernels<device_space>;

template <class V>
void K::compact(const dcsr_view<V>& A, const offset_t* row_ptr, const vertex_t* order, offset_t nnz,
                vertex_t* out_col, stored_t<V>* out_val) {
  const std::int64_t n = std::int64_t(A.rows) + 1;
  parallel_for(nnz, FG_LAMBDA(std::int64_t i) {
    const vertex_t k = vertex_t(last_not_greater(row_ptr, n, offset_t(i)));
    const offset_t src = A.locate(order ? order[k] : k, i - row_ptr[k]);
    out_col[i] = A.col[src];
    copy_value<V>(out_val, i, A.val, src);
  });
}

#define FG_INSTANTIATE(V) \
  template void K::compact<V>(const dcsr_view<V>&, const offset_t*, const vertex_t*, offset_t, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
