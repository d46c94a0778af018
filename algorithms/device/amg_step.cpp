// Device twin of the V-cycle's vector kernels (algorithms/detail/amg_kernels.hpp).
#include "algorithms/detail/amg_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = amg_kernels<device_space>;

void K::smooth(double* x, const double* b, const double* q, const double* dinv, double w, std::int64_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t i) { x[i] += w * dinv[i] * (b[i] - q[i]); });
}
void K::residual(const double* b, const double* q, double* r, std::int64_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t i) { r[i] = b[i] - q[i]; });
}
void K::add(double* x, const double* y, std::int64_t n) {
  parallel_for(n, FG_LAMBDA(std::int64_t i) { x[i] += y[i]; });
}

}  // namespace fg::detail
