// Portable device twin of the HYB SpMV (CPU build: OpenMP): the ELL part one thread per row (Bell &
// Garland's ELL kernel), then the tail's segmented reduction one thread per tail row over the
// segments fixed at conversion (each row has one writer: no atomics). The CUDA build compiles
// storage/cuda/hyb_spmv.cu instead (same symbols). Reference twin: storage/reference/hyb.cpp.
#include "core/semiring.hpp"
#include "storage/detail/hyb_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = hyb_kernels<device_space>;

template <class Sr, class V>
void K::hyb_ell_spmv(const hyb_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  parallel_for(A.rows, FG_LAMBDA(std::int64_t r) {
    auto acc = Sr::zero();
    for (offset_t j = r; j < offset_t(A.ell_width) * A.pitch; j += A.pitch) {
      const vertex_t col = A.ell_col[j];
      if (col < 0) break;  // padding (hyb_padding) only follows a row's entries: the row ends here
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.ell_val, j, Sr::pattern_value()), x[col]));
    }
    y[r] = acc;
  });
}

template <class Sr, class V>
void K::hyb_tail_spmv(const hyb_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  parallel_for(A.tail_rows, FG_LAMBDA(std::int64_t m) {
    auto acc = Sr::zero();
    for (offset_t i = A.tail_row_ptr[m]; i < A.tail_row_ptr[m + 1]; ++i)
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.tail_val, i, Sr::pattern_value()), x[A.tail_col[i]]));
    const vertex_t r = A.tail_row_key[m];
    y[r] = Sr::add(y[r], acc);
  });
}

#define FG_INSTANTIATE(Sr, V)                                                                          \
  template void K::hyb_ell_spmv<Sr, V>(const hyb_view<V>&, const Sr::value_type*, Sr::value_type*);   \
  template void K::hyb_tail_spmv<Sr, V>(const hyb_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
