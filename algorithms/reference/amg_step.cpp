// Host twin of the V-cycle's vector kernels (algorithms/detail/amg_kernels.hpp).
#include "algorithms/detail/amg_kernels.hpp"

namespace fg::detail {
using K = amg_kernels<host_space>;

void K::smooth(double* x, const double* b, const double* q, const double* dinv, double w, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) x[i] += w * dinv[i] * (b[i] - q[i]);
}
void K::residual(const double* b, const double* q, double* r, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) r[i] = b[i] - q[i];
}
void K::add(double* x, const double* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) x[i] += y[i];
}

}  // namespace fg::detail
