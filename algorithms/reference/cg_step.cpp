// Host twin of the conjugate gradient's vector kernels (algorithms/detail/cg_kernels.hpp): plain
// sequential loops, the order the device twin's sums are compared against.
#include "algorithms/detail/cg_kernels.hpp"

namespace fg::detail {
using K = cg_kernels<host_space>;

template <class T>
double K::residual(const T* b, const T* q, T* r, T* p, std::int64_t n) {
  double rr = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    r[i] = p[i] = b[i] - q[i];
    rr += double(r[i]) * double(r[i]);
  }
  return rr;
}

template <class T>
double K::dot(const T* a, const T* b, std::int64_t n) {
  double s = 0;
  for (std::int64_t i = 0; i < n; ++i) s += double(a[i]) * double(b[i]);
  return s;
}

template <class T>
double K::update_xr(T* x, T* r, const T* p, const T* q, double alpha, std::int64_t n) {
  double rr = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    x[i] += T(alpha) * p[i];
    r[i] -= T(alpha) * q[i];
    rr += double(r[i]) * double(r[i]);
  }
  return rr;
}

template <class T>
void K::update_p(T* p, const T* r, double beta, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) p[i] = r[i] + T(beta) * p[i];
}

FG_CG_KERNELS_INSTANTIATE(K)

}  // namespace fg::detail
