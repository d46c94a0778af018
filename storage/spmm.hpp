// Sparse matrix-matrix product over a semiring, C = A (+).(x) B, and its masked form
// C = (A (+).(x) B) \ M (King et al. 2016, §III-B; the set difference is the semi-naive step of a
// transitive closure). A and B are DCSR stores (fragmented or packed) or CSR snapshots.
//
// How it runs (storage/dcsr_spmm.cpp orchestrates, storage/detail/spmm_kernels.hpp is the interface):
//  1. Partial products per row of A (sum of B's row lengths over the row's entries), scanned.
//  2. Row slices whose temporaries fit a workspace budget (spmm_options::workspace_bytes; by default
//     a quarter of memory::available_bytes(), at most 2 GiB on a GPU, 64 MiB in the CPU build; a
//     row that alone passes that cap still gets a slice of its own within the quarter). A row that
//     alone does not fit throws fg::out_of_memory naming the row; a result that does not
//     fit fails in the allocator, also fg::out_of_memory. The inputs are never changed.
//  3. Per slice, every row's products are expanded, sorted by column and reduced; with a mask, the
//     entries of M's row are looked up in the row's sorted products (binary search) and those found
//     are dropped before anything is written, so A.B is never materialized.
//     CUDA build: rows binned by product count (1-32, 33-64, ..., 1025-2048) are expanded, sorted,
//     reduced and masked by one thread block in shared memory; rows of 2049+ products take the
//     global path (a device radix sort). Without a mask, the rows reduce in hash tables of lane
//     groups, warps and blocks instead (storage/cuda/spmm_hash.cuh; 16385+ products: global).
//     CPU build: a row of up to 8192 products by one OpenMP thread (reduced in a hash table of
//     its own, then its distinct columns sorted), longer rows the global path
//     (storage/device/spmm_portable.cpp).
//     Reference twin: row by row, sequentially.
//  4. Each slice is handed on as a batch sorted by (row, col) with one entry per cell: appended to
//     a DCSR result (spmm_product) or to whatever the caller's sink does (spmm_slices).
#pragma once
#include <cstdint>
#include <functional>
#include <type_traits>

#include "core/semiring.hpp"
#include "storage/coo.hpp"
#include "storage/csr.hpp"
#include "storage/dcsr.hpp"

namespace fg {

/// Value type of C: or-and products are structural (an entry exists or it does not), so C is a
/// pattern; every other semiring keeps its values.
template <class Sr, class V>
using spmm_value_t = std::conditional_t<std::is_same_v<Sr, or_and>, pattern, typename Sr::value_type>;

/// @brief Read-only view of an SpMM operand for kernels: a CSR snapshot (row_ptr set) or a DCSR
///        store (sizes and segments). Trivially copyable.
template <class V>
struct spmm_operand {
  vertex_t rows = 0, cols = 0;
  const offset_t* row_ptr = nullptr;   ///< CSR: rows + 1 offsets; null for a DCSR store
  const vertex_t* sizes = nullptr;     ///< DCSR: entries per row
  const std::uint8_t* nseg = nullptr;  ///< DCSR: segments per row
  const offset_t* seg = nullptr;       ///< DCSR: segment s of row r is [seg[s*pitch+2r], seg[s*pitch+2r+1])
  offset_t pitch = 0;
  const vertex_t* col = nullptr;
  const stored_t<V>* val = nullptr;    ///< null for pattern
  /// Optional membership bitmap of a mask (rows x 32*bit_words bits, bit c of row r in word
  /// r*bit_words + c/32), kept equal to the stored cells by its owner (the closure). With it a mask
  /// tests each product's bit instead of looking every entry of its row up among the products:
  /// O(products) instead of O(row) a round, when R⁺'s rows hold thousands of pairs. The device
  /// kernels use it; the reference twin always reads the rows.
  const std::uint32_t* bits = nullptr;
  offset_t bit_words = 0;

  FG_HD offset_t size(vertex_t r) const { return row_ptr ? row_ptr[r + 1] - row_ptr[r] : offset_t(sizes[r]); }
  /// Calls f(b, e) for each stored run [b, e) of row r, in order (a DCSR segment is cut at the
  /// row's size: its tail is free space).
  template <class F>
  FG_HD void for_each_piece(vertex_t r, F&& f) const {
    if (row_ptr) {
      f(row_ptr[r], row_ptr[r + 1]);
      return;
    }
    for_each_segment_piece(sizes, nseg, seg, pitch, r, f);
  }
  FG_HD bool has_bit(vertex_t r, vertex_t c) const {
    return (bits[offset_t(r) * bit_words + (c >> 5)] >> (c & 31)) & 1u;
  }
  /// The first stored run of row r: its start in col / val and its length (0 for an empty row),
  /// and the row's size. A kernel that reads it once per row finds most entries without locate's
  /// walk. The size and the first segment are read together, so that neither load waits for the
  /// other (every row has a first segment slot, zeroed when the row is made; an empty row's may be
  /// stale after deletions and is not used).
  struct piece {
    offset_t begin = 0, length = 0, size = 0;
  };
  FG_HD piece first_piece(vertex_t r) const {
    if (row_ptr) {
      const offset_t b = row_ptr[r], n = row_ptr[r + 1] - b;
      return {b, n, n};
    }
    const offset_t n = sizes[r], b = seg[2 * offset_t(r)], e = seg[2 * offset_t(r) + 1];
    return {b, n == 0 ? 0 : (e - b < n ? e - b : n), n};
  }
  /// Physical position of the p-th entry of row r (p < size(r)).
  FG_HD offset_t locate(vertex_t r, offset_t p) const {
    if (row_ptr) return row_ptr[r] + p;
    for (int s = 0;; ++s) {
      const offset_t b = seg[s * pitch + 2 * offset_t(r)], e = seg[s * pitch + 2 * offset_t(r) + 1];
      if (p < e - b) return b + p;
      p -= e - b;
    }
  }
};

template <class V, class S>
spmm_operand<V> operand(const dcsr_matrix<V, S>& A) {
  const dcsr_view<V> v = A.view();
  return {v.rows, v.cols, nullptr, v.sizes, v.nseg, v.seg, v.pitch, v.col, v.val};
}
template <class V, class S>
spmm_operand<V> operand(const csr_matrix<V, S>& A) {
  return {A.rows, A.cols, A.row_ptr.data(), nullptr, nullptr, nullptr, 0, A.col.data(),
          is_pattern_v<V> ? nullptr : A.val.data()};
}
/// The same operand without its values: what a mask reads.
template <class V>
spmm_operand<pattern> structure(const spmm_operand<V>& o) {
  return {o.rows, o.cols, o.row_ptr, o.sizes, o.nseg, o.seg, o.pitch, o.col, nullptr, o.bits, o.bit_words};
}

/// Runs `work`, e.g. between two CUDA events. Phases: "count", "multiply" (expand, sort, reduce and
/// the mask: one fused kernel per bin on the GPU), "unmasked" (see spmm_options), and the caller's.
using phase_hook = std::function<void(const char* phase, const std::function<void()>& work)>;
/// Gives the mask as it is now. Called before each slice, so a sink may change the mask's store
/// (the closure appends each slice to it) as long as it only touches rows of finished slices.
using mask_source = std::function<spmm_operand<pattern>()>;

struct spmm_options {
  /// Bytes one slice's temporaries may take; 0: a quarter of memory::available_bytes(), at most
  /// 2 GiB (CUDA build) or 64 MiB (CPU build) except for a single row that needs more (up to the
  /// quarter).
  std::size_t workspace_bytes = 0;
  /// Wraps each phase when set (benchmarks time them); phases run directly otherwise.
  phase_hook timed;
  /// Benchmarks: run every masked slice once more without the mask (phase "unmasked", result
  /// dropped), so that "multiply" - "unmasked" estimates what the set difference costs.
  bool measure_unmasked = false;
  /// Configuration of the DCSR result of spmm_product (rectangular results are never square).
  dcsr_config result;
  /// spmm_product keeps its result in the workspace the rows were computed in (no copy; each row
  /// keeps the room its partial products took, free for later inserts) when the product fits one
  /// slice and has at most this many partial products per entry; else the rows are packed. 0: always
  /// packed. A·P of smoothed aggregation has 3-5 (the copy was a third of its time on the H100).
  double keep_workspace = 6;
};

/// What a call did; the counters are added to (a closure sums them over its iterations).
struct spmm_stats {
  offset_t products = 0;            ///< partial products (the size of A.B expanded)
  offset_t entries = 0;             ///< entries of C (after reduction and the mask)
  std::int64_t slices = 0;          ///< slices that held products
  std::size_t workspace_bytes = 0;  ///< the budget a slice had
};

/// @brief Computes C = (A (+).(x) B) \ M slice by slice and calls sink(batch) for each slice: rows
///        in increasing order, each batch sorted by (row, col), one entry per cell, rows global.
///        No mask when `mask` is empty. A.cols must not exceed B.rows; C is A.rows x B.cols. The sink
///        may keep the batch (it is handed over).
/// @throws fg::out_of_memory (see the file comment); fg::invalid_argument for mismatched shapes.
template <class Sr, class V, class Space>
void spmm_slices(const spmm_operand<V>& A, const spmm_operand<V>& B, const mask_source& mask,
                 const std::function<void(coo_matrix<spmm_value_t<Sr, V>, Space>&&)>& sink,
                 const spmm_options& opt = {}, spmm_stats* stats = nullptr);

/// @brief C = (A (+).(x) B) \ M as a new DCSR store in Space (no mask when `mask` is empty).
template <class Sr, class V, class Space>
dcsr_matrix<spmm_value_t<Sr, V>, Space> spmm_product(const spmm_operand<V>& A, const spmm_operand<V>& B,
                                                     const mask_source& mask, const spmm_options& opt = {},
                                                     spmm_stats* stats = nullptr);

template <class M>
struct spmm_matrix_traits;
template <class V, class S>
struct spmm_matrix_traits<dcsr_matrix<V, S>> {
  using value = V;
  using space = S;
};
template <class V, class S>
struct spmm_matrix_traits<csr_matrix<V, S>> {
  using value = V;
  using space = S;
};

/// @brief C = A (+).(x) B for DCSR or CSR operands (any mix; one value type and memory space).
template <class Sr, class MA, class MB>
auto spmm(const MA& A, const MB& B, const spmm_options& opt = {}, spmm_stats* stats = nullptr) {
  using V = typename spmm_matrix_traits<MA>::value;
  using S = typename spmm_matrix_traits<MA>::space;
  static_assert(std::is_same_v<V, typename spmm_matrix_traits<MB>::value> &&
                std::is_same_v<S, typename spmm_matrix_traits<MB>::space>, "spmm: A and B differ in value type or space");
  return spmm_product<Sr, V, S>(operand(A), operand(B), {}, opt, stats);
}

/// @brief C = (A (+).(x) B) \ M: the cells stored in M (DCSR or CSR, any value type) are left out.
template <class Sr, class MA, class MB, class MM>
auto spmm_masked(const MA& A, const MB& B, const MM& M, const spmm_options& opt = {}, spmm_stats* stats = nullptr) {
  using V = typename spmm_matrix_traits<MA>::value;
  using S = typename spmm_matrix_traits<MA>::space;
  static_assert(std::is_same_v<V, typename spmm_matrix_traits<MB>::value> &&
                std::is_same_v<S, typename spmm_matrix_traits<MB>::space> &&
                std::is_same_v<S, typename spmm_matrix_traits<MM>::space>, "spmm_masked: operands differ in value type or space");
  return spmm_product<Sr, V, S>(operand(A), operand(B), [&M] { return structure(operand(M)); }, opt, stats);
}

}  // namespace fg
