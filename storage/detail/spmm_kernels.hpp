// Kernel interface of SpMM (storage/spmm.hpp), the FG_STORAGE_KERNELS pattern:
//   spmm_kernels<host_space>   = storage/reference/spmm.cpp (sequential, row by row: the oracle)
//   spmm_kernels<device_space> = storage/device/spmm_common.cpp + spmm_global.cpp (Thrust, both
//                                builds) and storage/device/spmm_portable.cpp (CPU build) or
//                                storage/cuda/spmm_binned.cu (CUDA build) for multiply_rows.
// Both twins return each slice sorted by (row, col) with one entry per cell, so results compare
// exactly (values within rounding: the CUDA bins sum a cell's products in sorted, not input, order).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/array.hpp"
#include "storage/coo.hpp"
#include "storage/spmm.hpp"

namespace fg::detail {

struct product_totals {
  offset_t products = 0;  ///< partial products of all rows
  offset_t cost = 0;      ///< workspace bytes of all rows (see count_products)
};

/// Workspace a slice needs, in bytes: per partial product, per entry of A, per row. The global path
/// needs the most per product (64-bit keys, the sort's second buffer, reduced copies, the output
/// batch); a row of at most bin_limit products (the CUDA bins) needs its products' workspace
/// (column and value) and the output batch (row, column, value).
struct spmm_cost {
  offset_t per_product = 0, per_entry = 16, per_row = 64;
  offset_t bin_limit = 0, per_binned_product = 0;
  FG_HD offset_t of(offset_t products, offset_t entries) const {
    return (products <= bin_limit ? per_binned_product : per_product) * products + per_entry * entries + per_row;
  }
};
/// bin_limit: the longest row the CUDA bins take (0: every row takes the global path).
inline spmm_cost spmm_cost_of(std::size_t value_bytes, offset_t bin_limit) {
  return {offset_t(40 + 4 * value_bytes), 16, 64, bin_limit, offset_t(12 + 2 * value_bytes)};
}

/// Product-count bins of the CUDA kernels (§III-B): 0 = no products, 1: 1-32, 2: 33-64, ...,
/// 7: 1025-2048 (shared memory, a thread block per row), 8: 2049+ (global path).
inline constexpr int spmm_bins = 9;
inline constexpr offset_t spmm_bin_limit = 2048, spmm_hash_bin_limit = 16384;
FG_HD inline int spmm_bin(offset_t products) {
  if (products <= 0) return 0;
  int b = 1;
  for (offset_t cap = 32; products > cap && b < spmm_bins - 1; cap *= 2) ++b;
  return b;
}
/// Bins of the unmasked products (storage/cuda/spmm_hash.cuh), from a row's partial products p and
/// the entries a of A's row: 1-3 rows of p <= G and a <= G for G = 8, 16, 32 (a group of G lanes a
/// row, no loops); 4: p <= 64 (and the short rows with more entries), 5: <= 128, ...,
/// 12: <= 16384; 13: the global path.
inline constexpr int spmm_hash_bins = 14;
FG_HD inline int spmm_hash_bin(offset_t p, offset_t a) {
  if (p <= 0) return 0;
  if (p <= 32 && a <= 32) return p <= 8 && a <= 8 ? 1 : p <= 16 && a <= 16 ? 2 : 3;
  int b = 4;
  for (offset_t cap = 64; p > cap && b < spmm_hash_bins - 1; cap *= 2) ++b;
  return b;
}

/// The CUDA bins of every row, made by count_products in the same pass and read back with its
/// totals (one host read per SpMM, not one for the totals and one for the bins): label[r] =
/// spmm_bin (masked) or spmm_hash_bin (unmasked) of row r, rows[b] = rows in bin b, and for a
/// few rows (a coarse AMG level) the rows listed by bin as well. Twins without bins leave `rows`
/// empty; multiply_rows then bins the rows itself when it has bins.
struct spmm_row_bins {
  std::uint8_t* label = nullptr;  ///< device array of A.rows entries
  vertex_t* order = nullptr;      ///< device array of A.rows entries: the rows listed bin after bin
  bool masked = false;
  bool filled = false;  ///< rows[] holds the counts (set by count_products)
  bool listed = false;  ///< order[] holds the list (count_products of a few rows, CUDA build)
  std::array<offset_t, spmm_hash_bins> rows{};
};

/// A slice's rows in the workspace, as multiply_rows leaves them: row r (r0 <= r < r1) has its
/// count[r - r0] entries, sorted by column, at ws[ptr[r] - base ...]; count has r1 - r0 + 1 entries
/// (the last 0). spmm_kernels::pack makes it a batch; spmm_product may keep it as it is.
template <class VC, class S>
struct spmm_workspace {
  array<vertex_t, S> col;
  array<stored_t<VC>, S> val;
  array<offset_t, S> count;
};

/// A packed slice: the batch sorted by (row, col) and its rows' offsets in it (r1 - r0 + 1).
template <class VC, class S>
struct spmm_part {
  coo_matrix<VC, S> batch;
  array<offset_t, S> row_ptr;
};

/// Stores a value of C unless C is a pattern (no value array). For lambdas, which must not
/// first-capture inside `if constexpr` under nvcc.
template <class VC, class T>
FG_HD inline void store_value(stored_t<VC>* out, offset_t i, T v) {
  if constexpr (!is_pattern_v<VC>) out[i] = stored_t<VC>(v);
}

template <class Space>
struct spmm_kernels;

#define FG_SPMM_KERNELS(S)                                                                            \
  /* ptr[r] / cost[r] (rows + 1 entries each) = exclusive prefix sums over the rows of A of the        \
     partial products (sum of B's row lengths over the row's entries) and of the workspace bytes */   \
  /* (bins: see spmm_row_bins; may be null) */                                                       \
  template <class V>                                                                                  \
  static product_totals count_products(const spmm_operand<V>& A, const spmm_operand<V>& B,           \
                                       const spmm_cost& c, offset_t* ptr, offset_t* cost,            \
                                       spmm_row_bins* bins);                                          \
  /* rows [r0, r1) of (A (+).(x) B) \ M (M null: no mask), ptr from count_products (base = ptr[r0]  \
     and products = ptr[r1] - ptr[r0], which the caller knows), into a workspace of `products`       \
     entries: each row sorted by column, one entry per cell. bins: count_products's, or null */       \
  template <class Sr, class V>                                                                        \
  static spmm_workspace<spmm_value_t<Sr, V>, S> multiply_rows(const spmm_operand<V>& A,             \
                                                               const spmm_operand<V>& B,             \
                                                               const spmm_operand<pattern>* M,       \
                                                               vertex_t r0, vertex_t r1,             \
                                                               const offset_t* ptr, offset_t base,   \
                                                               offset_t products,                    \
                                                               const spmm_row_bins* bins);           \
  /* exclusive scan of a workspace's n + 1 counts in place; returns the total (its last entry) */     \
  static offset_t scan_counts(offset_t* count, std::int64_t n);                                       \
  /* the workspace of rows [r0, r1) packed (its count scanned, `total` entries): count becomes      \
     row_ptr */                                                                                       \
  template <class VC>                                                                                 \
  static spmm_part<VC, S> pack(vertex_t r0, vertex_t r1, const offset_t* ptr, offset_t base,         \
                               spmm_workspace<VC, S>&& ws, offset_t total);                           \
  /* true when (row, col) strictly increase over the n entries (sorted, no repeats) */                \
  static bool strictly_sorted(const vertex_t* row, const vertex_t* col, std::size_t n);            \
  /* row_ptr[i] (i in [0, rows]) = first of the n entries of a batch sorted by row whose row is     \
     >= i: the batch's CSR offsets */                                                                 \
  static void row_offsets(const vertex_t* row, std::size_t n, vertex_t rows, offset_t* row_ptr);     \
  /* sets the bits (row[i], col[i]) of a membership bitmap (spmm_operand::bits) */                   \
  static void mark(std::uint32_t* bits, offset_t words, const vertex_t* row, const vertex_t* col,     \
                   std::size_t n);

template <>
struct spmm_kernels<host_space> {
  FG_SPMM_KERNELS(host_space)
};
template <>
struct spmm_kernels<device_space> {
  FG_SPMM_KERNELS(device_space)
};
#undef FG_SPMM_KERNELS

}  // namespace fg::detail

// Explicit instantiations, one macro per kernel: a twin's file expands the ones it defines, e.g.
// FG_FOR_EACH_SPMM(FG_SPMM_MULTIPLY_HOST) in the reference twin (inside namespace fg::detail).
#define FG_SPMM_COUNT_IN(S, V)                                                                     \
  template product_totals spmm_kernels<S>::count_products<V>(                                     \
      const spmm_operand<V>&, const spmm_operand<V>&, const spmm_cost&, offset_t*, offset_t*,     \
      spmm_row_bins*);
#define FG_SPMM_MULTIPLY_IN(S, Sr, V)                                                              \
  template spmm_workspace<spmm_value_t<Sr, V>, S> spmm_kernels<S>::multiply_rows<Sr, V>(           \
      const spmm_operand<V>&, const spmm_operand<V>&, const spmm_operand<pattern>*, vertex_t,      \
      vertex_t, const offset_t*, offset_t, offset_t, const spmm_row_bins*);
#define FG_SPMM_PACK_IN(S, VC)                                                                     \
  template spmm_part<VC, S> spmm_kernels<S>::pack<VC>(vertex_t, vertex_t, const offset_t*,         \
                                                      offset_t, spmm_workspace<VC, S>&&, offset_t);
#define FG_SPMM_COUNT_HOST(V) FG_SPMM_COUNT_IN(::fg::host_space, V)
#define FG_SPMM_COUNT_DEVICE(V) FG_SPMM_COUNT_IN(::fg::device_space, V)
#define FG_SPMM_MULTIPLY_HOST(Sr, V) FG_SPMM_MULTIPLY_IN(::fg::host_space, Sr, V)
#define FG_SPMM_MULTIPLY_DEVICE(Sr, V) FG_SPMM_MULTIPLY_IN(::fg::device_space, Sr, V)

// (semiring, value type of A and B) pairs SpMM is built for.
#define FG_FOR_EACH_SPMM(M)                                                                    \
  M(::fg::or_and, ::fg::pattern) M(::fg::plus_times<float>, float)                             \
  M(::fg::plus_times<double>, double) M(::fg::plus_times<double>, ::fg::pattern)               \
  M(::fg::min_plus<double>, double)
