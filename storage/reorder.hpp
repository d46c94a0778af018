// Vertex renumbering for read-heavy phases (issue 22). On a power-law graph larger than L2 an SpMV's
// time goes to the gather of x: each cache line of x is fetched for one 4- or 8-byte entry, and the
// few vertices that most entries name (the hubs) lie scattered over the whole vector, so even the
// hot part of x does not stay in cache. Renumbering the vertices so that the most referenced ones
// come first packs the hot part of x into few lines that L2 (and L1) keep.
//
// The order is degree-based grouping (DBG; Faldu, Diamond, Grot, "A Closer Look at Lightweight Graph
// Reordering", IISWC 2019): vertices go to groups by the bit width of their column count (how many
// entries name them, i.e. how often an SpMV reads their x), the largest group first, and keep their
// original order inside a group. Unlike a full sort by degree it keeps whatever locality the input
// order had among vertices of similar degree (a web crawl's), and it is one stable sort on a
// 1-byte key.
//
// The permutation is symmetric (P A Pᵀ): an iterative reader (PageRank) then keeps its vectors in
// the new order for the whole phase and converts once at each end; a single SpMV gathers x into the
// new order and scatters y back (two passes over n, against one over nnz).
#pragma once
#include <memory>

#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg {

/// A renumbering of n vertices: the vertex at new position p is old_of_new[p]; new_of_old inverts it.
template <class Space>
struct vertex_order {
  array<vertex_t, Space> old_of_new, new_of_old;
  vertex_t size() const noexcept { return static_cast<vertex_t>(old_of_new.size()); }
  std::size_t bytes() const noexcept { return old_of_new.bytes() + new_of_old.bytes(); }
};

/// @brief The DBG order of A's vertices by column count (above). Deterministic: both twins give the
///        same order.
/// @throws fg::invalid_argument unless A is square; fg::out_of_memory.
template <class V, class Space>
vertex_order<Space> degree_grouped_order(const csr_matrix<V, Space>& A);

/// @brief P A Pᵀ: row p is row o.old_of_new[p] of A with every column c renamed o.new_of_old[c];
///        a row keeps its entries' order.
/// @throws fg::invalid_argument unless A is square with o.size() rows; fg::out_of_memory.
template <class V, class Space>
csr_matrix<V, Space> permute(const csr_matrix<V, Space>& A, const vertex_order<Space>& o);

/// @brief out[p] = in[o.old_of_new[p]]: a vector in the new order (out is resized).
template <class T, class Space>
void to_order(const vertex_order<Space>& o, const array<T, Space>& in, array<T, Space>& out);

/// @brief out[o.old_of_new[p]] = in[p]: a vector back in the original order (out is resized).
template <class T, class Space>
void from_order(const vertex_order<Space>& o, const array<T, Space>& in, array<T, Space>& out);

/// A read format F built over P A Pᵀ, read in the caller's order: x is gathered into the new order,
/// F's SpMV runs there, y is scattered back. `inner` is public so an iterative reader can keep its
/// vectors in the new order and call F's SpMV directly.
template <class F, class Space>
struct reordered_matrix {
  std::shared_ptr<const vertex_order<Space>> order;
  F inner;
  std::size_t bytes() const noexcept { return order->bytes() + inner.bytes(); }
};

/// @brief y = A x through P A Pᵀ (reordered_matrix above); x and y in A's original order.
template <class Sr, class F, class Space>
void spmv(const reordered_matrix<F, Space>& A, const array<typename Sr::value_type, Space>& x,
          array<typename Sr::value_type, Space>& y) {
  using T = typename Sr::value_type;
  array<T, Space> xp, yp(x.size());
  to_order(*A.order, x, xp);
  spmv<Sr>(A.inner, xp, yp);
  from_order(*A.order, yp, y);
}

}  // namespace fg
