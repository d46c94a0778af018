// ADCSR: adaptive binning on CSR / defragmented DCSR (King et al. 2016, §III-A "adaptive binning",
// after ACSR, Ashari et al. 2014; measured in §IV-B). Each row gets a bin label by its length (1, 2-3,
// 4-8, 9-16, 17-32, 33-64, ... doubling, up to a last bin for every row longer than 1024); a stable sort
// on the labels gives a permuted row list per bin, and a kernel sized for its bin processes that list,
// each bin on its own stream. The rows are stored in bin order (§IV-B: the defragmentation "reorders
// rows by size", +12% SpMV in the paper): the rows of a bin are contiguous, so a bin's kernel streams
// one region of col/val instead of gathering rows from all over the matrix; perm maps back for y.
//
// Choices the paper leaves open: empty rows share bin 0 with the rows of one entry (their y is the
// semiring zero, a thread each); the threads per row of bin b are adcsr_bin_threads[b] (sub-warps of
// 1-16 lanes, a warp, then a block of 64-1024 threads), i.e. about two entries per thread below the
// last bin; the reordering is done when the ADCSR view is built (from CSR or a DCSR store), not by
// DCSR's own defragment, whose CSR order other readers rely on; bins whose work is bounded by 64K entries share one stream (storage/cuda/stream_set.cuh: pooled
// streams, created once per process).
#pragma once
#include <array>
#include <cstddef>

#include "core/array.hpp"
#include "storage/csr.hpp"
#include "storage/dcsr.hpp"

namespace fg {

inline constexpr int adcsr_bins = 11;
/// Threads per row in each bin (1-32: lanes of a warp; 64-1024: a block per row).
inline constexpr int adcsr_bin_threads[adcsr_bins] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

/// Bin of a row of n entries: 0: n <= 1, 1: 2-3, 2: 4-8, 3: 9-16, 4: 17-32, ..., 9: 513-1024, 10: > 1024.
FG_HD inline int adcsr_bin(offset_t n) {
  if (n <= 1) return 0;
  if (n <= 3) return 1;
  if (n <= 8) return 2;
  int b = 3;
  for (offset_t hi = 16; n > hi && b < adcsr_bins - 1; hi *= 2) ++b;
  return b;
}

struct adcsr_options {};  ///< none yet: the bins are the paper's

/// Trivially copyable view handed to kernels.
template <class V>
struct adcsr_view {
  csr_view<V> csr;
  const vertex_t* perm = nullptr;          ///< rows entries: stored row k is matrix row perm[k]; bin b is k in [bin_ptr[b], bin_ptr[b+1])
  vertex_t bin_ptr[adcsr_bins + 1] = {};   ///< host copy, by value
};

template <class V, class Space>
struct adcsr_matrix {
  vertex_t rows = 0, cols = 0;
  array<offset_t, Space> row_ptr;  ///< rows + 1 entries: row k here is row perm[k] of the matrix
  array<vertex_t, Space> col;
  array<stored_t<V>, Space> val;   ///< empty for pattern
  array<vertex_t, Space> perm;     ///< rows entries: rows ordered by bin, original order within a bin
  std::array<vertex_t, adcsr_bins + 1> bin_ptr{};  ///< host: bin b is perm[bin_ptr[b], bin_ptr[b+1])

  offset_t nnz() const noexcept { return static_cast<offset_t>(col.size()); }
  vertex_t bin_rows(int b) const noexcept { return bin_ptr[std::size_t(b) + 1] - bin_ptr[std::size_t(b)]; }
  std::size_t bytes() const noexcept { return row_ptr.bytes() + col.bytes() + val.bytes() + perm.bytes(); }
  adcsr_view<V> view() const noexcept {
    adcsr_view<V> v;
    v.csr = {rows, cols, row_ptr.data(), col.data(), is_pattern_v<V> ? nullptr : val.data(), nnz()};
    v.perm = perm.data();
    for (int b = 0; b <= adcsr_bins; ++b) v.bin_ptr[b] = bin_ptr[std::size_t(b)];
    return v;
  }
};

/// @brief ADCSR copy of a CSR matrix (same space; the CSR is not changed).
/// @throws fg::out_of_memory.
template <class V, class Space>
adcsr_matrix<V, Space> to_adcsr(const csr_matrix<V, Space>& A, const adcsr_options& opts = {});
/// @brief ADCSR of a DCSR store (the paper's use): its compact CSR (rows in order), then binned.
///        After defragment() that CSR is the store's own layout.
template <class V, class Space>
adcsr_matrix<V, Space> to_adcsr(const dcsr_matrix<V, Space>& A, const adcsr_options& opts = {});

/// @brief y = A (+).(x) x over semiring S.
template <class S, class V, class Space>
void spmv(const adcsr_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);

}  // namespace fg
