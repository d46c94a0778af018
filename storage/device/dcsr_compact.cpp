// Device twin of storage/reference/dcsr_compact.cpp (King et al. 2016, Algorithm 4): the exclusive
// scan of row sizes and the segment-table set-ups. The gather itself is in dcsr_compact_portable.cpp
// (storage/cuda/dcsr_compact.cu in the CUDA build).
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = kernels<device_space>;

void K::scan_sizes(const vertex_t* sizes, vertex_t rows, offset_t* row_ptr, const vertex_t* order) {
  parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t k) {
    row_ptr[k] = k < rows ? sizes[order ? order[k] : k] : 0;
  });
  thrust::exclusive_scan(policy(), row_ptr, row_ptr + rows + 1, row_ptr);
}

template <class V>
bool K::rows_in_place(const dcsr_view<V>& A, const offset_t* row_ptr) {
  return thrust::count_if(policy(), thrust::counting_iterator<std::int64_t>(0),
                          thrust::counting_iterator<std::int64_t>(A.rows), FG_LAMBDA(std::int64_t r) {
                            return A.sizes[r] > 0 && (A.nseg[r] != 1 || A.seg[2 * r] != row_ptr[r]);
                          }) == 0;
}

void K::single_segments(vertex_t* sizes, std::uint8_t* nseg, offset_t* seg, vertex_t rows,
                        const offset_t* row_ptr, const vertex_t* order, bool set_sizes, const offset_t* fill,
                        offset_t base) {
  parallel_for(rows, FG_LAMBDA(std::int64_t k) {
    const std::int64_t r = order ? order[k] : k;
    const offset_t n = row_ptr[k + 1] - row_ptr[k];
    if (set_sizes || fill) sizes[r] = vertex_t(fill ? fill[k + 1] - fill[k] : n);
    nseg[r] = n > 0 ? 1 : 0;
    seg[2 * r] = base + row_ptr[k];
    seg[2 * r + 1] = base + row_ptr[k + 1];
  });
}

void K::swap_chains(offset_t* seg, offset_t pitch, int slots, std::uint8_t* nseg, const vertex_t* rows, std::size_t m,
                    offset_t* pairs, std::uint8_t* counts) {
  const std::int64_t n = std::int64_t(m);
  parallel_for(n, FG_LAMBDA(std::int64_t k) {
    const std::int64_t r = rows[k];  // distinct rows: no two k write one row
    for (int s = 0; s < slots; ++s)
      for (int h = 0; h < 2; ++h) {
        const offset_t t = seg[s * pitch + 2 * r + h];
        seg[s * pitch + 2 * r + h] = pairs[2 * (s * n + k) + h];
        pairs[2 * (s * n + k) + h] = t;
      }
    const std::uint8_t c = nseg[r];
    nseg[r] = counts[k];
    counts[k] = c;
  });
}

template <class V>
std::size_t K::rows_at_limit(const dcsr_view<V>& A, const vertex_t* rows, std::size_t n, vertex_t* out) {
  vertex_t* end = thrust::copy_if(policy(), rows, rows + n, out, FG_LAMBDA(vertex_t r) {
    return r >= 0 && r < A.rows && A.nseg[r] >= A.k;
  });
  thrust::sort(policy(), out, end);
  return std::size_t(thrust::unique(policy(), out, end) - out);
}

void K::blank_segments(vertex_t* sizes, std::uint8_t* nseg, offset_t* seg, vertex_t rows, offset_t mu) {
  parallel_for(rows, FG_LAMBDA(std::int64_t r) {
    sizes[r] = 0;
    nseg[r] = mu > 0 ? 1 : 0;
    seg[2 * r] = r * mu;
    seg[2 * r + 1] = (r + 1) * mu;
  });
}

void K::expand_rows(const offset_t* row_ptr, vertex_t rows, vertex_t* out_row) {
  offset_t nnz = 0;
  memory::copy_to_host(&nnz, row_ptr + rows, sizeof nnz);
  const std::int64_t n = std::int64_t(rows) + 1;
  parallel_for(nnz, FG_LAMBDA(std::int64_t i) { out_row[i] = vertex_t(last_not_greater(row_ptr, n, offset_t(i))); });
}

#define FG_INSTANTIATE(V)                                                \
  template bool K::rows_in_place<V>(const dcsr_view<V>&, const offset_t*); \
  template std::size_t K::rows_at_limit<V>(const dcsr_view<V>&, const vertex_t*, std::size_t, vertex_t*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
