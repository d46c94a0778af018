// HYB tail SpMV (Bell & Garland 2009: the COO part, there a segmented reduction within warps; here
// Thrust's reduce_by_key over the tail's sorted rows, which is the same segmented reduction and needs
// no atomics). Built in both builds: OpenMP in the CPU build, CUDA (CUB) in the CUDA build.
// Reference twin: storage/reference/hyb.cpp.
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>

#include "core/semiring.hpp"
#include "storage/detail/hyb_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
namespace {

/// Entry i of the tail times its x: the values the segmented reduction sums.
template <class Sr, class V>
struct tail_product {
  const vertex_t* col;
  const stored_t<V>* val;
  const typename Sr::value_type* x;
  FG_HD typename Sr::value_type operator()(offset_t i) const {
    return Sr::mul(value_or<V>(val, i, Sr::pattern_value()), x[col[i]]);
  }
};

template <class Sr>
struct semiring_add {
  FG_HD typename Sr::value_type operator()(typename Sr::value_type a, typename Sr::value_type b) const {
    return Sr::add(a, b);
  }
};

}  // namespace

template <class Sr, class V>
void hyb_kernels<device_space>::hyb_tail_spmv(const hyb_view<V>& A, const typename Sr::value_type* x,
                                              typename Sr::value_type* y, vertex_t* keys,
                                              typename Sr::value_type* sums, vertex_t tail_rows) {
  const auto products = thrust::make_transform_iterator(thrust::counting_iterator<offset_t>(0),
                                                        tail_product<Sr, V>{A.tail_col, A.tail_val, x});
  const auto ends = thrust::reduce_by_key(policy(), A.tail_row, A.tail_row + A.tail_nnz, products, keys, sums,
                                          thrust::equal_to<vertex_t>(), semiring_add<Sr>());
  FG_EXPECTS(ends.first - keys == tail_rows, "hyb: tail row count does not match the tail");
  // Keys are distinct rows, so each y[r] has exactly one writer.
  parallel_for(tail_rows, FG_LAMBDA(std::int64_t m) { y[keys[m]] = Sr::add(y[keys[m]], sums[m]); });
}

#define FG_INSTANTIATE(Sr, V)                                                                      \
  template void hyb_kernels<device_space>::hyb_tail_spmv<Sr, V>(                                   \
      const hyb_view<V>&, const Sr::value_type*, Sr::value_type*, vertex_t*, Sr::value_type*, vertex_t);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
