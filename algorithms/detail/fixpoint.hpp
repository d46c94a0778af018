// Building blocks of the semi-naive fixed points (points-to, CFL-reachability, 0-CFA): every rule
// is "target ⊇ A·B" over or-and, evaluated as the masked SpMM (A·B) \ target whose new cells are
// appended to the target and to the next round's delta. Written once for both twins (host code that
// calls the library's explicitly instantiated SpMM and DCSR members).
#pragma once
#include <algorithm>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "storage/spmm.hpp"

namespace fg::detail {

/// Pattern store config: `square` only for square relations (a non-square store must not grow its
/// rows and columns together).
inline dcsr_config relation_config(vertex_t rows, vertex_t cols) {
  dcsr_config c;
  c.square = rows == cols;
  c.alpha = 1;  // rows grow a little per round: slack = half the row (row_growth), not the mean row
  return c;
}

template <class S>
dcsr_matrix<pattern, S> empty_relation(vertex_t rows, vertex_t cols) {
  dcsr_matrix<pattern, S> m(relation_config(rows, cols));
  m.resize(rows, cols);
  return m;
}

/// rows x cols relation from host pairs (repeats collapse).
template <class S>
dcsr_matrix<pattern, S> relation(vertex_t rows, vertex_t cols, const std::vector<vertex_t>& r,
                                 const std::vector<vertex_t>& c) {
  return dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(r, c), rows, cols, relation_config(rows, cols));
}

template <class S>
dcsr_matrix<pattern, S> identity_relation(vertex_t n) {
  std::vector<vertex_t> i(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v) i[std::size_t(v)] = v;
  return relation<S>(n, n, i, i);
}

template <class S>
dcsr_matrix<pattern, S> transpose(const dcsr_matrix<pattern, S>& A) {
  coo_matrix<pattern, S> t = A.to_coo();
  std::swap(t.row, t.col);
  return dcsr_matrix<pattern, S>::from_coo(t, A.cols(), A.rows(), relation_config(A.cols(), A.rows()));
}

/// target ⊇ A·B: the new cells (A·B) \ target are appended to `target` and, when given, to `delta`.
/// Slices are kept until the product is done because `target` may also be an operand (N ⊇ N·X):
/// appending may move its buffer. Returns the cells added.
template <class S>
offset_t derive(const spmm_operand<pattern>& A, const spmm_operand<pattern>& B, dcsr_matrix<pattern, S>& target,
                dcsr_matrix<pattern, S>* delta, const spmm_options& opt, spmm_stats& st) {
  std::vector<coo_matrix<pattern, S>> parts;
  spmm_slices<or_and, pattern, S>(
      A, B, [&target] { return operand(target); },
      [&parts](coo_matrix<pattern, S>&& p) {
        if (p.nnz > 0) parts.push_back(std::move(p));
      },
      opt, &st);
  offset_t added = 0;
  for (const auto& p : parts) {  // sorted, new, disjoint from target and from each other
    target.append_sorted(p);
    if (delta != nullptr) delta->append_sorted(p);
    added += offset_t(p.nnz);
  }
  return added;
}

template <class S>
offset_t derive(const dcsr_matrix<pattern, S>& A, const dcsr_matrix<pattern, S>& B, dcsr_matrix<pattern, S>& target,
                dcsr_matrix<pattern, S>* delta, const spmm_options& opt, spmm_stats& st) {
  if (A.nnz() == 0 || B.nnz() == 0) return 0;  // saves the per-row count pass
  return derive<S>(operand(A), operand(B), target, delta, opt, st);
}

/// Host copy as sorted rows (row_ptr, col): what results and tests read. Rows are appended round
/// by round, so each is sorted here for a deterministic output.
template <class S>
void sorted_rows(const dcsr_matrix<pattern, S>& A, std::vector<offset_t>& row_ptr, std::vector<vertex_t>& col) {
  const csr_matrix<pattern, S> c = A.to_csr();
  row_ptr = to_vector(c.row_ptr);
  col = to_vector(c.col);
  for (std::size_t i = 0; i + 1 < row_ptr.size(); ++i)
    std::sort(col.begin() + row_ptr[i], col.begin() + row_ptr[i + 1]);
}

}  // namespace fg::detail
