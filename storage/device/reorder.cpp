// Device twin of the vertex renumbering (storage/reference/reorder.cpp): Thrust, OpenMP threads in
// the CPU build, the GPU in the CUDA build.
// - Column counts by atomic adds (a hub's column takes many, but one pass over nnz beats a sort).
// - The order: one stable radix sort of the vertex ids on their 1-byte group key, so the result is
//   the reference's std::stable_sort exactly.
// - The fill: on the GPU a thread per chunk of 8 output entries finds its row by binary search over
//   the new row offsets, so a hub row is spread over many threads (as the defragmentation's gather
//   does); OpenMP threads take rows.
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include "core/atomics.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/reorder_kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = reorder_kernels<device_space>;

void K::column_counts(const vertex_t* col, offset_t nnz, vertex_t n, offset_t* count) {
  parallel_for(n, FG_LAMBDA(std::int64_t v) { count[v] = 0; });
  parallel_for(nnz, FG_LAMBDA(std::int64_t i) { atomic::fetch_add(count + col[i], offset_t(1)); });
}

void K::grouped_order(const offset_t* count, vertex_t n, vertex_t* old_of_new, vertex_t* new_of_old) {
  array<std::uint8_t, device_space> key(static_cast<std::size_t>(n));
  std::uint8_t* k = key.data();
  parallel_for(n, FG_LAMBDA(std::int64_t v) { k[v] = reorder_key(count[v]); });
  thrust::sequence(policy(), old_of_new, old_of_new + n);
  claim_sort_scratch(std::size_t(n) * (sizeof(std::uint8_t) + sizeof(vertex_t)));
  thrust::stable_sort_by_key(policy(), k, k + n, old_of_new);
  parallel_for(n, FG_LAMBDA(std::int64_t p) { new_of_old[old_of_new[p]] = vertex_t(p); });
}

void K::permuted_row_ptr(const offset_t* row_ptr, const vertex_t* old_of_new, vertex_t n, offset_t* out_ptr) {
  parallel_for(std::int64_t(n) + 1, FG_LAMBDA(std::int64_t p) {
    out_ptr[p] = p < n ? row_ptr[old_of_new[p] + 1] - row_ptr[old_of_new[p]] : 0;
  });
  thrust::exclusive_scan(policy(), out_ptr, out_ptr + n + 1, out_ptr);
}

template <class V>
void K::permuted_fill(const csr_view<V>& A, const vertex_t* old_of_new, const vertex_t* new_of_old,
                      const offset_t* out_ptr, vertex_t* col, stored_t<V>* val) {
  const std::int64_t n = A.rows;
#if !defined(FG_WITH_CUDA)
  // OpenMP's few threads: a row per iteration, walked in cache order (a binary search per entry
  // made rmat-22's fill most of a 5 s conversion on 2 cores).
  parallel_for(n, [=](std::int64_t p) {
    const offset_t src = A.row_ptr[old_of_new[p]];
    for (offset_t t = out_ptr[p]; t < out_ptr[p + 1]; ++t) {
      col[t] = new_of_old[A.col[src + (t - out_ptr[p])]];
      copy_value<V>(val, t, A.val, src + (t - out_ptr[p]));
    }
  });
#else
  // A thread per chunk of output entries: one binary search for its first row (empty rows repeat
  // their offset: the last row starting at or before t holds t), then a walk across rows, so a
  // hub row is spread over many threads.
  constexpr offset_t chunk = 8;
  const offset_t nnz = A.nnz;
  parallel_for((nnz + chunk - 1) / chunk, FG_LAMBDA(std::int64_t c) {
    const offset_t first = c * chunk, last = first + chunk < nnz ? first + chunk : nnz;
    std::int64_t p = last_not_greater(out_ptr, n, first);
    for (offset_t t = first; t < last; ++t) {
      while (out_ptr[p + 1] <= t) ++p;
      const offset_t src = A.row_ptr[old_of_new[p]] + (t - out_ptr[p]);
      col[t] = new_of_old[A.col[src]];
      copy_value<V>(val, t, A.val, src);
    }
  });
#endif
}

template <class T>
void K::gather(const vertex_t* idx, vertex_t n, const T* in, T* out) {
  parallel_for(n, FG_LAMBDA(std::int64_t p) { out[p] = in[idx[p]]; });
}

template <class T>
void K::scatter(const vertex_t* idx, vertex_t n, const T* in, T* out) {
  parallel_for(n, FG_LAMBDA(std::int64_t p) { out[idx[p]] = in[p]; });
}

#define FG_INSTANTIATE(V)                                                                                 \
  template void K::permuted_fill<V>(const csr_view<V>&, const vertex_t*, const vertex_t*, const offset_t*, \
                                    vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(T)                                                        \
  template void K::gather<T>(const vertex_t*, vertex_t, const T*, T*);           \
  template void K::scatter<T>(const vertex_t*, vertex_t, const T*, T*);
FG_FOR_EACH_ORDERED_VECTOR(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
