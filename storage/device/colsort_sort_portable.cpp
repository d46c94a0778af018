// The column-sorted partitions' sort within groups, CPU build: a group at a time (OpenMP, dynamic:
// groups differ in size), its entries' (column << 32 | position) keys sorted in the thread's cache.
// The positions (a group holds < 2^32 entries) make the keys distinct and order ties as CSR does, so the layout equals the
// reference twin's stable sort. A global sort of (group, column) keys, as the CUDA build's, took
// 4-5 s on rmat-22 (2 cores). The CUDA build compiles storage/cuda/colsort_sort.cu instead.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "storage/detail/colsort_kernels.hpp"

namespace fg::detail {
using K = colsort_kernels<device_space>;

template <class V>
void K::sort_entries(const csr_view<V>& A, const vertex_t* g, offset_t groups, vertex_t* col, stored_t<V>* val,
                     std::uint16_t* lrow) {
#pragma omp parallel
  {
    std::vector<std::uint64_t> key;
    std::vector<std::uint16_t> row;
#pragma omp for schedule(dynamic, 1)
    for (offset_t i = 0; i < groups; ++i) {
      const offset_t b = A.row_ptr[g[i]], e = A.row_ptr[g[i + 1]];
      key.resize(std::size_t(e - b));
      row.resize(std::size_t(e - b));
      for (vertex_t r = g[i]; r < g[i + 1]; ++r)
        for (offset_t j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j) {
          key[std::size_t(j - b)] = (std::uint64_t(std::uint32_t(A.col[j])) << 32) | std::uint64_t(j - b);
          row[std::size_t(j - b)] = std::uint16_t(r - g[i]);
        }
      std::sort(key.begin(), key.end());
      for (offset_t j = b; j < e; ++j) {
        const offset_t o = b + offset_t(key[std::size_t(j - b)] & 0xffffffffu);
        col[j] = A.col[o];
        if constexpr (!is_pattern_v<V>) val[j] = A.val[o];
        lrow[j] = row[std::size_t(o - b)];
      }
    }
  }
}

#define FG_INSTANTIATE(V)                                                                                 \
  template void K::sort_entries<V>(const csr_view<V>&, const vertex_t*, offset_t, vertex_t*, stored_t<V>*, \
                                   std::uint16_t*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
