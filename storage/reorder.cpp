// Vertex renumbering entry points (storage/reorder.hpp): checks and allocation, then the twin of the
// matrix's space (storage/detail/reorder_kernels.hpp).
#include "storage/reorder.hpp"

#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "storage/detail/kernels.hpp"  // FG_FOR_EACH_VALUE
#include "storage/detail/reorder_kernels.hpp"

namespace fg {

template <class V, class S>
vertex_order<S> degree_grouped_order(const csr_matrix<V, S>& A) {
  FG_EXPECTS(A.rows == A.cols, "degree_grouped_order: the matrix must be square (" + std::to_string(A.rows) + " x " +
                                   std::to_string(A.cols) + "): rows and columns are renamed alike");
  using K = detail::reorder_kernels<S>;
  const vertex_t n = A.rows;
  vertex_order<S> o;
  o.old_of_new = array<vertex_t, S>(std::size_t(n));
  o.new_of_old = array<vertex_t, S>(std::size_t(n));
  if (n == 0) return o;
  array<offset_t, S> count(static_cast<std::size_t>(n));
  K::column_counts(A.col.data(), A.nnz(), n, count.data());
  K::grouped_order(count.data(), n, o.old_of_new.data(), o.new_of_old.data());
  return o;
}

template <class V, class S>
csr_matrix<V, S> permute(const csr_matrix<V, S>& A, const vertex_order<S>& o) {
  FG_EXPECTS(A.rows == A.cols && o.size() == A.rows,
             "permute: a square matrix and an order of its " + std::to_string(A.rows) + " vertices (the order has " +
                 std::to_string(o.size()) + ", the matrix " + std::to_string(A.cols) + " columns)");
  using K = detail::reorder_kernels<S>;
  csr_matrix<V, S> P;
  P.rows = P.cols = A.rows;
  P.row_ptr = array<offset_t, S>(std::size_t(A.rows) + 1);
  P.col = array<vertex_t, S>(std::size_t(A.nnz()));
  P.val = array<stored_t<V>, S>(is_pattern_v<V> ? 0 : std::size_t(A.nnz()));
  K::permuted_row_ptr(A.row_ptr.data(), o.old_of_new.data(), A.rows, P.row_ptr.data());
  if (A.nnz() > 0)
    K::template permuted_fill<V>(A.view(), o.old_of_new.data(), o.new_of_old.data(), P.row_ptr.data(), P.col.data(),
                                 P.val.data());
  return P;
}

namespace {
// Checks a vector against the order and sizes the output like it.
template <class T, class S>
void prepare(const char* what, const vertex_order<S>& o, const array<T, S>& in, array<T, S>& out) {
  FG_EXPECTS(in.size() == std::size_t(o.size()), std::string(what) + ": a vector of " + std::to_string(in.size()) +
                                                     " entries for an order of " + std::to_string(o.size()));
  if (out.size() != in.size()) out = array<T, S>(in.size());
}
}  // namespace

template <class T, class S>
void to_order(const vertex_order<S>& o, const array<T, S>& in, array<T, S>& out) {
  prepare("to_order", o, in, out);
  detail::reorder_kernels<S>::gather(o.old_of_new.data(), o.size(), in.data(), out.data());
}

template <class T, class S>
void from_order(const vertex_order<S>& o, const array<T, S>& in, array<T, S>& out) {
  prepare("from_order", o, in, out);
  detail::reorder_kernels<S>::scatter(o.old_of_new.data(), o.size(), in.data(), out.data());
}

#define FG_INSTANTIATE_IN(V, S)                                                               \
  template vertex_order<S> degree_grouped_order<V, S>(const csr_matrix<V, S>&);               \
  template csr_matrix<V, S> permute<V, S>(const csr_matrix<V, S>&, const vertex_order<S>&);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN
#define FG_INSTANTIATE_IN(T, S)                                                                     \
  template void to_order<T, S>(const vertex_order<S>&, const array<T, S>&, array<T, S>&);           \
  template void from_order<T, S>(const vertex_order<S>&, const array<T, S>&, array<T, S>&);
#define FG_INSTANTIATE(T) FG_INSTANTIATE_IN(T, host_space) FG_INSTANTIATE_IN(T, device_space)
FG_FOR_EACH_ORDERED_VECTOR(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

}  // namespace fg
