// Reference twins of the CMRS conversion (storage/device/cmrs_convert.cpp) and SpMV
// (storage/cuda/cmrs_spmv.cu, storage/device/cmrs_spmv_portable.cpp): plain loops, strip by strip.
// Layouts as in storage/cmrs.hpp.
#include <algorithm>
#include <utility>
#include <vector>

#include "core/semiring.hpp"
#include "storage/detail/cmrs_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = cmrs_kernels<host_space>;

namespace {
offset_t first_row(offset_t s, int height, vertex_t rows) { return std::min(s * height, offset_t(rows)); }
}  // namespace

template <class V>
offset_t K::strip_layout(const csr_view<V>& A, int height, bool modified, offset_t strips, offset_t* strip_ptr) {
  offset_t sum = 0;
  for (offset_t s = 0; s < strips; ++s) {
    const offset_t b = first_row(s, height, A.rows), e = first_row(s + 1, height, A.rows);
    strip_ptr[s] = modified ? sum : A.row_ptr[b];
    if (!modified) continue;
    offset_t longest = 0;
    for (offset_t r = b; r < e; ++r) longest = std::max(longest, A.row_ptr[r + 1] - A.row_ptr[r]);
    sum += cmrs_warp * cmrs_windows(A.row_ptr[e] - A.row_ptr[b], longest);
  }
  strip_ptr[strips] = modified ? sum : A.row_ptr[A.rows];
  return strip_ptr[strips];
}

template <class V>
void K::fill_strips(const csr_view<V>& A, int height, bool modified, offset_t strips, const offset_t* strip_ptr,
                    std::uint32_t* col, stored_t<V>* val) {
  std::vector<std::pair<vertex_t, offset_t>> e;  // (row, position in A) of the strip's entries
  for (offset_t s = 0; s < strips; ++s) {
    const offset_t b = first_row(s, height, A.rows), end = first_row(s + 1, height, A.rows);
    e.clear();
    for (offset_t r = b; r < end; ++r)
      for (offset_t j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j) e.emplace_back(vertex_t(r), j);
    // Both orders are stable, so ties keep CSR order (the device twin's stable sort does the same).
    if (modified)
      std::stable_sort(e.begin(), e.end(), [&](const auto& p, const auto& q) {
        return p.first != q.first ? p.first < q.first : A.col[p.second] < A.col[q.second];
      });
    else
      std::stable_sort(e.begin(), e.end(), [&](const auto& p, const auto& q) { return A.col[p.second] < A.col[q.second]; });
    const offset_t base = strip_ptr[s], windows = (strip_ptr[s + 1] - base) / cmrs_warp;
    if (modified)
      for (offset_t k = base; k < strip_ptr[s + 1]; ++k) {
        col[k] = cmrs_padding;
        if constexpr (!is_pattern_v<V>) val[k] = V(0);
      }
    for (std::size_t q = 0; q < e.size(); ++q) {
      // modified: entry q of the strip goes to window q mod W, slot q / W (storage/cmrs.hpp)
      const offset_t out = modified ? base + offset_t(q) % windows * cmrs_warp + offset_t(q) / windows
                                    : base + offset_t(q);
      col[out] = cmrs_pack(int(e[q].first - b), A.col[e[q].second]);
      if constexpr (!is_pattern_v<V>) val[out] = A.val[e[q].second];
    }
  }
}

template <class Sr, class V>
void K::cmrs_spmv(const cmrs_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (vertex_t r = 0; r < A.rows; ++r) y[r] = Sr::zero();
  for (offset_t s = 0; s < A.strips; ++s)
    for (offset_t j = A.strip_ptr[s]; j < A.strip_ptr[s + 1]; ++j) {
      if (A.col[j] == cmrs_padding) continue;
      const offset_t r = s * A.height + cmrs_row_of(A.col[j]);
      y[r] = Sr::add(y[r], Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[cmrs_col_of(A.col[j])]));
    }
}

#define FG_INSTANTIATE(V)                                                                           \
  template offset_t K::strip_layout<V>(const csr_view<V>&, int, bool, offset_t, offset_t*);         \
  template void K::fill_strips<V>(const csr_view<V>&, int, bool, offset_t, const offset_t*,         \
                                  std::uint32_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(Sr, V) \
  template void K::cmrs_spmv<Sr, V>(const cmrs_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
