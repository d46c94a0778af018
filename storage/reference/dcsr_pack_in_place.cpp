// Reference twin of storage/device/dcsr_pack_in_place.cpp. The result is Algorithm 4's layout (row r
// at [row_ptr[r], row_ptr[r+1])), so the twin gathers to a copy and writes it back: only the
// device twin needs to save the memory.
#include <vector>

#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = kernels<host_space>;

template <class V>
offset_t K::prefix_entries(const dcsr_view<V>& A, offset_t ordered_end) {
  offset_t n = 0;
  for (vertex_t r = 0; r < A.rows; ++r) n += prefix_piece(A, r, ordered_end);
  return n;
}

template <class V>
void K::pack_in_place(const dcsr_view<V>& A, const offset_t* row_ptr, offset_t /*ordered_end*/, offset_t /*tail*/) {
  const auto nnz = std::size_t(row_ptr[A.rows]);
  std::vector<vertex_t> col(nnz);
  std::vector<stored_t<V>> val(is_pattern_v<V> ? 0 : nnz);
  compact(A, row_ptr, nullptr, offset_t(nnz), col.data(), val.data());
  for (std::size_t i = 0; i < nnz; ++i) {
    A.col[i] = col[i];
    if constexpr (!is_pattern_v<V>) A.val[i] = val[i];
  }
}

#define FG_INSTANTIATE(V)                                                    \
  template offset_t K::prefix_entries<V>(const dcsr_view<V>&, offset_t);    \
  template void K::pack_in_place<V>(const dcsr_view<V>&, const offset_t*, offset_t, offset_t);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
