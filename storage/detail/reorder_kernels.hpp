// Kernel interface of the vertex renumbering (storage/reorder.hpp), the FG_STORAGE_KERNELS pattern of
// storage/detail/kernels.hpp:
//   reorder_kernels<host_space>   = storage/reference/reorder.cpp : sequential twins (the oracle)
//   reorder_kernels<device_space> = storage/device/reorder.cpp    : Thrust (OpenMP or CUDA)
// Orchestration (checks, allocation) lives once, in storage/reorder.cpp. Both twins build identical
// arrays: the order is a stable sort, and a permuted row keeps its entries' order.
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "core/bits.hpp"
#include "storage/csr.hpp"

namespace fg::detail {

/// The DBG group of a vertex named `count` times: the bit width of count (0 for none), so group g
/// holds counts in [2^(g-1), 2^g). Sorting by 64 - group puts the most referenced group first.
FG_HD inline std::uint8_t reorder_key(offset_t count) {
  return static_cast<std::uint8_t>(64 - bit_width(static_cast<std::uint64_t>(count)));
}

template <class Space>
struct reorder_kernels;

#define FG_REORDER_KERNELS(S)                                                                          \
  /* count[c] = entries of column c, for c in [0, n) (count zeroed here) */                             \
  static void column_counts(const vertex_t* col, offset_t nnz, vertex_t n, offset_t* count);           \
  /* old_of_new = the vertices stably sorted by reorder_key(count[v]); new_of_old its inverse */       \
  static void grouped_order(const offset_t* count, vertex_t n, vertex_t* old_of_new, vertex_t* new_of_old); \
  /* row_ptr of P A Pᵀ (n + 1 entries): the lengths of A's rows in the new order, scanned */           \
  static void permuted_row_ptr(const offset_t* row_ptr, const vertex_t* old_of_new, vertex_t n,        \
                               offset_t* out_ptr);                                                     \
  /* every entry of P A Pᵀ: row p's entries are row old_of_new[p]'s, columns renamed by new_of_old */  \
  template <class V>                                                                                    \
  static void permuted_fill(const csr_view<V>& A, const vertex_t* old_of_new, const vertex_t* new_of_old, \
                            const offset_t* out_ptr, vertex_t* col, stored_t<V>* val);                 \
  /* out[p] = in[idx[p]] */                                                                             \
  template <class T>                                                                                    \
  static void gather(const vertex_t* idx, vertex_t n, const T* in, T* out);                             \
  /* out[idx[p]] = in[p] */                                                                             \
  template <class T>                                                                                    \
  static void scatter(const vertex_t* idx, vertex_t n, const T* in, T* out);

template <>
struct reorder_kernels<host_space> {
  FG_REORDER_KERNELS(host_space)
};
template <>
struct reorder_kernels<device_space> {
  FG_REORDER_KERNELS(device_space)
};
#undef FG_REORDER_KERNELS

/// The vector types the renumbering moves: the SpMV vectors of every semiring (or_and: uint8_t).
#define FG_FOR_EACH_ORDERED_VECTOR(X) X(float) X(double) X(std::uint8_t)

}  // namespace fg::detail
