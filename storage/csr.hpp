// Compressed sparse row: the compact form the store defragments to, and a read view for SpMV.
#pragma once
#include "core/array.hpp"
#include "storage/coo.hpp"

namespace fg {

/// Trivially copyable view handed to kernels.
template <class V>
struct csr_view {
  vertex_t rows = 0, cols = 0;
  const offset_t* row_ptr = nullptr;
  const vertex_t* col = nullptr;
  const stored_t<V>* val = nullptr;  ///< null for pattern
  offset_t nnz = 0;
};

template <class V, class Space>
struct csr_matrix {
  vertex_t rows = 0, cols = 0;
  array<offset_t, Space> row_ptr;  ///< rows + 1 entries
  array<vertex_t, Space> col;
  array<stored_t<V>, Space> val;   ///< empty for pattern

  offset_t nnz() const noexcept { return static_cast<offset_t>(col.size()); }
  std::size_t bytes() const noexcept { return row_ptr.bytes() + col.bytes() + val.bytes(); }
  csr_view<V> view() const noexcept {
    return {rows, cols, row_ptr.data(), col.data(), is_pattern_v<V> ? nullptr : val.data(), nnz()};
  }
};

/// @brief A deep copy of A in Space (from any space): formats that keep the CSR arrays own a copy.
template <class Space, class V, class From>
csr_matrix<V, Space> clone_csr(const csr_matrix<V, From>& A) {
  csr_matrix<V, Space> c;
  c.rows = A.rows;
  c.cols = A.cols;
  c.row_ptr = clone<Space>(A.row_ptr);
  c.col = clone<Space>(A.col);
  c.val = clone<Space>(A.val);
  return c;
}

}  // namespace fg
