// Column-sorted row partitions ("colsort"), a locality layer for power-law graphs whose x is larger
// than the caches (issue 22). CSR's gather of x fetches a 32-byte sector (GPU) or a 64-byte line
// (CPU) for each 4- or 8-byte value, because neighbouring entries read unrelated columns. Here the
// rows are cut into partitions (a few thousand rows, up to `entries_cap` entries) and each
// partition's entries are sorted by column, so the entries that read a popular column, or nearby
// ones, follow each other and share the fetch. The partition's y is accumulated in fast memory (the
// GPU's shared memory, the CPU's cache) and written once.
//
// Measured before it was built (docs/perf-journal.md, 2026-11-29; R-MAT, a=.57): a warp of 32 consecutive
// entries touches 0.96 sectors of x an entry in CSR order and 0.49 (64 K-entry partitions) or 0.32
// (256 K) column-sorted (rmat-22); the CPU build's SpMV on rmat-22 went from 105 to 56-72 ms on two
// cores in a throwaway program.
//
// A row longer than entries_cap is a partition of its own, cut into pieces of entries_cap entries;
// each piece's sum is a carry, and a fix-up folds a row's carries in order (merge_run, as the
// merge-path CSR's). Sums are deterministic in every build: the reference twin and the CPU build add
// a row's products in column order; the CUDA kernel adds a tile's products by a segmented block scan
// and the tiles in order (storage/cuda/colsort_spmv.cu), a different but fixed order.
//
// CUDA layout: each tile of colsort_tile entries (chosen in column order) is stored in row order,
// stable (the row-tile A/B, docs/perf-journal.md, 2026-12-06: level with the column-ordered tile
// staged through shared memory in float, 5-7% faster in double, 2 bytes an entry less). The tile's x
// sectors are the same; its entries' products are summed where they are read, with no staging pass.
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "storage/csr.hpp"
#include "storage/csr_merge.hpp"  // merge_run

namespace fg {

/// Rows a partition holds at most: its y in shared memory, 64 KB for 8-byte sums.
inline constexpr vertex_t colsort_rows = 8192;
/// Entries of a CUDA tile (threads x items): a tile's products in shared memory, then its rows.
inline constexpr int colsort_threads = 256, colsort_items = 8;
inline constexpr offset_t colsort_tile = offset_t(colsort_threads) * colsort_items;

/// Entries a partition takes before it closes: nnz / 512 as a power of two, within [16 K, 256 K]
/// (about 512 partitions: a few per SM at a time, and still many entries to share the fetches).
offset_t colsort_entries_cap(offset_t nnz) noexcept;

/// Entries [begin, end) of rows [row0, row0 + rows); `piece` >= 0 for a piece of a long row (rows
/// == 1), whose sum goes to the carry slot of this partition instead of y.
struct colsort_part {
  offset_t begin = 0, end = 0;
  vertex_t row0 = 0, rows = 0;
  std::int32_t piece = -1;
  bool operator==(const colsort_part& o) const noexcept {
    return begin == o.begin && end == o.end && row0 == o.row0 && rows == o.rows && piece == o.piece;
  }
};

template <class V>
struct colsort_view {
  const colsort_part* parts = nullptr;
  const merge_run* runs = nullptr;  ///< long rows: carries [first, first + count) fold into y[row]
  const vertex_t* col = nullptr;    ///< entries, each partition's sorted by column (stable; CUDA: tiles in row order)
  const stored_t<V>* val = nullptr;
  const std::uint16_t* lrow = nullptr;  ///< an entry's row within its partition
  void* carry = nullptr;                ///< one 8-byte slot a partition
  offset_t nparts = 0, nruns = 0;
  vertex_t max_rows = 0;                ///< the most rows of any partition (the kernel's shared memory)
};

template <class V, class Space>
struct colsort_matrix {
  vertex_t rows = 0, cols = 0;
  offset_t entries_cap = 0;
  array<colsort_part, Space> parts;
  array<merge_run, Space> runs;
  array<vertex_t, Space> col;
  array<stored_t<V>, Space> val;
  array<std::uint16_t, Space> lrow;
  mutable array<std::uint64_t, Space> carry;
  vertex_t max_rows = 0;

  offset_t nnz() const noexcept { return offset_t(col.size()); }
  std::size_t bytes() const noexcept {
    return parts.bytes() + runs.bytes() + col.bytes() + val.bytes() + lrow.bytes() + carry.bytes();
  }
  colsort_view<V> view() const noexcept {
    return {parts.data(), runs.data(), col.data(), val.data(), lrow.data(), carry.data(), offset_t(parts.size()),
            offset_t(runs.size()), max_rows};
  }
};

/// @brief Partitions A's rows and sorts each partition's entries by column (a copy of A).
template <class V, class Space>
colsort_matrix<V, Space> to_colsort(const csr_matrix<V, Space>& A);

/// @brief y = A (+).(x) x over semiring S. Device: asynchronous on the default stream.
template <class S, class V, class Space>
void spmv(const colsort_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);

}  // namespace fg
