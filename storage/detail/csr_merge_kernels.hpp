// Kernel interface of merge-path CSR (storage/csr_merge.hpp). Twins: storage/reference/csr_merge.cpp;
// storage/device/csr_merge_convert.cpp + csr_merge_spmv_portable.cpp (CPU build) or
// storage/cuda/csr_merge_spmv.cu (CUDA build). The rules below are shared by both twins, so their
// tiles and runs are identical by construction (and tested so).
#pragma once
#include "storage/csr_merge.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {

/// The merge path's point on diagonal d (Merrill & Garland, Algorithm 2): the first d items of the
/// merge of row ends a[i] = row_ptr[i + 1] (i < rows) with nonzero indices b[k] = k (k < nnz), a row end
/// going first on ties (row i ends before nonzero j iff row_ptr[i + 1] <= j, i.e. j is not in row i).
FG_HD inline merge_coord merge_path_search(const offset_t* row_ptr, vertex_t rows, offset_t nnz, offset_t d) {
  offset_t lo = d > nnz ? d - nnz : 0, hi = d < offset_t(rows) ? d : offset_t(rows);
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (row_ptr[mid + 1] <= d - mid - 1) lo = mid + 1;
    else hi = mid;
  }
  return {lo, d - lo};
}

/// Tile t carries a partial sum out: its end point cuts a row (not the past-the-end row) and the tile
/// holds some of that row's nonzeros. A tile ending exactly at a row boundary carries nothing.
FG_HD inline bool merge_carries(const offset_t* row_ptr, vertex_t rows, const merge_coord* c, offset_t t) {
  const offset_t r = c[t + 1].row;
  if (r >= rows) return false;
  const offset_t from = c[t].nz > row_ptr[r] ? c[t].nz : row_ptr[r];
  return c[t + 1].nz > from;
}

/// Tile t starts (first) or ends (!first) a run of carrying tiles with the same row; tile t's carry
/// row is c[t + 1].row, so neighbouring tiles share a row when their end points do.
FG_HD inline bool merge_run_edge(const offset_t* row_ptr, vertex_t rows, const merge_coord* c, offset_t tiles,
                                 offset_t t, bool first) {
  if (!merge_carries(row_ptr, rows, c, t)) return false;
  const offset_t u = first ? t - 1 : t + 1;
  if (u < 0 || u >= tiles) return true;
  return !(merge_carries(row_ptr, rows, c, u) && c[u + 1].row == c[t + 1].row);
}

template <class Space>
struct csr_merge_kernels;

#define FG_CSR_MERGE_KERNELS(S)                                                                     \
  /* out[t] = merge_path_search(min(t * tile_items, rows + nnz)) for t in [0, tiles] */             \
  static void tile_coords(const offset_t* row_ptr, vertex_t rows, offset_t nnz, offset_t tile_items, \
                          offset_t tiles, merge_coord* out);                                        \
  /* the runs of carrying tiles into out (tiles slots), in tile order; returns their count */       \
  static offset_t runs(const offset_t* row_ptr, vertex_t rows, const merge_coord* coords, offset_t tiles, \
                       merge_run* out);                                                             \
  /* out[i] = row_ptr[i + 1] for i < rows, as 32 bits (the caller checks nnz < 2^31) */           \
  static void narrow_row_ends(const offset_t* row_ptr, vertex_t rows, std::uint32_t* out);          \
  /* y = A x; X: x's element type, the semiring's or float for double sums (spmv_mixed) */        \
  template <class Sr, class V, class X>                                                             \
  static void spmv(const csr_merge_view<V>& A, const X* x, typename Sr::value_type* y);

template <>
struct csr_merge_kernels<host_space> {
  FG_CSR_MERGE_KERNELS(host_space)
};
template <>
struct csr_merge_kernels<device_space> {
  FG_CSR_MERGE_KERNELS(device_space)
};
#undef FG_CSR_MERGE_KERNELS

// The SpMVs each twin instantiates, by its FG_CSR_MERGE_INSTANCE(Sr, V, X): every semiring with its
// own x, and double sums of float x (spmv_mixed) for the value types PageRank reads.
#define FG_CSR_MERGE_OWN_X(Sr, V) FG_CSR_MERGE_INSTANCE(Sr, V, Sr::value_type)
#define FG_CSR_MERGE_SPMVS                                                  \
  FG_FOR_EACH_SPMV(FG_CSR_MERGE_OWN_X)                                      \
  FG_CSR_MERGE_INSTANCE(::fg::plus_times<double>, ::fg::pattern, float)     \
  FG_CSR_MERGE_INSTANCE(::fg::plus_times<double>, double, float)

}  // namespace fg::detail
