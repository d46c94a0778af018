// Reference twin of SELL-C-sigma (Kreutzer et al. 2014 §2; Wik 2021 "Sliced ELLPACK and
// SELL-C-sigma"): conversion and SpMV in plain sequential loops. Device twins:
// storage/device/sell_convert.cpp, storage/device/sell_spmv_portable.cpp, storage/cuda/sell_spmv.cu.
#include <algorithm>

#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/sell_kernels.hpp"

namespace fg::detail {
using K = sell_kernels<host_space>;
constexpr vertex_t C = sell_chunk_rows;

void K::sell_permutation(const offset_t* row_ptr, vertex_t rows, vertex_t sigma, vertex_t* perm) {
  for (vertex_t r = 0; r < rows; ++r) perm[r] = r;
  if (sigma <= 1) return;
  auto len = [&](vertex_t r) { return row_ptr[r + 1] - row_ptr[r]; };
  for (offset_t b = 0; b < rows; b += sigma) {
    const offset_t e = std::min<offset_t>(rows, b + sigma);
    std::stable_sort(perm + b, perm + e, [&](vertex_t a, vertex_t c) { return len(a) > len(c); });
  }
}

offset_t K::sell_chunk_offsets(const offset_t* row_ptr, const vertex_t* perm, vertex_t rows, offset_t* chunk_ptr) {
  const vertex_t chunks = (rows + C - 1) / C;
  offset_t sum = 0;
  for (vertex_t c = 0; c < chunks; ++c) {
    chunk_ptr[c] = sum;
    offset_t width = 0;
    for (offset_t s = offset_t(c) * C; s < std::min<offset_t>(rows, offset_t(c + 1) * C); ++s)
      width = std::max(width, row_ptr[perm[s] + 1] - row_ptr[perm[s]]);
    sum += width * C;
  }
  chunk_ptr[chunks] = sum;
  return sum;
}

template <class V>
void K::sell_fill(const csr_view<V>& A, const vertex_t* perm, const offset_t* chunk_ptr, offset_t padded,
                  vertex_t* col, stored_t<V>* val) {
  (void)padded;
  const vertex_t chunks = (A.rows + C - 1) / C;
  for (vertex_t c = 0; c < chunks; ++c) {
    const offset_t width = (chunk_ptr[c + 1] - chunk_ptr[c]) / C;
    for (vertex_t i = 0; i < C; ++i) {
      const offset_t s = offset_t(c) * C + i;
      const offset_t b = s < A.rows ? A.row_ptr[perm[s]] : 0, len = s < A.rows ? A.row_ptr[perm[s] + 1] - b : 0;
      for (offset_t k = 0; k < width; ++k) {
        const offset_t t = chunk_ptr[c] + k * C + i;
        col[t] = k < len ? A.col[b + k] : sell_padding;
        if constexpr (!is_pattern_v<V>) val[t] = k < len ? A.val[b + k] : V(0);
      }
    }
  }
}

template <class Sr, class V>
void K::sell_spmv(const sell_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (vertex_t c = 0; c < A.chunks; ++c) {
    const offset_t width = (A.chunk_ptr[c + 1] - A.chunk_ptr[c]) / C;
    for (vertex_t i = 0; i < C && offset_t(c) * C + i < A.rows; ++i) {
      auto acc = Sr::zero();
      for (offset_t k = 0; k < width; ++k) {
        const offset_t j = A.chunk_ptr[c] + k * C + i;
        if (A.col[j] < 0) continue;  // padding (sell_padding) contributes nothing in any semiring
        acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
      }
      y[A.perm[offset_t(c) * C + i]] = acc;
    }
  }
}

#define FG_INSTANTIATE(V) \
  template void K::sell_fill<V>(const csr_view<V>&, const vertex_t*, const offset_t*, offset_t, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(Sr, V) \
  template void K::sell_spmv<Sr, V>(const sell_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
