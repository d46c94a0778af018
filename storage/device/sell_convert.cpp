// Device twin of the SELL-C-sigma conversion in storage/reference/sell.cpp (Kreutzer et al. 2014 §2):
// sigma-window sort by two stable radix sorts, chunk widths by a parallel max, offsets by a scan,
// then one thread per stored slot (padding included), so a wide chunk cannot unbalance the fill.
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include "storage/detail/kernels.hpp"
#include "storage/detail/padding.hpp"
#include "storage/detail/search.hpp"
#include "storage/detail/sell_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = sell_kernels<device_space>;

// Least-significant key first: a stable sort by descending length, then a stable sort by window.
// The result is ordered by (window, length descending, row), exactly the reference's per-window
// std::stable_sort. Two sorts instead of one packed 64-bit key because a row of a matrix with
// repeated entries may hold more than 2^32 entries, and each sort is a plain radix sort on the GPU.
void K::sell_permutation(const offset_t* row_ptr, vertex_t rows, vertex_t sigma, vertex_t* perm) {
  thrust::sequence(policy(), perm, perm + rows);
  if (sigma <= 1) return;
  array<offset_t, device_space> neg_len(static_cast<std::size_t>(rows));
  offset_t* nl = neg_len.data();
  parallel_for(rows, FG_LAMBDA(std::int64_t r) { nl[r] = row_ptr[r] - row_ptr[r + 1]; });
  thrust::stable_sort_by_key(policy(), nl, nl + rows, perm);
  if (sigma >= rows) return;  // one window
  array<vertex_t, device_space> window(static_cast<std::size_t>(rows));
  vertex_t* w = window.data();
  parallel_for(rows, FG_LAMBDA(std::int64_t s) { w[s] = perm[s] / sigma; });
  thrust::stable_sort_by_key(policy(), w, w + rows, perm);
}

offset_t K::sell_chunk_offsets(const offset_t* row_ptr, const vertex_t* perm, vertex_t rows, offset_t* chunk_ptr) {
  constexpr vertex_t C = sell_chunk_rows;
  const vertex_t chunks = (rows + C - 1) / C;
  parallel_for(std::int64_t(chunks) + 1, FG_LAMBDA(std::int64_t c) {
    offset_t width = 0;
    for (std::int64_t s = c * C; s < (c + 1) * C && s < rows; ++s) {
      const offset_t len = row_ptr[perm[s] + 1] - row_ptr[perm[s]];
      width = len > width ? len : width;
    }
    chunk_ptr[c] = width * C;  // c == chunks: no slots, 0
  });
  thrust::exclusive_scan(policy(), chunk_ptr, chunk_ptr + chunks + 1, chunk_ptr);
  offset_t total = 0;
  memory::copy_to_host(&total, chunk_ptr + chunks, sizeof total);
  return total;
}

template <class V>
void K::sell_fill(const csr_view<V>& A, const vertex_t* perm, const offset_t* chunk_ptr, offset_t padded,
                  vertex_t* col, stored_t<V>* val) {
  constexpr vertex_t C = sell_chunk_rows;
  const std::int64_t n = std::int64_t((A.rows + C - 1) / C) + 1;
  parallel_for(padded, FG_LAMBDA(std::int64_t t) {
    // Empty chunks repeat their offset; the last chunk starting at or before t is the one holding t.
    const std::int64_t c = last_not_greater(chunk_ptr, n, offset_t(t));
    const offset_t local = t - chunk_ptr[c];
    const offset_t k = local / C, s = c * C + local % C;
    offset_t src = -1;
    if (s < A.rows) {
      const offset_t b = A.row_ptr[perm[s]];
      if (k < A.row_ptr[perm[s] + 1] - b) src = b + k;
    }
    col[t] = src >= 0 ? A.col[src] : sell_padding;
    if (src >= 0) copy_value<V>(val, t, A.val, src);
    else zero_value<V>(val, t);
  });
}

#define FG_INSTANTIATE(V) \
  template void K::sell_fill<V>(const csr_view<V>&, const vertex_t*, const offset_t*, offset_t, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
