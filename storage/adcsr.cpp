// ADCSR construction and SpMV entry points: argument checks, the CSR copy (or none: the binned reads
// of a size-ordered store and of an unreordered CSR), then the twin of the matrix's memory space
// (storage/detail/adcsr_kernels.hpp).
#include "storage/adcsr.hpp"

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/adcsr_kernels.hpp"
#include "storage/detail/kernels.hpp"  // FG_FOR_EACH_VALUE, FG_FOR_EACH_SPMV

namespace fg {

template <class V, class S>
adcsr_matrix<V, S> to_adcsr(const csr_matrix<V, S>& A, const adcsr_options&) {
  FG_EXPECTS(A.rows >= 0 && A.cols >= 0, "to_adcsr: negative dimension");
  FG_EXPECTS(A.row_ptr.size() == std::size_t(A.rows) + 1 || (A.rows == 0 && A.row_ptr.empty()),
             "to_adcsr: row_ptr must hold rows + 1 entries");
  adcsr_matrix<V, S> m;
  m.rows = A.rows;
  m.cols = A.cols;
  m.row_ptr = array<offset_t, S>(A.row_ptr.size());
  m.col = array<vertex_t, S>(A.col.size());
  m.val = array<stored_t<V>, S>(A.val.size());
  m.perm = array<vertex_t, S>(std::size_t(A.rows));
  if (A.rows == 0) fill_zero(m.row_ptr);  // 0 rows: row_ptr is {0} (or empty)
  if (A.rows > 0) {
    using K = detail::adcsr_kernels<S>;
    K::adcsr_bin_rows(A.row_ptr.data(), A.rows, m.perm.data(), m.bin_ptr.data());
    K::adcsr_reorder(A.view(), m.perm.data(), m.row_ptr.data(), m.col.data(), m.val.data());
  }
  return m;
}

template <class V, class S>
adcsr_matrix<V, S> to_adcsr(const dcsr_matrix<V, S>& A, const adcsr_options& opts) {
  return to_adcsr(A.to_csr(), opts);
}

template <class Sr, class V, class S>
void spmv(const adcsr_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.rows, A.cols);
  if (A.rows > 0) detail::adcsr_kernels<S>::template adcsr_spmv<Sr>(A.view(), x.data(), y.data());
}

template <class V, class S>
row_binning<S> bin_rows(const csr_matrix<V, S>& A) {
  FG_EXPECTS(A.row_ptr.size() == std::size_t(A.rows) + 1, "bin_rows: row_ptr must hold rows + 1 entries");
  row_binning<S> b;
  b.perm = array<vertex_t, S>(std::size_t(A.rows));
  if (A.rows > 0) detail::adcsr_kernels<S>::adcsr_bin_rows(A.row_ptr.data(), A.rows, b.perm.data(), b.bin_ptr.data());
  return b;
}

template <class Sr, class V, class S>
void spmv_binned(const dcsr_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
                 array<typename Sr::value_type, S>& y) {
  if (!A.size_ordered())
    throw invalid_argument("spmv_binned: the store is not size-ordered (defragment it with dcsr_layout::size_order; "
                           "a batch since then undoes it)");
  detail::check_spmv_sizes(x.size(), y.size(), A.rows(), A.cols(), "spmv_binned");
  if (A.rows() == 0) return;
  const dcsr_view<V> s = A.view();
  const auto v = make_adcsr_view<V>({A.rows(), A.cols(), A.size_order_ptr().data(), s.col, s.val, A.nnz()},
                                    A.size_order().data(), A.size_bins(), false);
  detail::adcsr_kernels<S>::template adcsr_spmv<Sr>(v, x.data(), y.data());
}

template <class Sr, class V, class S>
void spmv_binned(const csr_matrix<V, S>& A, const row_binning<S>& bins, const array<typename Sr::value_type, S>& x,
                 array<typename Sr::value_type, S>& y) {
  FG_EXPECTS(bins.perm.size() == std::size_t(A.rows) && bins.bin_ptr[adcsr_bins] == A.rows,
             "spmv_binned: the binning is not of this matrix (bin_rows(A))");
  detail::check_spmv_sizes(x.size(), y.size(), A.rows, A.cols, "spmv_binned");
  if (A.rows == 0) return;
  const auto v = make_adcsr_view<V>(A.view(), bins.perm.data(), bins.bin_ptr, true);
  detail::adcsr_kernels<S>::template adcsr_spmv<Sr>(v, x.data(), y.data());
}

#define FG_INSTANTIATE_IN(V, S)                                                                    \
  template adcsr_matrix<V, S> to_adcsr<V, S>(const csr_matrix<V, S>&, const adcsr_options&);      \
  template adcsr_matrix<V, S> to_adcsr<V, S>(const dcsr_matrix<V, S>&, const adcsr_options&);     \
  template row_binning<S> bin_rows<V, S>(const csr_matrix<V, S>&);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

#define FG_SPMV_FORMAT adcsr_matrix
FG_FOR_EACH_SPMV(FG_SPMV_OF_FORMAT)
#undef FG_SPMV_FORMAT

#define FG_BINNED_IN(Sr, V, S)                                                                         \
  template void spmv_binned<Sr, V, S>(const dcsr_matrix<V, S>&, const array<Sr::value_type, S>&,       \
                                      array<Sr::value_type, S>&);                                      \
  template void spmv_binned<Sr, V, S>(const csr_matrix<V, S>&, const row_binning<S>&,                  \
                                      const array<Sr::value_type, S>&, array<Sr::value_type, S>&);
#define FG_BINNED(Sr, V) FG_BINNED_IN(Sr, V, host_space) FG_BINNED_IN(Sr, V, device_space)
FG_FOR_EACH_SPMV(FG_BINNED)
#undef FG_BINNED
#undef FG_BINNED_IN

}  // namespace fg
