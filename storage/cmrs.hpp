// CMRS: compressed multi-row storage (Koza, Matyka, Szkoda, Miroslaw 2014, §3-§4), and the
// padded "modified" variant of §6.7. A strip is `height` consecutive rows; StripPtr[s] is where
// strip s starts (StripPtr[s] = RowPtr[s * height] for the basic variant), and each entry stores its
// row within the strip (RowInStrip) in the top CMRS_BITS = 4 bits of its 32-bit column word.
//
// Layouts:
//  - basic: the entries of a strip sorted by column (§4, the paper's "fourth optimization"), ties in
//    CSR order. No padding: the arrays are CSR's, permuted within strips.
//  - modified (§6.7): height 16, and the SpMV kernel's lanes share M = 8 buffer rows (lane mod 8).
//    That is race-free only if no two lanes of one 32-entry window touch the same (lane mod 8, row)
//    slot, so a strip is laid out as W windows of 32 with W = max(ceil(S / 32), ceil(max row / 8))
//    (S: the strip's entries; both bounds are necessary, so W is the least possible): the strip's
//    entries in (row, column) order, q = 0..S-1, go cyclically to window q mod W, slot q / W. A row's
//    entries are consecutive in q, so in each window they fill at most ceil(n_row / W) <= 8
//    consecutive slots: distinct lanes mod 8. The rest of each window is padding.
//  - padding entries hold the column word cmrs_padding (column 2^28 - 1, never a valid column since
//    cols < 2^28) and value 0; kernels skip them, so they add nothing in any semiring (a zero value
//    would not do: min-plus needs +inf, and a pattern entry means pattern_value(), not zero).
//
// Limits: height <= 16 and cols < 2^28 (28 bits of column). to_cmrs throws fg::invalid_argument for
// a matrix with 2^28 or more columns; the caller falls back to another format (CSR).
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/array.hpp"
#include "storage/coo.hpp"
#include "storage/csr.hpp"

namespace fg {

inline constexpr int cmrs_bits = 4;                                   ///< bits of RowInStrip
inline constexpr int cmrs_max_height = 1 << cmrs_bits;                ///< 16
inline constexpr int cmrs_col_bits = 32 - cmrs_bits;                  ///< 28
inline constexpr std::uint32_t cmrs_col_mask = (1u << cmrs_col_bits) - 1;
inline constexpr vertex_t cmrs_max_cols = vertex_t(cmrs_col_mask);    ///< cols must be <= 2^28 - 1
inline constexpr std::uint32_t cmrs_padding = 0xffffffffu;            ///< column word of a padding slot
inline constexpr int cmrs_modified_height = 16;                       ///< §6.7: HEIGHT = 16
inline constexpr int cmrs_modified_groups = 8;                        ///< §6.7: M = 8 (lane mod M)
inline constexpr int cmrs_warp = 32;

enum class cmrs_variant {
  basic,     ///< §3-§4: no padding, any height in [1, 16]
  modified,  ///< §6.7: height 16, M = 8, strips padded to warp multiples
};

struct cmrs_options {
  /// Rows per strip in [1, 16]; 0: the paper's K20 optimum for V (§6.3: float 6, double 4; pattern
  /// 6, as its streams are 4-byte like float's). The modified variant is always 16 (0 or 16 here).
  int height = 0;
  /// Warps per thread block of the CUDA kernel, in [1, 32] (§6.3: 128 threads is the optimum).
  int warps_per_block = 4;
  cmrs_variant variant = cmrs_variant::basic;
};

/// The paper's K20 strip height for the matrix value type (§6.3).
template <class V>
constexpr int cmrs_default_height() { return std::is_same_v<V, double> ? 4 : 6; }

FG_HD inline std::uint32_t cmrs_pack(int row_in_strip, vertex_t col) {
  return (std::uint32_t(row_in_strip) << cmrs_col_bits) | std::uint32_t(col);
}
FG_HD inline int cmrs_row_of(std::uint32_t w) { return int(w >> cmrs_col_bits); }
FG_HD inline vertex_t cmrs_col_of(std::uint32_t w) { return vertex_t(w & cmrs_col_mask); }

/// Trivially copyable view handed to kernels.
template <class V>
struct cmrs_view {
  vertex_t rows = 0, cols = 0;
  int height = 0;
  int warps_per_block = 4;
  bool modified = false;
  bool align = false;               ///< basic: read each strip's unaligned head first (mu > 32, §6.3)
  offset_t strips = 0;
  const offset_t* strip_ptr = nullptr;  ///< strips + 1 entries
  const std::uint32_t* col = nullptr;   ///< RowInStrip << 28 | column, or cmrs_padding
  const stored_t<V>* val = nullptr;     ///< null for pattern
};

template <class V, class Space>
struct cmrs_matrix {
  vertex_t rows = 0, cols = 0;
  int height = 0;
  int warps_per_block = 4;
  cmrs_variant variant = cmrs_variant::basic;
  offset_t padded = 0;                ///< padding slots (modified variant only)
  array<offset_t, Space> strip_ptr;   ///< strips + 1 entries
  array<std::uint32_t, Space> col;    ///< stored slots: nnz + padded
  array<stored_t<V>, Space> val;      ///< stored slots; empty for pattern

  offset_t strips() const noexcept { return rows > 0 ? (offset_t(rows) + height - 1) / height : 0; }
  offset_t stored() const noexcept { return static_cast<offset_t>(col.size()); }
  offset_t nnz() const noexcept { return stored() - padded; }
  /// Padding overhead: padded slots / nnz (0 for the basic variant).
  double padding_ratio() const noexcept { return nnz() > 0 ? double(padded) / double(nnz()) : 0.0; }
  std::size_t bytes() const noexcept { return strip_ptr.bytes() + col.bytes() + val.bytes(); }
  cmrs_view<V> view() const noexcept {
    const bool mod = variant == cmrs_variant::modified;
    return {rows, cols, height, warps_per_block, mod, !mod && rows > 0 && nnz() > 32 * offset_t(rows),
            strips(), strip_ptr.data(), col.data(), is_pattern_v<V> ? nullptr : val.data()};
  }
};

/// @brief CMRS copy of A (A's entries within a row may be in any order).
/// @throws fg::invalid_argument for a bad option, or when A has 2^28 or more columns (the column
///         word keeps 28 bits): the caller should fall back to CSR.
template <class V, class Space>
cmrs_matrix<V, Space> to_cmrs(const csr_matrix<V, Space>& A, const cmrs_options& opts = {});

/// @brief y = A (+).(x) x over semiring S.
template <class S, class V, class Space>
void spmv(const cmrs_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);

}  // namespace fg
