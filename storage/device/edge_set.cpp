// Bulk operations on the device store's edge set (storage/detail/edge_set_kernels.hpp).
#include <thrust/functional.h>
#include <thrust/transform_reduce.h>

#include "storage/detail/edge_set_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"
#if !defined(FG_WITH_CUDA)
#include "storage/device/entry_ranges.hpp"
#endif

namespace fg::detail {

double row_square_sum(const vertex_t* sizes, vertex_t rows) {
  return thrust::transform_reduce(
      policy(), sizes, sizes + rows, FG_LAMBDA(vertex_t d) { return double(d) * double(d); }, 0.0,
      thrust::plus<double>());
}

void edge_set_clear(std::uint64_t* slot, std::size_t n) {
  static_assert(edge_set_view::empty == 0, "an empty table is zeroed memory");
  memory::zero_lazily(slot, n * sizeof(std::uint64_t));
}

void edge_set_migrate(const edge_set_view& s, std::int64_t begin, std::int64_t end) {
  std::uint64_t* old = s.old;
  parallel_for(end - begin, FG_LAMBDA(std::int64_t i) {
    const std::uint64_t k = old[begin + i];
    if (k == edge_set_view::empty || k == edge_set_view::tomb) return;
    s.insert_new(edge_set_view::key_of(k));
    old[begin + i] = edge_set_view::tomb;
  });
}

template <class V>
void edge_set_build(const edge_set_view& s, const dcsr_view<V>& A, offset_t nnz) {
  edge_set_clear(s.slot, std::size_t(s.mask) + 1);
  if (A.rows == 0) return;
  // GPU: one thread per stored pair, its row found by binary search over the scanned sizes (a hub
  // row spreads over many threads, as in the defragmentation's gather).
  array<offset_t, device_space> row_ptr(std::size_t(A.rows) + 1);
  kernels<device_space>::scan_sizes(A.sizes, A.rows, row_ptr.data(), nullptr);
  const offset_t* ptr = row_ptr.data();
#if defined(FG_WITH_CUDA)
  const std::int64_t rows1 = std::int64_t(A.rows) + 1;
  parallel_for(nnz, FG_LAMBDA(std::int64_t i) {
    const vertex_t r = vertex_t(last_not_greater(ptr, rows1, offset_t(i)));
    s.insert_new(edge_set_view::key(r, A.col[A.locate(r, i - ptr[r])]));
  });
#else  // a CPU walks the rows in order instead (storage/device/entry_ranges.hpp)
  for_each_entry_ranged(A, ptr, A.rows, nullptr, nnz, FG_LAMBDA(offset_t, std::int64_t k, offset_t src) {
    s.insert_new(edge_set_view::key(vertex_t(k), A.col[src]));
  });
#endif
}

void edge_set_mark(const edge_set_view& s, const vertex_t* rows, const vertex_t* cols, std::size_t n,
                   std::uint8_t* drop) {
  parallel_for(std::int64_t(n), FG_LAMBDA(std::int64_t e) {
    if (s.contains(edge_set_view::key(rows[e], cols[e]))) drop[e] = 1;
  });
}

void edge_set_add(const edge_set_view& s, const vertex_t* rows, const vertex_t* cols, std::size_t n) {
  parallel_for(std::int64_t(n), FG_LAMBDA(std::int64_t e) { s.insert_new(edge_set_view::key(rows[e], cols[e])); });
}

#define FG_INSTANTIATE(V) template void edge_set_build<V>(const edge_set_view&, const dcsr_view<V>&, offset_t);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
