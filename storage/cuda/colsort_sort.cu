// The column-sorted partitions' sort within groups, CUDA build: one stable radix sort of 64-bit keys
// (group << 32 | column) over all entries, whose stability keeps ties in CSR order, so the layout
// equals the reference twin's. An entry finds its row by a binary search of the row offsets, so a
// hub row of millions of entries is spread over as many threads. Replaces
// storage/device/colsort_sort_portable.cpp (the CPU build's sort, a group at a time in its cache).
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include "storage/detail/colsort_kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = colsort_kernels<device_space>;

template <class V>
void K::sort_entries(const csr_view<V>& A, const vertex_t* g, offset_t groups, vertex_t* col, stored_t<V>* val,
                     std::uint16_t* lrow) {
  const offset_t nnz = A.nnz;
  if (nnz == 0) return;
  array<std::uint64_t, device_space> key(static_cast<std::size_t>(nnz));
  array<std::uint16_t, device_space> rl(static_cast<std::size_t>(nnz));
  array<offset_t, device_space> perm(static_cast<std::size_t>(nnz));
  std::uint64_t* k = key.data();
  std::uint16_t* w = rl.data();
  offset_t* o = perm.data();
  const csr_view<V> M = A;
  const std::int64_t ng = groups;
  parallel_for(nnz, FG_LAMBDA(std::int64_t j) {  // an entry's key (its group, its column), its row in the group
    const std::int64_t r = last_not_greater(M.row_ptr, std::int64_t(M.rows) + 1, offset_t(j));
    const std::int64_t gi = last_not_greater(g, ng + 1, vertex_t(r));
    k[j] = (std::uint64_t(gi) << 32) | std::uint32_t(M.col[j]);
    w[j] = std::uint16_t(r - g[gi]);
    o[j] = j;
  });
  thrust::stable_sort_by_key(policy(), k, k + nnz, o);
  const stored_t<V>* from = M.val;  // captured outside a constexpr-if (nvcc's extended lambdas)
  parallel_for(nnz, FG_LAMBDA(std::int64_t j) {
    col[j] = M.col[o[j]];
    if (from != nullptr) val[j] = from[o[j]];
    lrow[j] = w[o[j]];
  });
}

#define FG_INSTANTIATE(V)                                                                                 \
  template void K::sort_entries<V>(const csr_view<V>&, const vertex_t*, offset_t, vertex_t*, stored_t<V>*, \
                                   std::uint16_t*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
