// Reference twin of the vertex renumbering (storage/reorder.hpp): plain sequential loops, the oracle
// of storage/device/reorder.cpp.
#include <algorithm>
#include <cstdint>

#include "storage/detail/kernels.hpp"
#include "storage/detail/reorder_kernels.hpp"

namespace fg::detail {
using K = reorder_kernels<host_space>;

void K::column_counts(const vertex_t* col, offset_t nnz, vertex_t n, offset_t* count) {
  std::fill(count, count + n, offset_t(0));
  for (offset_t i = 0; i < nnz; ++i) ++count[col[i]];
}

void K::grouped_order(const offset_t* count, vertex_t n, vertex_t* old_of_new, vertex_t* new_of_old) {
  for (vertex_t v = 0; v < n; ++v) old_of_new[v] = v;
  std::stable_sort(old_of_new, old_of_new + n,
                   [&](vertex_t a, vertex_t b) { return reorder_key(count[a]) < reorder_key(count[b]); });
  for (vertex_t p = 0; p < n; ++p) new_of_old[old_of_new[p]] = p;
}

void K::permuted_row_ptr(const offset_t* row_ptr, const vertex_t* old_of_new, vertex_t n, offset_t* out_ptr) {
  out_ptr[0] = 0;
  for (vertex_t p = 0; p < n; ++p) out_ptr[p + 1] = out_ptr[p] + row_ptr[old_of_new[p] + 1] - row_ptr[old_of_new[p]];
}

template <class V>
void K::permuted_fill(const csr_view<V>& A, const vertex_t* old_of_new, const vertex_t* new_of_old,
                      const offset_t* out_ptr, vertex_t* col, stored_t<V>* val) {
  for (vertex_t p = 0; p < A.rows; ++p) {
    const offset_t b = A.row_ptr[old_of_new[p]];
    for (offset_t k = 0; k < out_ptr[p + 1] - out_ptr[p]; ++k) {
      col[out_ptr[p] + k] = new_of_old[A.col[b + k]];
      if constexpr (!is_pattern_v<V>) val[out_ptr[p] + k] = A.val[b + k];
    }
  }
}

template <class T>
void K::gather(const vertex_t* idx, vertex_t n, const T* in, T* out) {
  for (vertex_t p = 0; p < n; ++p) out[p] = in[idx[p]];
}

template <class T>
void K::scatter(const vertex_t* idx, vertex_t n, const T* in, T* out) {
  for (vertex_t p = 0; p < n; ++p) out[idx[p]] = in[p];
}

#define FG_INSTANTIATE(V)                                                                                 \
  template void K::permuted_fill<V>(const csr_view<V>&, const vertex_t*, const vertex_t*, const offset_t*, \
                                    vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(T)                                                        \
  template void K::gather<T>(const vertex_t*, vertex_t, const T*, T*);           \
  template void K::scatter<T>(const vertex_t*, vertex_t, const T*, T*);
FG_FOR_EACH_ORDERED_VECTOR(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
