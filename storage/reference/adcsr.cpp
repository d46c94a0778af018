// Reference twins of ADCSR (storage/device/adcsr_convert.cpp, storage/device/adcsr_spmv_portable.cpp,
// storage/cuda/adcsr_spmv.cu): binning by a counting sort (stable, like the device's sort on the
// labels) and an SpMV that walks the bins in order, one row at a time, entries in stored order.
#include "core/semiring.hpp"
#include "storage/detail/adcsr_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = adcsr_kernels<host_space>;

void K::adcsr_bin_rows(const offset_t* row_ptr, vertex_t rows, vertex_t* perm, vertex_t* bin_ptr) {
  vertex_t next[adcsr_bins + 1] = {};
  for (vertex_t r = 0; r < rows; ++r) ++next[adcsr_bin(row_ptr[r + 1] - row_ptr[r]) + 1];
  for (int b = 0; b < adcsr_bins; ++b) next[b + 1] += next[b];
  for (int b = 0; b <= adcsr_bins; ++b) bin_ptr[b] = next[b];
  for (vertex_t r = 0; r < rows; ++r) perm[next[adcsr_bin(row_ptr[r + 1] - row_ptr[r])]++] = r;
}

template <class V>
void K::adcsr_reorder(const csr_view<V>& A, const vertex_t* perm, offset_t* prow_ptr, vertex_t* pcol, stored_t<V>* pval) {
  offset_t next = 0;
  for (vertex_t k = 0; k < A.rows; ++k) {
    prow_ptr[k] = next;
    for (offset_t j = A.row_ptr[perm[k]]; j < A.row_ptr[perm[k] + 1]; ++j, ++next) {
      pcol[next] = A.col[j];
      copy_value<V>(pval, next, A.val, j);
    }
  }
  prow_ptr[A.rows] = next;
}

template <class Sr, class V>
void K::adcsr_spmv(const adcsr_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  for (int b = 0; b < adcsr_bins; ++b)
    for (vertex_t k = A.bin_ptr[b]; k < A.bin_ptr[b + 1]; ++k) {
      const vertex_t at = A.gathered ? A.perm[k] : k;  // ACSR: the row read in place
      y[A.perm[k]] = row_sum<Sr, V>(A.csr.col, A.csr.val, A.csr.row_ptr[at], A.csr.row_ptr[at + 1], x);
    }
}

#define FG_INSTANTIATE(V) \
  template void K::adcsr_reorder<V>(const csr_view<V>&, const vertex_t*, offset_t*, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

#define FG_INSTANTIATE(Sr, V) \
  template void K::adcsr_spmv<Sr, V>(const adcsr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
