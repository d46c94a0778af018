// Portable device twin of the CMRS SpMV (CPU build: OpenMP, a thread per strip with the strip's
// row sums in registers). The CUDA build compiles storage/cuda/cmrs_spmv.cu instead (same symbol);
// reference twin: storage/reference/cmrs.cpp.
#include "core/semiring.hpp"
#include "storage/detail/cmrs_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = cmrs_kernels<device_space>;

template <class Sr, class V>
void K::cmrs_spmv(const cmrs_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  using T = typename Sr::value_type;
  parallel_for(A.strips, FG_LAMBDA(std::int64_t s) {
    T acc[cmrs_max_height];
    for (int r = 0; r < cmrs_max_height; ++r) acc[r] = Sr::zero();
    for (offset_t j = A.strip_ptr[s]; j < A.strip_ptr[s + 1]; ++j) {
      const std::uint32_t w = A.col[j];
      if (w == cmrs_padding) continue;  // modified variant: adds nothing in any semiring
      const int r = cmrs_row_of(w);
      acc[r] = Sr::add(acc[r], Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[cmrs_col_of(w)]));
    }
    const offset_t first = s * A.height;
    for (int r = 0; r < A.height && first + r < A.rows; ++r) y[first + r] = acc[r];
  });
}

#define FG_INSTANTIATE(Sr, V) \
  template void K::cmrs_spmv<Sr, V>(const cmrs_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
