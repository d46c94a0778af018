// Reference twin of the distributed store's routing kernels (distributed/detail/dist_kernels.hpp): a
// batch's check, its routing keys, a stable counting sort by owner, and the routed keys unpacked.
#include "distributed/detail/dist_kernels.hpp"

#include <algorithm>

namespace fg::detail {

batch_check dist_kernels<host_space>::check_batch(const vertex_t* a, const vertex_t* b, const double* weight,
                                                  std::int64_t n) {
  batch_check c;
  for (std::int64_t i = 0; i < n; ++i) {
    const int why = a[i] < 0 || b[i] < 0 ? 1 : weight != nullptr && !(weight[i] - weight[i] == 0) ? 2 : 0;
    if (why != 0 && c.first_bad == INT64_MAX) c.first_bad = i, c.reason = why;
    c.top = std::max<std::int64_t>(c.top, std::max(a[i], b[i]));
  }
  return c;
}

void dist_kernels<host_space>::route_keys(const partition_view& p, const vertex_t* row, const vertex_t* col,
                                          std::int64_t n, int* owner, std::int64_t* key) {
  for (std::int64_t i = 0; i < n; ++i) {
    owner[i] = p.owner(row[i]);
    key[i] = (std::int64_t(p.local(row[i])) << 32) | std::uint32_t(col[i]);
  }
}

std::vector<std::int64_t> dist_kernels<host_space>::order_by_owner(int* owner, std::int64_t* key, double* weight,
                                                                   std::int64_t n, int parts) {
  std::vector<std::int64_t> count(static_cast<std::size_t>(parts), 0), at(static_cast<std::size_t>(parts), 0);
  for (std::int64_t i = 0; i < n; ++i) ++count[std::size_t(owner[i])];
  for (int p = 1; p < parts; ++p) at[std::size_t(p)] = at[std::size_t(p) - 1] + count[std::size_t(p) - 1];
  std::vector<std::int64_t> k(static_cast<std::size_t>(n));
  std::vector<double> w(weight != nullptr ? static_cast<std::size_t>(n) : 0);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t j = at[std::size_t(owner[i])]++;
    k[std::size_t(j)] = key[i];
    if (weight != nullptr) w[std::size_t(j)] = weight[i];
  }
  std::copy(k.begin(), k.end(), key);
  if (weight != nullptr) std::copy(w.begin(), w.end(), weight);
  return count;
}

void dist_kernels<host_space>::unpack(const std::int64_t* key, std::int64_t n, vertex_t* row, vertex_t* col) {
  for (std::int64_t i = 0; i < n; ++i) row[i] = vertex_t(key[i] >> 32), col[i] = vertex_t(key[i] & 0xffffffff);
}

template <class T>
void dist_kernels<host_space>::weights(const double* weight, std::int64_t n, T* out) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = weight != nullptr ? T(weight[i]) : T(1);
}
template void dist_kernels<host_space>::weights<float>(const double*, std::int64_t, float*);
template void dist_kernels<host_space>::weights<double>(const double*, std::int64_t, double*);

}  // namespace fg::detail
