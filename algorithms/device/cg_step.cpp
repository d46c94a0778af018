// Device twin of the conjugate gradient's vector kernels (algorithms/detail/cg_kernels.hpp): one
// Thrust pass each, the sums reduced in double.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include "algorithms/detail/cg_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = cg_kernels<device_space>;

namespace {
template <class F>
double sum_over(std::int64_t n, F f) {
  return thrust::transform_reduce(policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(n),
                                  f, 0.0, thrust::plus<double>());
}
}  // namespace

template <class T>
double K::residual(const T* b, const T* q, T* r, T* p, std::int64_t n) {
  return sum_over(n, FG_LAMBDA(std::int64_t i) {
    const T v = b[i] - q[i];
    r[i] = p[i] = v;
    return double(v) * double(v);
  });
}

template <class T>
double K::dot(const T* a, const T* b, std::int64_t n) {
  return sum_over(n, FG_LAMBDA(std::int64_t i) { return double(a[i]) * double(b[i]); });
}

template <class T>
double K::update_xr(T* x, T* r, const T* p, const T* q, double alpha, std::int64_t n) {
  const T a = T(alpha);
  return sum_over(n, FG_LAMBDA(std::int64_t i) {
    x[i] += a * p[i];
    const T v = r[i] - a * q[i];
    r[i] = v;
    return double(v) * double(v);
  });
}

template <class T>
void K::update_p(T* p, const T* r, double beta, std::int64_t n) {
  const T b = T(beta);
  parallel_for(n, FG_LAMBDA(std::int64_t i) { p[i] = r[i] + b * p[i]; });
}

FG_CG_KERNELS_INSTANTIATE(K)

}  // namespace fg::detail
