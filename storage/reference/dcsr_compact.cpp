// Reference twin of storage/device/dcsr_compact.cpp: the scan of row sizes and the gather of
// Algorithm 4, plus the segment-table set-ups for blank, CSR and compacted stores.
#include <algorithm>
#include <utility>

#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = kernels<host_space>;

void K::scan_sizes(const vertex_t* sizes, vertex_t rows, offset_t* row_ptr, const vertex_t* order) {
  offset_t sum = 0;
  for (vertex_t k = 0; k < rows; ++k) {
    row_ptr[k] = sum;
    sum += sizes[order ? order[k] : k];
  }
  row_ptr[rows] = sum;
}

template <class V>
void K::compact(const dcsr_view<V>& A, const offset_t* row_ptr, const vertex_t* order, offset_t /*nnz*/,
                vertex_t* out_col, stored_t<V>* out_val) {
  for (vertex_t k = 0; k < A.rows; ++k) {
    const vertex_t r = order ? order[k] : k;
    offset_t out = row_ptr[k], left = A.sizes[r];
    for (int s = 0; s < A.nseg[r] && left > 0; ++s) {
      const offset_t b = A.seg[s * A.pitch + 2 * offset_t(r)], e = A.seg[s * A.pitch + 2 * offset_t(r) + 1];
      for (offset_t j = b; j < e && left > 0; ++j, --left, ++out) {
        out_col[out] = A.col[j];
        if constexpr (!is_pattern_v<V>) out_val[out] = A.val[j];
      }
    }
  }
}

template <class V>
bool K::rows_in_place(const dcsr_view<V>& A, const offset_t* row_ptr) {
  for (vertex_t r = 0; r < A.rows; ++r)
    if (A.sizes[r] > 0 && (A.nseg[r] != 1 || A.seg[2 * offset_t(r)] != row_ptr[r])) return false;
  return true;
}

void K::single_segments(vertex_t* sizes, std::uint8_t* nseg, offset_t* seg, vertex_t rows,
                        const offset_t* row_ptr, const vertex_t* order, bool set_sizes, const offset_t* fill,
                        offset_t base) {
  for (vertex_t k = 0; k < rows; ++k) {
    const vertex_t r = order ? order[k] : k;
    const offset_t n = row_ptr[k + 1] - row_ptr[k];
    if (set_sizes || fill) sizes[r] = vertex_t(fill ? fill[k + 1] - fill[k] : n);
    nseg[r] = n > 0 ? 1 : 0;
    seg[2 * offset_t(r)] = base + row_ptr[k];
    seg[2 * offset_t(r) + 1] = base + row_ptr[k + 1];
  }
}

void K::swap_chains(offset_t* seg, offset_t pitch, int slots, std::uint8_t* nseg, const vertex_t* rows, std::size_t m,
                    offset_t* pairs, std::uint8_t* counts) {
  for (std::size_t k = 0; k < m; ++k) {
    const offset_t r = rows[k];
    for (int s = 0; s < slots; ++s) {
      std::swap(seg[s * pitch + 2 * r], pairs[2 * (s * m + k)]);
      std::swap(seg[s * pitch + 2 * r + 1], pairs[2 * (s * m + k) + 1]);
    }
    std::swap(nseg[r], counts[k]);
  }
}

template <class V>
std::size_t K::rows_at_limit(const dcsr_view<V>& A, const vertex_t* rows, std::size_t n, vertex_t* out) {
  std::size_t m = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (rows[i] >= 0 && rows[i] < A.rows && A.nseg[rows[i]] >= A.k) out[m++] = rows[i];
  std::sort(out, out + m);
  return std::size_t(std::unique(out, out + m) - out);
}

void K::blank_segments(vertex_t* sizes, std::uint8_t* nseg, offset_t* seg, vertex_t rows, offset_t mu) {
  for (vertex_t r = 0; r < rows; ++r) {
    sizes[r] = 0;
    nseg[r] = mu > 0 ? 1 : 0;
    seg[2 * offset_t(r)] = offset_t(r) * mu;
    seg[2 * offset_t(r) + 1] = offset_t(r + 1) * mu;
  }
}

void K::expand_rows(const offset_t* row_ptr, vertex_t rows, vertex_t* out_row) {
  for (vertex_t r = 0; r < rows; ++r)
    for (offset_t j = row_ptr[r]; j < row_ptr[r + 1]; ++j) out_row[j] = r;
}

#define FG_INSTANTIATE(V)                                                                                         \
  template void K::compact<V>(const dcsr_view<V>&, const offset_t*, const vertex_t*, offset_t, vertex_t*, stored_t<V>*); \
  template bool K::rows_in_place<V>(const dcsr_view<V>&, const offset_t*);                             \
  template std::size_t K::rows_at_limit<V>(const dcsr_view<V>&, const vertex_t*, std::size_t, vertex_t*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
