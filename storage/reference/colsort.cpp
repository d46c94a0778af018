// Reference twin of the column-sorted row partitions: the groups, partitions and sorted entries built
// sequentially by the shared rules, and an SpMV that adds each row's products in column order (each
// partition's rows in y, a long row's pieces as carries folded in order).
#include <algorithm>
#include <numeric>
#include <vector>

#include "core/semiring.hpp"
#include "storage/detail/colsort_kernels.hpp"

namespace fg::detail {
using K = colsort_kernels<host_space>;

array<vertex_t, host_space> K::groups(const offset_t* rp, vertex_t rows, offset_t cap) {
  std::vector<vertex_t> g{0};
  for (vertex_t r = 1; r < rows; ++r)
    if (colsort_group_starts(rp, r, cap)) g.push_back(r);
  g.push_back(rows);
  return to_space<host_space>(g);
}

void K::partitions(const offset_t* rp, const vertex_t* g, offset_t groups, offset_t cap, array<colsort_part, host_space>& parts,
                   array<merge_run, host_space>& runs) {
  std::vector<colsort_part> p;
  std::vector<merge_run> r;
  for (offset_t i = 0; i < groups; ++i) {
    const offset_t n = colsort_pieces(rp, g[i], g[i + 1], cap);
    if (n > 1) r.push_back({g[i], std::int32_t(n), offset_t(p.size())});  // a long row's pieces
    for (offset_t k = 0; k < n; ++k) p.push_back(colsort_piece(rp, g[i], g[i + 1], cap, k));
  }
  parts = to_space<host_space>(p);
  runs = to_space<host_space>(r);
}

template <class V>
void K::sort_entries(const csr_view<V>& A, const vertex_t* g, offset_t groups, vertex_t* col, stored_t<V>* val,
                     std::uint16_t* lrow) {
  std::vector<offset_t> idx;
  for (offset_t i = 0; i < groups; ++i) {
    const offset_t b = A.row_ptr[g[i]], e = A.row_ptr[g[i + 1]];
    idx.resize(std::size_t(e - b));
    std::iota(idx.begin(), idx.end(), b);
    std::stable_sort(idx.begin(), idx.end(), [&](offset_t u, offset_t v) { return A.col[u] < A.col[v]; });
    std::vector<std::uint16_t> row(idx.size());
    for (vertex_t r = g[i]; r < g[i + 1]; ++r)
      for (offset_t j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j) row[std::size_t(j - b)] = std::uint16_t(r - g[i]);
    for (offset_t j = b; j < e; ++j) {
      const offset_t o = idx[std::size_t(j - b)];
      col[j] = A.col[o];
      if constexpr (!is_pattern_v<V>) val[j] = A.val[o];
      lrow[j] = row[std::size_t(o - b)];
    }
  }
}

vertex_t K::max_rows(const colsort_part* parts, offset_t n) {
  vertex_t m = 0;
  for (offset_t p = 0; p < n; ++p) m = std::max(m, parts[p].rows);
  return m;
}

template <class Sr, class V>
void K::spmv(const colsort_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  using T = typename Sr::value_type;
  std::vector<T> carry(static_cast<std::size_t>(A.nparts));
  for (offset_t p = 0; p < A.nparts; ++p) {
    const colsort_part& q = A.parts[p];
    if (q.piece >= 0) {
      T acc = Sr::zero();
      for (offset_t j = q.begin; j < q.end; ++j) acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
      carry[std::size_t(p)] = acc;
      continue;
    }
    for (vertex_t i = 0; i < q.rows; ++i) y[q.row0 + i] = Sr::zero();
    for (offset_t j = q.begin; j < q.end; ++j) {
      T& yr = y[q.row0 + A.lrow[j]];
      yr = Sr::add(yr, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
    }
  }
  for (offset_t k = 0; k < A.nruns; ++k) {
    const merge_run& run = A.runs[k];
    T acc = Sr::zero();
    for (offset_t p = run.first; p < run.first + run.count; ++p) acc = Sr::add(acc, carry[std::size_t(p)]);
    y[run.row] = acc;
  }
}

#define FG_INSTANTIATE(V)                                                                                 \
  template void K::sort_entries<V>(const csr_view<V>&, const vertex_t*, offset_t, vertex_t*, stored_t<V>*, \
                                   std::uint16_t*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(Sr, V) \
  template void K::spmv<Sr, V>(const colsort_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
