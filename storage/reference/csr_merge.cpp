// Reference twin of merge-path CSR: the same tiles and runs, sequentially. SpMV walks each tile's
// merge items in order as one thread block does (a row end writes the row's sum so far, the tile's
// last partial row is its carry), then folds the carries of every run into y as the fix-up kernel
// does, so the tile coordinates and runs are exercised by every SpMV test.
#include "core/semiring.hpp"
#include "storage/detail/csr_merge_kernels.hpp"

namespace fg::detail {
using K = csr_merge_kernels<host_space>;

void K::tile_coords(const offset_t* rp, vertex_t rows, offset_t nnz, offset_t tile_items, offset_t tiles,
                    merge_coord* out) {
  const offset_t items = offset_t(rows) + nnz;
  for (offset_t t = 0; t <= tiles; ++t) out[t] = merge_path_search(rp, rows, nnz, t * tile_items < items ? t * tile_items : items);
}

offset_t K::runs(const offset_t* rp, vertex_t rows, const merge_coord* c, offset_t tiles, merge_run* out) {
  offset_t n = 0;
  for (offset_t t = 0; t < tiles; ++t) {
    if (merge_run_edge(rp, rows, c, tiles, t, true)) out[n] = {vertex_t(c[t + 1].row), 0, t};
    if (merge_run_edge(rp, rows, c, tiles, t, false)) {
      out[n].count = std::int32_t(t - out[n].first + 1);
      ++n;
    }
  }
  return n;
}

void K::narrow_row_ends(const offset_t* rp, vertex_t rows, std::uint32_t* out) {
  for (vertex_t i = 0; i < rows; ++i) out[i] = std::uint32_t(rp[i + 1]);
}

template <class Sr, class V, class X>
void K::spmv(const csr_merge_view<V>& A, const X* x, typename Sr::value_type* y) {
  using T = typename Sr::value_type;
  const auto& M = A.csr;
  array<T, host_space> carry(static_cast<std::size_t>(A.tiles));
  for (offset_t t = 0; t < A.tiles; ++t) {
    offset_t r = A.coords[t].row, j = A.coords[t].nz;
    const merge_coord end = A.coords[t + 1];
    T acc = Sr::zero();
    while (r < end.row || j < end.nz) {
      if (r < M.rows && j < M.row_ptr[r + 1]) {  // the merge rule: nonzero j belongs to row r
        acc = Sr::add(acc, Sr::mul(value_or<V>(M.val, j, Sr::pattern_value()), T(x[M.col[j]])));
        ++j;
      } else {
        y[r++] = acc;
        acc = Sr::zero();
      }
    }
    carry[std::size_t(t)] = acc;
  }
  for (offset_t k = 0; k < A.nruns; ++k) {
    const merge_run& run = A.runs[k];
    T acc = Sr::zero();
    for (offset_t t = run.first; t < run.first + run.count; ++t) acc = Sr::add(acc, carry[std::size_t(t)]);
    y[run.row] = Sr::add(y[run.row], acc);
  }
}

#define FG_CSR_MERGE_INSTANCE(Sr, V, X) template void K::spmv<Sr, V, X>(const csr_merge_view<V>&, const X*, Sr::value_type*);
FG_CSR_MERGE_SPMVS
#undef FG_CSR_MERGE_INSTANCE

}  // namespace fg::detail
