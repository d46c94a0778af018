// Portable twin of SURAA SpMV for the CPU build (OpenMP through Thrust): the conversion computed
// the same segments and groups, but on CPU threads the three kernels (and dynamic parallelism or
// not) collapse into one parallel loop over the sorted rows; the descending order still puts the
// longest rows first, where OpenMP's scheduling spreads them. The CUDA build compiles
// storage/cuda/suraa_spmv.cu instead. Reference twin: storage/reference/suraa.cpp.
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/suraa_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = suraa_kernels<device_space>;

template <class Sr, class V>
void K::suraa_spmv(const suraa_view<V>& A, const suraa_segment* seg, std::size_t nseg, bool,
                   const typename Sr::value_type* x, typename Sr::value_type* y) {
  if (nseg == 0) return;
  const vertex_t first = seg[0].begin;
  parallel_for(seg[nseg - 1].end - first, FG_LAMBDA(std::int64_t k) {
    const std::int64_t i = first + k;
    y[A.perm[i]] = row_sum<Sr, V>(A.col, A.val, A.row_ptr[i], A.row_ptr[i + 1], x);
  });
}

#define FG_INSTANTIATE(Sr, V)                                                                       \
  template void K::suraa_spmv<Sr, V>(const suraa_view<V>&, const suraa_segment*, std::size_t, bool, \
                                     const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
