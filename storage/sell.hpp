// SELL-C-sigma (Kreutzer et al. 2014; sliced ELLPACK as in Wik 2021 for sigma = 1): rows are sorted
// by length (descending) within windows of sigma rows, cut into chunks of C = 32 consecutive sorted
// rows, and each chunk is padded to its longest row and stored column-major inside the chunk:
// entry k of the i-th row of chunk c sits at chunk_ptr[c] + k * C + i. A warp (one thread per row)
// then reads a chunk with coalesced loads. perm maps sorted slots back to the original rows, so y is
// written in original row order.
//
// Padding: a padded slot has col = -1 (sell_padding) and value 0, and every SpMV skips col < 0 (the
// device kernels stop at a row's first padded slot, since padding only ever follows a row's
// entries). Skipping is chosen over "a column whose contribution is the semiring zero" because no
// such column exists in general (min_plus needs value +inf, or_and needs x = 0, plus_times needs
// value 0, which a pattern matrix cannot store), and because padding then reads no x at all. The
// value 0 of a padded slot is never read; it only makes the arrays deterministic, so the twins
// compare bit for bit.
#pragma once
#include <cstddef>

#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg {

inline constexpr vertex_t sell_chunk_rows = 32;  ///< C: one warp per chunk in the CUDA kernel
inline constexpr vertex_t sell_padding = -1;     ///< column index of a padded slot

struct sell_options {
  vertex_t sigma = 256;  ///< sorting window in rows (>= 1); 1: no sorting (sliced ELLPACK)
};

/// Trivially copyable view handed to kernels.
template <class V>
struct sell_view {
  vertex_t rows = 0, cols = 0;
  vertex_t chunks = 0;                ///< ceil(rows / C)
  const offset_t* chunk_ptr = nullptr;  ///< chunks + 1 entries; chunk c's width is (chunk_ptr[c+1] - chunk_ptr[c]) / C
  const vertex_t* perm = nullptr;     ///< rows entries: perm[c * C + i] = original row of slot i of chunk c
  const vertex_t* col = nullptr;      ///< padded entries, sell_padding in padded slots
  const stored_t<V>* val = nullptr;   ///< null for pattern
};

template <class V, class Space>
struct sell_matrix {
  vertex_t rows = 0, cols = 0;
  vertex_t sigma = 1;
  offset_t nnz_stored = 0;          ///< real entries (the CSR's nnz)
  array<offset_t, Space> chunk_ptr;  ///< chunks + 1 entries
  array<vertex_t, Space> perm;       ///< rows entries
  array<vertex_t, Space> col;        ///< padded() entries
  array<stored_t<V>, Space> val;     ///< padded() entries, empty for pattern

  static constexpr vertex_t C = sell_chunk_rows;
  vertex_t chunks() const noexcept { return (rows + C - 1) / C; }
  offset_t nnz() const noexcept { return nnz_stored; }
  /// Stored slots including padding (C x width summed over chunks; the last chunk counts all C).
  offset_t padded() const noexcept { return static_cast<offset_t>(col.size()); }
  std::size_t bytes() const noexcept { return chunk_ptr.bytes() + perm.bytes() + col.bytes() + val.bytes(); }
  sell_view<V> view() const noexcept {
    return {rows, cols, chunks(), chunk_ptr.data(), perm.data(), col.data(),
            is_pattern_v<V> ? nullptr : val.data()};
  }
};

/// @brief SELL-C-sigma copy of a CSR matrix (same space; the CSR is not changed).
/// @throws fg::invalid_argument if opts.sigma < 1; fg::out_of_memory.
template <class V, class Space>
sell_matrix<V, Space> to_sell(const csr_matrix<V, Space>& A, const sell_options& opts = {});

/// @brief y = A (+).(x) x over semiring S; y in the original row order.
template <class S, class V, class Space>
void spmv(const sell_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);

}  // namespace fg
