// Column-sorted row partitions: conversion (groups of rows, their partitions, the entries sorted by
// column within each group) and SpMV dispatch. Kernels in the twins (storage/detail/colsort_kernels.hpp).
#include "storage/colsort.hpp"

#include <type_traits>

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/colsort_kernels.hpp"

namespace fg {

offset_t colsort_entries_cap(offset_t nnz) noexcept {
  constexpr offset_t lo = offset_t(1) << 14, hi = offset_t(1) << 18;
  offset_t cap = lo;
  while (cap < hi && cap < nnz / 512) cap <<= 1;
  return cap;
}

template <class V, class S>
colsort_matrix<V, S> to_colsort(const csr_matrix<V, S>& A) {
  using K = detail::colsort_kernels<S>;
  static_assert(colsort_rows <= 65536, "rows within a partition are 16-bit");
  colsort_matrix<V, S> m;
  m.rows = A.rows, m.cols = A.cols;
  m.entries_cap = colsort_entries_cap(A.nnz());
  if (A.rows == 0) return m;
  const array<vertex_t, S> g = K::groups(A.row_ptr.data(), A.rows, m.entries_cap);
  const offset_t groups = offset_t(g.size()) - 1;
  K::partitions(A.row_ptr.data(), g.data(), groups, m.entries_cap, m.parts, m.runs);
  m.max_rows = K::max_rows(m.parts.data(), offset_t(m.parts.size()));
  m.col = array<vertex_t, S>(static_cast<std::size_t>(A.nnz()));
  if constexpr (!is_pattern_v<V>) m.val = array<stored_t<V>, S>(static_cast<std::size_t>(A.nnz()));
  m.lrow = array<std::uint16_t, S>(static_cast<std::size_t>(A.nnz()));
  K::template sort_entries<V>(A.view(), g.data(), groups, m.col.data(), m.val.data(), m.lrow.data());
  m.carry = array<std::uint64_t, S>(m.parts.size());
#if defined(FG_WITH_CUDA)
  // The CUDA kernel reads each tile in row order: the entries of every tile moved there.
  if constexpr (std::is_same_v<S, device_space>)
    K::template tile_reorder<V>(m.parts.data(), offset_t(m.parts.size()), A.nnz(), m.lrow.data(), m.col.data(),
                                m.val.data());
#endif
  return m;
}

template <class Sr, class V, class S>
void spmv(const colsort_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  static_assert(sizeof(typename Sr::value_type) <= sizeof(std::uint64_t), "carry slots hold 8 bytes");
  detail::check_spmv_sizes(x.size(), y.size(), A.rows, A.cols);
  if (!A.parts.empty()) detail::colsort_kernels<S>::template spmv<Sr>(A.view(), x.data(), y.data());
}

#define FG_CONVERT(V)                                                                        \
  template colsort_matrix<V, host_space> to_colsort(const csr_matrix<V, host_space>&);       \
  template colsort_matrix<V, device_space> to_colsort(const csr_matrix<V, device_space>&);
FG_FOR_EACH_VALUE(FG_CONVERT)
#undef FG_CONVERT
#define FG_SPMV_FORMAT colsort_matrix
FG_FOR_EACH_SPMV(FG_SPMV_OF_FORMAT)
#undef FG_SPMV_FORMAT

}  // namespace fg
