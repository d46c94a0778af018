// Reference twin of HYB (Bell & Garland 2009, the hybrid ELL/COO format): the K rule on the
// row-length histogram, conversion and SpMV in plain sequential loops. Device twins:
// storage/device/hyb_convert.cpp, storage/device/hyb_spmv_portable.cpp, storage/cuda/hyb_spmv.cu.
#include <algorithm>
#include <limits>
#include <vector>

#include "core/semiring.hpp"
#include "storage/detail/hyb_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = hyb_kernels<host_space>;

// The walk of CUSP's compute_optimal_entries_per_row: grow K while the rows of length >= K + 1 are
// still at least min_rows.
vertex_t K::hyb_width(const offset_t* row_ptr, vertex_t rows, offset_t min_rows) {
  offset_t max_len = 0;
  for (vertex_t r = 0; r < rows; ++r) max_len = std::max(max_len, row_ptr[r + 1] - row_ptr[r]);
  max_len = std::min<offset_t>(max_len, std::numeric_limits<vertex_t>::max());
  std::vector<offset_t> histogram(std::size_t(max_len) + 1, 0);  // rows of each length
  for (vertex_t r = 0; r < rows; ++r) ++histogram[std::size_t(std::min(max_len, row_ptr[r + 1] - row_ptr[r]))];
  vertex_t width = 0;
  offset_t longer = rows;  // rows of length >= width + 1
  for (offset_t k = 0; k < max_len; ++k) {
    longer -= histogram[std::size_t(k)];
    if (longer < min_rows) break;
    width = vertex_t(k + 1);
  }
  return width;
}

hyb_tail_size K::hyb_tail_offsets(const offset_t* row_ptr, vertex_t rows, vertex_t width, offset_t* tail_ptr) {
  hyb_tail_size t;
  for (vertex_t r = 0; r < rows; ++r) {
    tail_ptr[r] = t.nnz;
    const offset_t extra = std::max<offset_t>(0, row_ptr[r + 1] - row_ptr[r] - width);
    t.nnz += extra;
    t.rows += extra > 0 ? 1 : 0;
  }
  tail_ptr[rows] = t.nnz;
  return t;
}

void K::hyb_tail_rows(const offset_t* tail_ptr, vertex_t rows, offset_t tail_nnz, vertex_t tail_rows,
                      vertex_t* key, offset_t* ptr) {
  vertex_t m = 0;
  for (vertex_t r = 0; r < rows; ++r) {
    if (tail_ptr[r + 1] == tail_ptr[r]) continue;
    FG_EXPECTS(m < tail_rows, "hyb: more tail rows than counted");
    key[m] = r;
    ptr[m++] = tail_ptr[r];
  }
  FG_EXPECTS(m == tail_rows, "hyb: tail row count does not match the tail");
  ptr[m] = tail_nnz;
}

template <class V>
void K::hyb_fill(const csr_view<V>& A, vertex_t width, offset_t pitch, const offset_t* tail_ptr, offset_t tail_nnz,
                 vertex_t* ell_col, stored_t<V>* ell_val, vertex_t* tail_row, vertex_t* tail_col,
                 stored_t<V>* tail_val) {
  (void)tail_nnz;
  for (offset_t r = 0; r < pitch; ++r) {
    const offset_t b = r < A.rows ? A.row_ptr[r] : 0, len = r < A.rows ? A.row_ptr[r + 1] - b : 0;
    for (offset_t k = 0; k < width; ++k) {
      const offset_t t = k * pitch + r;
      ell_col[t] = k < len ? A.col[b + k] : hyb_padding;
      if constexpr (!is_pattern_v<V>) ell_val[t] = k < len ? A.val[b + k] : V(0);
    }
    for (offset_t p = 0; r < A.rows && p < tail_ptr[r + 1] - tail_ptr[r]; ++p) {
      const offset_t i = tail_ptr[r] + p, src = b + width + p;
      tail_row[i] = vertex_t(r);
      tail_col[i] = A.col[src];
      if constexpr (!is_pattern_v<V>) tail_val[i] = A.val[src];
    }
  }
}

template <class Sr, class V>
void K::hyb_ell_spmv(const hyb_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (vertex_t r = 0; r < A.rows; ++r) {
    auto acc = Sr::zero();
    for (offset_t k = 0; k < A.ell_width; ++k) {
      const offset_t j = k * A.pitch + r;
      if (A.ell_col[j] < 0) continue;  // padding (hyb_padding) contributes nothing in any semiring
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.ell_val, j, Sr::pattern_value()), x[A.ell_col[j]]));
    }
    y[r] = acc;
  }
}

// Sequential segmented reduction over the segments fixed at conversion, combined into y.
template <class Sr, class V>
void K::hyb_tail_spmv(const hyb_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (vertex_t m = 0; m < A.tail_rows; ++m) {
    auto acc = Sr::zero();
    for (offset_t i = A.tail_row_ptr[m]; i < A.tail_row_ptr[m + 1]; ++i)
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.tail_val, i, Sr::pattern_value()), x[A.tail_col[i]]));
    const vertex_t r = A.tail_row_key[m];
    y[r] = Sr::add(y[r], acc);
  }
}

#define FG_INSTANTIATE(V)                                                                          \
  template void K::hyb_fill<V>(const csr_view<V>&, vertex_t, offset_t, const offset_t*, offset_t, \
                               vertex_t*, stored_t<V>*, vertex_t*, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(Sr, V)                                                                          \
  template void K::hyb_ell_spmv<Sr, V>(const hyb_view<V>&, const Sr::value_type*, Sr::value_type*);   \
  template void K::hyb_tail_spmv<Sr, V>(const hyb_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
