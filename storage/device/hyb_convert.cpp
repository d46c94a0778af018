// Device twin of the HYB conversion in storage/reference/hyb.cpp (Bell & Garland 2009, the hybrid
// ELL/COO format): K from the sorted row lengths, tail offsets by a scan, then one thread per ELL
// slot and one per tail entry (found by binary search), so a long row cannot unbalance the fill; the
// tail's segments (its distinct rows) by a stream compaction.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/functional.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <limits>

#include "storage/detail/hyb_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/padding.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = hyb_kernels<device_space>;

// count(length >= k) >= min_rows  <=>  the min_rows-th largest length is >= k, so the largest such k
// is that length: the same K as the reference's histogram walk, with one sort instead of a histogram.
vertex_t K::hyb_width(const offset_t* row_ptr, vertex_t rows, offset_t min_rows) {
  if (min_rows > rows || min_rows < 1) return 0;
  array<offset_t, device_space> lengths(static_cast<std::size_t>(rows));
  offset_t* len = lengths.data();
  parallel_for(rows, FG_LAMBDA(std::int64_t r) { len[r] = row_ptr[r + 1] - row_ptr[r]; });
  thrust::sort(policy(), len, len + rows, thrust::greater<offset_t>());
  offset_t width = 0;
  memory::copy_to_host(&width, len + (min_rows - 1), sizeof width);
  return vertex_t(std::min<offset_t>(width, std::numeric_limits<vertex_t>::max()));
}

hyb_tail_size K::hyb_tail_offsets(const offset_t* row_ptr, vertex_t rows, vertex_t width, offset_t* tail_ptr) {
  parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t r) {
    const offset_t extra = r < rows ? row_ptr[r + 1] - row_ptr[r] - width : 0;
    tail_ptr[r] = extra > 0 ? extra : 0;
  });
  hyb_tail_size t;
  t.rows = vertex_t(thrust::count_if(policy(), tail_ptr, tail_ptr + rows, FG_LAMBDA(offset_t e) { return e > 0; }));
  thrust::exclusive_scan(policy(), tail_ptr, tail_ptr + rows + 1, tail_ptr);
  memory::copy_to_host(&t.nnz, tail_ptr + rows, sizeof t.nnz);
  return t;
}

void K::hyb_tail_rows(const offset_t* tail_ptr, vertex_t rows, offset_t tail_nnz, vertex_t tail_rows,
                      vertex_t* key, offset_t* ptr) {
  const auto first = thrust::counting_iterator<vertex_t>(0);
  const auto has_tail = FG_LAMBDA(vertex_t r) { return tail_ptr[r + 1] > tail_ptr[r]; };
  const vertex_t found = vertex_t(thrust::copy_if(policy(), first, first + rows, key, has_tail) - key);
  FG_EXPECTS(found == tail_rows, "hyb: tail row count does not match the tail");
  parallel_for(std::int64_t(tail_rows) + 1,
               FG_LAMBDA(std::int64_t m) { ptr[m] = m < tail_rows ? tail_ptr[key[m]] : tail_nnz; });
}

template <class V>
void K::hyb_fill(const csr_view<V>& A, vertex_t width, offset_t pitch, const offset_t* tail_ptr, offset_t tail_nnz,
                 vertex_t* ell_col, stored_t<V>* ell_val, vertex_t* tail_row, vertex_t* tail_col,
                 stored_t<V>* tail_val) {
  // ELL: slot t is entry k = t / pitch of row r = t % pitch; consecutive threads write consecutive slots.
  parallel_for(pitch * width, FG_LAMBDA(std::int64_t t) {
    const offset_t k = t / pitch, r = t % pitch;
    offset_t src = -1;
    if (r < A.rows && k < A.row_ptr[r + 1] - A.row_ptr[r]) src = A.row_ptr[r] + k;
    ell_col[t] = src >= 0 ? A.col[src] : hyb_padding;
    if (src >= 0) copy_value<V>(ell_val, t, A.val, src);
    else zero_value<V>(ell_val, t);
  });
  // Tail: rows without a tail repeat their offset; the last row starting at or before i holds i.
  const std::int64_t n = std::int64_t(A.rows) + 1;
  parallel_for(tail_nnz, FG_LAMBDA(std::int64_t i) {
    const std::int64_t r = last_not_greater(tail_ptr, n, offset_t(i));
    const offset_t src = A.row_ptr[r] + width + (i - tail_ptr[r]);
    tail_row[i] = vertex_t(r);
    tail_col[i] = A.col[src];
    copy_value<V>(tail_val, i, A.val, src);
  });
}

#define FG_INSTANTIATE(V)                                                                          \
  template void K::hyb_fill<V>(const csr_view<V>&, vertex_t, offset_t, const offset_t*, offset_t, \
                               vertex_t*, stored_t<V>*, vertex_t*, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
