// ADCSR: adaptive binning on CSR / defragmented DCSR (King et al. 2016, §III-A "adaptive binning",
// after ACSR, Ashari et al. 2014; measured in §IV-B). Each row gets a bin label by its length (1, 2-3,
// 4-8, 9-16, 17-32, 33-64, ... doubling, up to a last bin for every row longer than 1024); a stable sort
// on the labels gives a permuted row list per bin, and a kernel sized for its bin processes that list,
// each bin on its own stream. The rows are stored in bin order (§IV-B: the defragmentation "reorders
// rows by size", +12% SpMV in the paper): the rows of a bin are contiguous, so a bin's kernel streams
// one region of col/val instead of gathering rows from all over the matrix; perm maps back for y.
//
// Three ways to get there, one kernel set:
//  - to_adcsr: a reordered copy (from CSR or a store's compact CSR);
//  - spmv_binned(store): a DCSR store defragmented with dcsr_layout::size_order already holds its
//    rows in bin order, so the kernels read the store itself, with no copy (the paper's design);
//  - spmv_binned(csr, bin_rows(csr)): ACSR's original scheme, bins over an unreordered CSR (row k of
//    a bin is read at row_ptr[perm[k]]); the baseline of the paper's +12%.
//
// Choices the paper leaves open: empty rows share bin 0 with the rows of one entry (their y is the
// semiring zero, a thread each); the threads per row of bin b are adcsr_bin_threads[b] (sub-warps of
// 1-16 lanes, a warp, then a block of 64-1024 threads), i.e. about two entries per thread below the
// last bin; bins whose work is bounded by 64K entries share one stream (storage/cuda/stream_set.cuh:
// pooled streams, created once per process).
#pragma once
#include <array>
#include <cstddef>

#include "core/array.hpp"
#include "storage/csr.hpp"
#include "storage/dcsr.hpp"
#include "storage/row_bins.hpp"

namespace fg {

struct adcsr_options {};  ///< none yet: the bins are the paper's

/// Trivially copyable view handed to kernels.
template <class V>
struct adcsr_view {
  csr_view<V> csr;
  const vertex_t* perm = nullptr;          ///< rows entries: stored row k is matrix row perm[k]; bin b is k in [bin_ptr[b], bin_ptr[b+1])
  vertex_t bin_ptr[adcsr_bins + 1] = {};   ///< host copy, by value
  /// false: csr.row_ptr is indexed by stored position k (rows in bin order); true: by matrix row
  /// (row perm[k] read in place, no reorder: ACSR)
  bool gathered = false;
};

/// The kernels' view of rows `perm` binned by `bin_ptr` over the CSR-like arrays of `csr`.
template <class V>
adcsr_view<V> make_adcsr_view(const csr_view<V>& csr, const vertex_t* perm,
                              const std::array<vertex_t, adcsr_bins + 1>& bin_ptr, bool gathered) {
  adcsr_view<V> v;
  v.csr = csr;
  v.perm = perm;
  for (int b = 0; b <= adcsr_bins; ++b) v.bin_ptr[b] = bin_ptr[std::size_t(b)];
  v.gathered = gathered;
  return v;
}

/// Bins of a matrix's rows without moving them (ACSR): perm lists the rows bin by bin, in row order
/// within a bin; bin_ptr (host) is where each bin starts in perm.
template <class Space>
struct row_binning {
  array<vertex_t, Space> perm;
  std::array<vertex_t, adcsr_bins + 1> bin_ptr{};
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
    return make_adcsr_view<V>({rows, cols, row_ptr.data(), col.data(), is_pattern_v<V> ? nullptr : val.data(), nnz()},
                              perm.data(), bin_ptr, false);
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

/// @brief The bins of A's rows, A unchanged (for spmv_binned on that CSR).
template <class V, class Space>
row_binning<Space> bin_rows(const csr_matrix<V, Space>& A);

/// @brief y = A (+).(x) x over semiring S.
template <class S, class V, class Space>
void spmv(const adcsr_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);
/// @brief y = A x by the ADCSR kernels reading the store itself: A must be size_ordered() (its last
///        compaction was dcsr_layout::size_order and no batch has written since).
/// @throws fg::invalid_argument otherwise.
template <class S, class V, class Space>
void spmv_binned(const dcsr_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
                 array<typename S::value_type, Space>& y);
/// @brief y = A x by the ADCSR kernels over A's rows in place, binned by `bins` (= bin_rows(A)).
template <class S, class V, class Space>
void spmv_binned(const csr_matrix<V, Space>& A, const row_binning<Space>& bins,
                 const array<typename S::value_type, Space>& x, array<typename S::value_type, Space>& y);

}  // namespace fg
