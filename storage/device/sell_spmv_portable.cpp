// Portable device twin of the SELL-C-sigma SpMV (CPU build: OpenMP, one thread per sorted slot, the
// loop of Wik 2021's scs kernel). The CUDA build compiles storage/cuda/sell_spmv.cu instead (same
// symbol). Reference twin: storage/reference/sell.cpp.
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/sell_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = sell_kernels<device_space>;

template <class Sr, class V>
void K::sell_spmv(const sell_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  parallel_for(A.rows, FG_LAMBDA(std::int64_t s) {
    constexpr vertex_t C = sell_chunk_rows;
    const std::int64_t c = s / C;
    const offset_t begin = A.chunk_ptr[c] + s % C, end = A.chunk_ptr[c + 1];
    auto acc = Sr::zero();
    for (offset_t j = begin; j < end; j += C) {
      const vertex_t col = A.col[j];
      if (col < 0) break;  // padding (sell_padding) only follows a row's entries: the row ends here
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[col]));
    }
    y[A.perm[s]] = acc;
  });
}

#define FG_INSTANTIATE(Sr, V) \
  template void K::sell_spmv<Sr, V>(const sell_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
