// Kernel interface of the column-sorted row partitions (storage/colsort.hpp). Twins:
// storage/reference/colsort.cpp; storage/device/colsort_convert.cpp (both builds) with
// storage/device/colsort_spmv_portable.cpp (CPU build) or storage/cuda/colsort_spmv.cu (CUDA build).
// The partition rules below are shared, so both twins cut the same partitions (and are tested so).
#pragma once
#include "storage/colsort.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {

/// Row r holds more entries than a partition takes: it is a partition of its own, cut into pieces.
FG_HD inline bool colsort_long(const offset_t* rp, vertex_t r, offset_t cap) { return rp[r + 1] - rp[r] > cap; }

/// Row r (0 < r < rows) starts a group of rows: every colsort_rows rows, on either side of a long
/// row, and where the entries pass a multiple of cap. A group is one partition, or a long row's pieces.
FG_HD inline bool colsort_group_starts(const offset_t* rp, vertex_t r, offset_t cap) {
  return r % colsort_rows == 0 || colsort_long(rp, r, cap) || colsort_long(rp, r - 1, cap) ||
         rp[r] / cap != rp[r - 1] / cap;
}

/// Partitions made of the group [g0, g1): a long row's pieces, or one.
FG_HD inline offset_t colsort_pieces(const offset_t* rp, vertex_t g0, vertex_t g1, offset_t cap) {
  return g1 - g0 == 1 && colsort_long(rp, g0, cap) ? (rp[g0 + 1] - rp[g0] + cap - 1) / cap : 1;
}

/// The k-th partition of the group [g0, g1).
FG_HD inline colsort_part colsort_piece(const offset_t* rp, vertex_t g0, vertex_t g1, offset_t cap, offset_t k) {
  if (g1 - g0 == 1 && colsort_long(rp, g0, cap)) {
    const offset_t b = rp[g0] + k * cap, e = b + cap < rp[g0 + 1] ? b + cap : rp[g0 + 1];
    return {b, e, g0, 1, std::int32_t(k)};
  }
  return {rp[g0], rp[g1], g0, g1 - g0, -1};
}

template <class Space>
struct colsort_kernels;

#define FG_COLSORT_KERNELS(S)                                                                          \
  /* the first row of every group, then rows (groups + 1 entries); rows > 0 */                         \
  static array<vertex_t, S> groups(const offset_t* rp, vertex_t rows, offset_t cap);                   \
  /* the partitions of the groups (g: groups + 1 row bounds) and the long rows' runs */                 \
  static void partitions(const offset_t* rp, const vertex_t* g, offset_t groups, offset_t cap,         \
                         array<colsort_part, S>& parts, array<merge_run, S>& runs);                    \
  /* each group's entries sorted by column (stable): col, val and the row within the group */          \
  template <class V>                                                                                   \
  static void sort_entries(const csr_view<V>& A, const vertex_t* g, offset_t groups, vertex_t* col,    \
                           stored_t<V>* val, std::uint16_t* lrow);                                     \
  /* the most rows of any partition */                                                                 \
  static vertex_t max_rows(const colsort_part* parts, offset_t n);                                     \
  template <class Sr, class V>                                                                         \
  static void spmv(const colsort_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y);

template <>
struct colsort_kernels<host_space> {
  FG_COLSORT_KERNELS(host_space)
};
template <>
struct colsort_kernels<device_space> {
  FG_COLSORT_KERNELS(device_space)
#if defined(FG_WITH_CUDA)
  /// Each colsort_tile-entry tile of a partition in row order (stable): its lrow, col and val
  /// permuted in place (the layout the CUDA kernel reads; colsort_sort.cu).
  template <class V>
  static void tile_reorder(const colsort_part* parts, offset_t nparts, offset_t nnz, std::uint16_t* lrow, vertex_t* col,
                           stored_t<V>* val);
#endif
};
#undef FG_COLSORT_KERNELS

}  // namespace fg::detail
