// Reference twins of SURAA (storage/device/suraa_convert.cpp, storage/device/suraa_spmv_portable.cpp,
// storage/cuda/suraa_spmv.cu): a stable sort, plain loops, and an SpMV that walks the segments of
// every group one sorted row at a time, entries in stored order.
#include <algorithm>
#include <numeric>

#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/suraa_kernels.hpp"

namespace fg::detail {
using K = suraa_kernels<host_space>;

void K::suraa_sort_rows(const offset_t* row_ptr, vertex_t rows, vertex_t* perm, offset_t* npr) {
  std::iota(perm, perm + rows, vertex_t(0));
  std::stable_sort(perm, perm + rows, [&](vertex_t a, vertex_t b) {
    return row_ptr[a + 1] - row_ptr[a] > row_ptr[b + 1] - row_ptr[b];
  });
  for (vertex_t i = 0; i < rows; ++i) npr[i] = row_ptr[perm[i] + 1] - row_ptr[perm[i]];
}

template <class V>
void K::suraa_rearrange(const csr_view<V>& A, const vertex_t* perm, const offset_t* row_ptr, vertex_t* col,
                        stored_t<V>* val) {
  for (vertex_t i = 0; i < A.rows; ++i) {
    const offset_t src = A.row_ptr[perm[i]];
    for (offset_t k = 0; k < row_ptr[i + 1] - row_ptr[i]; ++k) {
      col[row_ptr[i] + k] = A.col[src + k];
      copy_value<V>(val, row_ptr[i] + k, A.val, src + k);
    }
  }
}

void K::suraa_read(const offset_t* a, const offset_t* pos, std::size_t n, offset_t* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = a[pos[i]];
}

template <class Sr, class V>
void K::suraa_spmv(const suraa_view<V>& A, const suraa_segment* seg, std::size_t nseg, bool,
                   const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (std::size_t s = 0; s < nseg; ++s)
    for (vertex_t i = seg[s].begin; i < seg[s].end; ++i) {
      y[A.perm[i]] = row_sum<Sr, V>(A.col, A.val, A.row_ptr[i], A.row_ptr[i + 1], x);
    }
}

#define FG_INSTANTIATE_V(V) \
  template void K::suraa_rearrange<V>(const csr_view<V>&, const vertex_t*, const offset_t*, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE_V)
#undef FG_INSTANTIATE_V
#define FG_INSTANTIATE(Sr, V)                                                                       \
  template void K::suraa_spmv<Sr, V>(const suraa_view<V>&, const suraa_segment*, std::size_t, bool, \
                                     const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
