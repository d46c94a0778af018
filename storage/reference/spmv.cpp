// Reference twins of the SpMV kernels (storage/device/*_spmv.cpp, storage/cuda/*_spmv.cu):
// one row at a time, entries in stored order (Algorithm 3 for DCSR).
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = kernels<host_space>;

template <class Sr, class V>
void K::dcsr_spmv(const dcsr_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (vertex_t r = 0; r < A.rows; ++r) {
    auto acc = Sr::zero();
    offset_t left = A.sizes[r];
    for (int s = 0; s < A.nseg[r] && left > 0; ++s) {
      const offset_t b = A.seg[s * A.pitch + 2 * offset_t(r)], e = A.seg[s * A.pitch + 2 * offset_t(r) + 1];
      for (offset_t j = b; j < e && left > 0; ++j, --left)
        acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
    }
    y[r] = acc;
  }
}

template <class Sr, class V>
void K::csr_spmv(const csr_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (vertex_t r = 0; r < A.rows; ++r) {
    y[r] = row_sum<Sr, V>(A.col, A.val, A.row_ptr[r], A.row_ptr[r + 1], x);
  }
}

template <class V>
void K::dcsr_spmv_k(const dcsr_view<V>& A, const double* x, double* y, int k) {
  double acc[max_read_vectors];
  for (vertex_t r = 0; r < A.rows; ++r) {
    for (int c = 0; c < k; ++c) acc[c] = 0;
    offset_t left = A.sizes[r];
    for (int s = 0; s < A.nseg[r] && left > 0; ++s) {
      const offset_t b = A.seg[s * A.pitch + 2 * offset_t(r)], e = A.seg[s * A.pitch + 2 * offset_t(r) + 1];
      for (offset_t j = b; j < e && left > 0; ++j, --left) {
        const double w = value_or<V>(A.val, j, 1.0);
        const double* xc = x + std::size_t(A.col[j]) * std::size_t(k);
        for (int c = 0; c < k; ++c) acc[c] += w * xc[c];
      }
    }
    for (int c = 0; c < k; ++c) y[std::size_t(r) * std::size_t(k) + std::size_t(c)] = acc[c];
  }
}
template void K::dcsr_spmv_k<pattern>(const dcsr_view<pattern>&, const double*, double*, int);
template void K::dcsr_spmv_k<double>(const dcsr_view<double>&, const double*, double*, int);

#define FG_INSTANTIATE(Sr, V)                                                                         \
  template void K::dcsr_spmv<Sr, V>(const dcsr_view<V>&, const Sr::value_type*, Sr::value_type*);     \
  template void K::csr_spmv<Sr, V>(const csr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
