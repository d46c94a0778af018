// Device helpers of the public API: 64-bit ids narrowed where they are, 0/1 flag vectors.
#include <thrust/execution_policy.h>
#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>

#include "api/store.hpp"
#include "storage/device/policy.hpp"

namespace fluxgraph::api {

std::int64_t narrow_ids_on_device(const std::int64_t* in, std::int32_t* out, std::size_t n) {
  const std::int64_t top = max_id;  // api/store.hpp: n = id + 1 must fit in 32 bits
  fg::detail::parallel_for(std::int64_t(n), FG_LAMBDA(std::int64_t i) { out[i] = std::int32_t(in[i]); });
  // The first id out of range, if any (one read-back: the batch's only one before the store's).
  auto end = thrust::counting_iterator<std::int64_t>(std::int64_t(n));
  auto it = thrust::find_if(fg::detail::policy(), thrust::counting_iterator<std::int64_t>(0), end,
                            FG_LAMBDA(std::int64_t i) { return in[i] < 0 || in[i] > top; });
  return it == end ? -1 : *it;
}

void flags_on_device(const double* x, std::uint8_t* f, std::size_t n) {
  fg::detail::parallel_for(std::int64_t(n), FG_LAMBDA(std::int64_t i) { f[i] = x[i] != 0; });
}

void unflag_on_device(const std::uint8_t* f, double* y, std::size_t n) {
  fg::detail::parallel_for(std::int64_t(n), FG_LAMBDA(std::int64_t i) { y[i] = f[i]; });
}

}  // namespace fluxgraph::api
