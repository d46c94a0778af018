// Portable twin of ADCSR SpMV for the CPU build (OpenMP through Thrust): on CPU threads the per-bin
// kernels collapse into one parallel loop over the binned row list (short rows first). The CUDA build
// compiles storage/cuda/adcsr_spmv.cu instead. Reference twin: storage/reference/adcsr.cpp.
#include "core/semiring.hpp"
#include "storage/detail/adcsr_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = adcsr_kernels<device_space>;

template <class Sr, class V>
void K::adcsr_spmv(const adcsr_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  const csr_view<V> C = A.csr;
  const vertex_t* perm = A.perm;
  const bool gathered = A.gathered;
  parallel_for(C.rows, FG_LAMBDA(std::int64_t k) {
    const std::int64_t at = gathered ? std::int64_t(perm[k]) : k;
    y[perm[k]] = row_sum<Sr, V>(C.col, C.val, C.row_ptr[at], C.row_ptr[at + 1], x);
  });
}

#define FG_INSTANTIATE(Sr, V) \
  template void K::adcsr_spmv<Sr, V>(const adcsr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
