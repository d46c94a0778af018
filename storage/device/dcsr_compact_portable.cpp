// Portable gather of Algorithm 4 (CompactIndices), the CPU build's; storage/cuda/dcsr_compact.cu
// replaces it in the CUDA build. The output is cut into equal ranges of entries (so long rows cannot
// unbalance it), a thread each; a range finds its first row by one binary search over the new row
// offsets, then walks its rows and their segments in order, copying runs. (One binary search and one
// segment walk per entry, a GPU's way, cost ~21 dependent cache misses an entry here.)
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = kernels<device_space>;

template <class V>
void K::compact(const dcsr_view<V>& A, const offset_t* row_ptr, const vertex_t* order, offset_t nnz,
                vertex_t* out_col, stored_t<V>* out_val) {
  const std::int64_t n = std::int64_t(A.rows) + 1;
  constexpr offset_t range = offset_t(1) << 16;  // entries a task: many tasks a thread, each a long copy
  const std::int64_t tasks = std::int64_t((nnz + range - 1) / range);
  parallel_for(tasks, FG_LAMBDA(std::int64_t t) {
    const offset_t lo = offset_t(t) * range, hi = lo + range < nnz ? lo + range : nnz;
    for (std::int64_t k = last_not_greater(row_ptr, n, lo); k + 1 < n && row_ptr[k] < hi; ++k) {
      const offset_t first = row_ptr[k], from = lo > first ? lo - first : 0;  // row positions [from, to)
      const offset_t to = (hi < row_ptr[k + 1] ? hi : row_ptr[k + 1]) - first;
      offset_t pos = 0;  // the row position where the piece starts
      A.for_each_piece(order ? order[k] : vertex_t(k), [&](offset_t b, offset_t e) {
        for (offset_t p = pos > from ? pos : from, end = pos + (e - b) < to ? pos + (e - b) : to; p < end; ++p) {
          out_col[first + p] = A.col[b + (p - pos)];
          copy_value<V>(out_val, first + p, A.val, b + (p - pos));
        }
        pos += e - b;
      });
    }
  });
}

#define FG_INSTANTIATE(V) \
  template void K::compact<V>(const dcsr_view<V>&, const offset_t*, const vertex_t*, offset_t, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
