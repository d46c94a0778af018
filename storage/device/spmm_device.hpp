// Pieces of the device SpMM shared by the CPU build's portable multiply_rows
// (storage/device/spmm_portable.cpp) and the CUDA build's binned one (storage/cuda/spmm_binned.cu).
// Both write a slice's rows into a workspace laid out like the partial products (row r's results
// start at ws[ptr[r] - base], its count in count[r - r0]): spmm_workspace.
#pragma once
#include "storage/detail/spmm_kernels.hpp"

namespace fg::detail::spmm_device {

/// The global path (§III-B's 2049+ rows; every row in the CPU build): the products of the listed
/// rows (rows == nullptr: rows r0 .. r0 + n - 1) are expanded with 64-bit (row, column) keys,
/// radix/merge sorted, reduced by key, masked by binary search of M's entries in the sorted
/// results, and scattered into the workspace; count[r - r0] gets each row's length.
template <class Sr, class V>
void global_rows(const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_operand<pattern>* M,
                 const vertex_t* rows, std::int64_t n, vertex_t r0, const offset_t* ptr, offset_t base,
                 vertex_t* ws_col, stored_t<spmm_value_t<Sr, V>>* ws_val, offset_t* count);

/// CUDA build (storage/cuda/spmm_binned.cu): label[r - r0] = the bin of row r in [r0, r1) (spmm_bin when masked, else spmm_hash_bin; ptr:
/// count_products's scanned products), and hist[b] += the rows in bin b (spmm_hash_bins entries).
template <class V>
void label_rows(const spmm_operand<V>& A, const offset_t* ptr, vertex_t r0, vertex_t r1, bool masked,
                std::uint8_t* label, offset_t* hist);

/// CUDA build: a product of at most small_rows rows (a coarse AMG level) is counted by two kernels:
/// a warp a row, then one block that scans the counts and the costs, labels the rows, lists them
/// by bin (bins.order) and writes out[0] = products, out[1] = cost, out[2 + b] = rows in bin b.
/// Where the general path took nine launches and two scans' temporaries: such a product is made
/// of launches and waits, not of work.
inline constexpr vertex_t small_rows = 8192;
template <class V>
void count_small(const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_cost& c, offset_t* ptr,
                 offset_t* cost, spmm_row_bins& bins, offset_t* out);
/// CUDA build: exclusive scan of n + 1 counts (n < small_rows) by one block; returns the total.
offset_t scan_small(offset_t* count, std::int64_t n);

/// Host copy of one entry of a device array.
offset_t read_offset(const offset_t* p);

}  // namespace fg::detail::spmm_device
