// HYB ELL SpMV (Bell & Garland 2009, the ELL kernel of the hybrid format): one thread per row, the
// column-major layout makes every step k one coalesced load across the warp. Replaces
// storage/device/hyb_spmv_portable.cpp in the CUDA build; the tail's segmented reduction is
// storage/device/hyb_tail_spmv.cpp. Reference twin: storage/reference/hyb.cpp.
#include "core/cuda_check.hpp"
#include "core/semiring.hpp"
#include "storage/detail/hyb_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
namespace {

constexpr int ell_block = 256;

// No shuffles or barriers, so threads past the last row may simply return.
template <class Sr, class V>
__global__ void __launch_bounds__(ell_block)
ell_kernel(vertex_t rows, vertex_t width, offset_t pitch, const vertex_t* __restrict__ col,
           const stored_t<V>* __restrict__ val, const typename Sr::value_type* __restrict__ x,
           typename Sr::value_type* __restrict__ y) {
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  auto acc = Sr::zero();
  const offset_t end = offset_t(width) * pitch;
  for (offset_t j = r; j < end; j += pitch) {
    const vertex_t cj = col[j];
    if (cj < 0) break;  // padding (hyb_padding) only follows a row's entries: the row ends here
    acc = Sr::add(acc, Sr::mul(value_or<V>(val, j, Sr::pattern_value()), x[cj]));
  }
  y[r] = acc;
}

}  // namespace

template <class Sr, class V>
void hyb_kernels<device_space>::hyb_ell_spmv(const hyb_view<V>& A, const typename Sr::value_type* x,
                                             typename Sr::value_type* y) {
  const unsigned blocks = unsigned((std::int64_t(A.rows) + ell_block - 1) / ell_block);
  ell_kernel<Sr, V><<<blocks, ell_block>>>(A.rows, A.ell_width, A.pitch, A.ell_col, A.ell_val, x, y);
  FG_CUDA_CHECK_LAUNCH();
}

#define FG_INSTANTIATE(Sr, V) \
  template void hyb_kernels<device_space>::hyb_ell_spmv<Sr, V>(const hyb_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
