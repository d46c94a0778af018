// HYB (Bell & Garland, SC 2009, the hybrid ELL/COO format): the first K entries of every row in an
// ELL part (rows x K, column-major, so thread r reads entry k of row r at k * pitch + r, coalesced
// across a warp), and the entries of rows longer than K beyond their first K in a COO tail sorted by row.
// SpMV: the ELL part writes y, then a segmented reduction over the tail's rows adds each tail row's
// sum into y with the semiring's add (one writer per row: no atomics). The segments are fixed at
// conversion, so SpMV allocates nothing and never waits for the device: the tail's distinct rows
// (tail_row_key) and their offsets into the tail (tail_row_ptr, a row_ptr over the tail rows), and
// CSR-Adaptive row blocks over those tail rows (tail_blocks, storage/csr_adaptive.hpp's cut with
// hyb_tail_block_nnz), so the CUDA tail kernel gives consecutive short tail rows one thread block and a
// long tail row (the hubs of a power-law graph, where the tail is most of the matrix) a block of its own.
//
// Padding: an ELL slot past the end of its row has col = -1 (hyb_padding) and value 0, and every
// SpMV skips col < 0 (the device kernels stop at a row's first padded slot, since padding only ever
// follows a row's entries). No column contributes the zero of every semiring (min_plus needs value
// +inf, a pattern matrix has no value at all), so skipping is the semiring-safe choice; padding then
// reads no x either. The value 0 is never read; it only makes the twins bit-identical.
//
// K (when hyb_options.ell_width < 0) follows Bell & Garland's heuristic (add the K-th ELL column if
// at least a third of the rows hold K or more entries) with the row threshold of CUSP's
// compute_optimal_entries_per_row (relative_speed = 3, breakeven_threshold = 4096): K is the largest
// width such that at least max(breakeven_rows, ceil(rows / relative_speed)) rows have length >= K,
// i.e. adding the K-th ELL column pays off only if at least a third of the rows fill it and enough
// rows remain to occupy the GPU; K = 0 (all tail) when no width qualifies, so matrices of fewer than
// 4096 rows are all tail by default.
#pragma once
#include <cstddef>

#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg {

inline constexpr vertex_t hyb_padding = -1;  ///< column index of a padded ELL slot
/// CSR-Adaptive bucket (block_nnz) of the tail's row blocks: a block holds < 2x this many tail entries,
/// or one longer row.
inline constexpr offset_t hyb_tail_block_nnz = 1024;

struct hyb_options {
  vertex_t ell_width = -1;         ///< K; < 0: Bell & Garland's rule below; an explicit K is used as is
  vertex_t relative_speed = 3;     ///< ELL is this many times faster than COO per entry (>= 1)
  vertex_t breakeven_rows = 4096;  ///< fewest rows that must fill a column for it to join the ELL part
};

/// Trivially copyable view handed to kernels.
template <class V>
struct hyb_view {
  vertex_t rows = 0, cols = 0;
  vertex_t ell_width = 0;                 ///< K
  offset_t pitch = 0;                     ///< rows rounded up to 32: each ELL column starts aligned
  const vertex_t* ell_col = nullptr;      ///< pitch * K, hyb_padding in padded slots
  const stored_t<V>* ell_val = nullptr;   ///< null for pattern
  offset_t tail_nnz = 0;
  const vertex_t* tail_row = nullptr;     ///< sorted
  const vertex_t* tail_col = nullptr;
  const stored_t<V>* tail_val = nullptr;  ///< null for pattern
  vertex_t tail_rows = 0;                 ///< distinct rows in the tail
  const offset_t* tail_row_ptr = nullptr; ///< tail_rows + 1: tail row m is tail entries [ptr[m], ptr[m+1])
  const vertex_t* tail_row_key = nullptr; ///< tail_rows: the matrix row of tail row m (ascending)
  offset_t tail_block_count = 0;
  const vertex_t* tail_blocks = nullptr;  ///< tail_block_count + 1 boundaries over the tail rows
};

template <class V, class Space>
struct hyb_matrix {
  vertex_t rows = 0, cols = 0;
  vertex_t ell_width = 0;               ///< K
  offset_t pitch = 0;                   ///< ELL column stride (rows rounded up to 32)
  offset_t nnz_stored = 0;              ///< real entries (the CSR's nnz)
  vertex_t tail_rows = 0;               ///< rows with entries in the tail (length > K)
  array<vertex_t, Space> ell_col;       ///< pitch * K
  array<stored_t<V>, Space> ell_val;    ///< pitch * K, empty for pattern
  array<vertex_t, Space> tail_row, tail_col;
  array<stored_t<V>, Space> tail_val;   ///< empty for pattern
  // The tail's segmented reduction, fixed at conversion (all empty when the tail is):
  array<offset_t, Space> tail_row_ptr;  ///< tail_rows + 1 offsets into the tail, first 0, last tail_nnz()
  array<vertex_t, Space> tail_row_key;  ///< tail_rows: row of each tail segment, ascending
  array<vertex_t, Space> tail_blocks;   ///< tail_block_count + 1 CSR-Adaptive boundaries over tail rows
  offset_t tail_block_count = 0;

  offset_t nnz() const noexcept { return nnz_stored; }
  /// ELL slots stored including padding (pitch x K).
  offset_t padded() const noexcept { return static_cast<offset_t>(ell_col.size()); }
  offset_t tail_nnz() const noexcept { return static_cast<offset_t>(tail_col.size()); }
  std::size_t bytes() const noexcept {
    return ell_col.bytes() + ell_val.bytes() + tail_row.bytes() + tail_col.bytes() + tail_val.bytes() +
           tail_row_ptr.bytes() + tail_row_key.bytes() + tail_blocks.bytes();
  }
  hyb_view<V> view() const noexcept {
    constexpr bool p = is_pattern_v<V>;
    return {rows, cols, ell_width, pitch, ell_col.data(), p ? nullptr : ell_val.data(),
            tail_nnz(), tail_row.data(), tail_col.data(), p ? nullptr : tail_val.data(),
            tail_rows, tail_row_ptr.data(), tail_row_key.data(), tail_block_count, tail_blocks.data()};
  }
};

/// @brief The ELL width Bell & Garland's rule picks for this CSR (what to_hyb uses by default).
template <class V, class Space>
vertex_t hyb_auto_width(const csr_matrix<V, Space>& A, const hyb_options& opts = {});

/// @brief HYB copy of a CSR matrix (same space; the CSR is not changed).
/// @throws fg::invalid_argument for bad options; fg::out_of_memory.
template <class V, class Space>
hyb_matrix<V, Space> to_hyb(const csr_matrix<V, Space>& A, const hyb_options& opts = {});

/// @brief y = A (+).(x) x over semiring S.
template <class S, class V, class Space>
void spmv(const hyb_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);

}  // namespace fg
