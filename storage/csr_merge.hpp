// Merge-path CSR SpMV (Merrill & Garland, "Merge-based parallel sparse matrix-vector multiplication",
// SC 2016): SpMV as a merge of the row-end offsets (row_ptr[1..rows]) with the nonzero indices
// (0..nnz-1). The rows + nnz merge items are cut into equal tiles, one per thread block, and each
// thread consumes a fixed number of consecutive items: perfect balance whatever the row lengths (a hub
// row is spread over as many threads and blocks as its length needs, a run of empty rows costs one
// item each), and a fixed, small number of instructions per nonzero. A row cut by a tile boundary is
// finished by a second, tiny kernel that adds each tile's carried partial (no atomics: the semiring
// may be min-plus or or-and).
//
// The conversion precomputes everything the SpMV would otherwise search or allocate: each tile's start
// coordinate (the diagonal search done once, not per call), the runs of tiles whose carries go to the
// same row (the fix-up's work list), and the carry scratch.
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg {

/// Threads per block of the CUDA kernel.
inline constexpr int csr_merge_threads = 256;

/// Merge items per thread, fixed by the matrix's value type (the tile coordinates are precomputed for
/// one tile size). 7 as in CUB's merge-based SpMV for 4-byte values: the in-tile merge-path search
/// (log2 1792 = 11 shared-memory steps) and the block scan are amortised over 7 items, and a 1792-item
/// tile keeps per-tile costs (two coordinate loads, a carry) under 1% of the work. Odd, because
/// neighbouring threads read the staged tile about items_per_thread slots apart, and an odd stride
/// spreads a warp's reads over all 32 shared-memory banks. 8-byte values get 5 (a 1280-item tile):
/// the staged products of a tile (10 KB) and the registers per thread stay close to the float
/// kernel's, so 8 blocks of 256 threads (a full sm_90 SM, 2048 threads) still fit. Pattern matrices
/// move no values: 7.
template <class V>
inline constexpr int csr_merge_items_per_thread = sizeof(stored_t<V>) > 4 ? 5 : 7;

template <class V>
inline constexpr offset_t csr_merge_tile_items = offset_t(csr_merge_threads) * csr_merge_items_per_thread<V>;

/// A point of the merge path: `row` row ends and `nz` nonzeros consumed before it.
struct merge_coord {
  offset_t row = 0, nz = 0;
  bool operator==(const merge_coord& o) const noexcept { return row == o.row && nz == o.nz; }
};

/// Consecutive tiles [first, first + count) whose carries (partial sums of `row`, a row cut by their
/// end) all belong to `row`: the fix-up folds them into y[row]. Only tiles that carry nonzeros count.
struct merge_run {
  vertex_t row = 0;
  std::int32_t count = 0;
  offset_t first = 0;
  bool operator==(const merge_run& o) const noexcept { return row == o.row && count == o.count && first == o.first; }
};

template <class V>
struct csr_merge_view {
  csr_view<V> csr;
  const merge_coord* coords = nullptr;  ///< tiles + 1 path points at diagonals t * tile_items
  const merge_run* runs = nullptr;
  const std::uint32_t* row_end32 = nullptr;  ///< row_ptr[1..rows] in 32 bits when nnz < 2^31, else null
  void* carry = nullptr;                ///< tiles slots of 8 bytes (any semiring's value type)
  offset_t tiles = 0, nruns = 0, tile_items = 0;
};

template <class V, class Space>
struct csr_merge_matrix {
  csr_matrix<V, Space> csr;        ///< its own copy of the matrix
  array<merge_coord, Space> coords;
  array<merge_run, Space> runs;
  /// The row ends again in 32 bits when nnz < 2^31: the kernel stages them with half the bytes of the
  /// 64-bit row_ptr (rmat-22: 17 of the 58 MB it read more than cuSPARSE's 32-bit CSR, on the H100).
  array<std::uint32_t, Space> row_end32;
  /// Per-tile carries written by every device SpMV (allocated here, so a call allocates nothing).
  /// Calls on one matrix are ordered on the default stream; host threads sharing one matrix must not
  /// run its device SpMV concurrently. Empty in host_space: the reference twin keeps its own.
  mutable array<std::uint64_t, Space> carry;
  offset_t tiles = 0, tile_items = 0;

  std::size_t bytes() const noexcept {
    return csr.bytes() + coords.bytes() + runs.bytes() + row_end32.bytes() +
           carry.bytes();
  }
  csr_merge_view<V> view() const noexcept {
    return {csr.view(), coords.data(), runs.data(), row_end32.empty() ? nullptr : row_end32.data(), carry.data(), tiles,
            offset_t(runs.size()), tile_items};
  }
};

/// @brief Copies A and precomputes its merge-path tiles, fix-up runs and carry scratch.
template <class V, class Space>
csr_merge_matrix<V, Space> to_csr_merge(const csr_matrix<V, Space>& A);
/// @brief The same, taking A itself instead of a copy (a view built from a fresh to_csr() copies
///        the matrix once, not twice: rmat-24's 1 GB of columns).
template <class V, class Space>
csr_merge_matrix<V, Space> to_csr_merge(csr_matrix<V, Space>&& A);

/// @brief y = A (+).(x) x over semiring S. Device: two kernels on the default stream, returns
///        asynchronously like the other CSR kernels.
template <class S, class V, class Space>
void spmv(const csr_merge_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);

/// @brief y = A x (plus-times) with double sums of x stored as float: the gather moves half the
///        bytes. Each x element is rounded once (relative 2^-24), so with non-negative A and x each
///        y[r] is within 2^-24 y[r] of the double read: for readers whose tolerance is far above
///        that (PageRank on large graphs). V: pattern or double. Device: asynchronous, like spmv.
template <class V, class Space>
void spmv_mixed(const csr_merge_matrix<V, Space>& A, const array<float, Space>& x, array<double, Space>& y);

}  // namespace fg
