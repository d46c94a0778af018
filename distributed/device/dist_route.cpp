// Device twin of the distributed store's routing kernels (distributed/reference/dist_route.cpp): a
// batch is checked, keyed and ordered by owner where it was uploaded, so the host touches only
// its counts (a counting sort of 1e7 edges on the host took ~20 ms, the GPU's insert of them ~3).
#include <thrust/binary_search.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

#include "distributed/detail/dist_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
namespace {
struct check_edge {
  const vertex_t* a;
  const vertex_t* b;
  const double* w;
  FG_HD batch_check operator()(std::int64_t i) const {
    batch_check c;
    // A weight is finite when w - w is 0 (NaN and infinities give NaN).
    const int why = a[i] < 0 || b[i] < 0 ? 1 : w != nullptr && !(w[i] - w[i] == 0) ? 2 : 0;
    if (why != 0) c.first_bad = i, c.reason = why;
    c.top = a[i] > b[i] ? a[i] : b[i];
    return c;
  }
};
struct first_and_top {
  FG_HD batch_check operator()(const batch_check& x, const batch_check& y) const {
    batch_check c = x.first_bad <= y.first_bad ? x : y;
    c.top = x.top > y.top ? x.top : y.top;
    return c;
  }
};
}  // namespace

batch_check dist_kernels<device_space>::check_batch(const vertex_t* a, const vertex_t* b, const double* weight,
                                                    std::int64_t n) {
  if (n == 0) return {};
  return thrust::transform_reduce(policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(n),
                                  check_edge{a, b, weight}, batch_check{}, first_and_top{});
}

void dist_kernels<device_space>::route_keys(const partition_view& p, const vertex_t* row, const vertex_t* col,
                                            std::int64_t n, int* owner, std::int64_t* key) {
  parallel_for(n, FG_LAMBDA(std::int64_t i) {
    owner[i] = p.owner(row[i]);
    key[i] = (std::int64_t(p.local(row[i])) << 32) | std::uint32_t(col[i]);
  });
}

std::vector<std::int64_t> dist_kernels<device_space>::order_by_owner(int* owner, std::int64_t* key, double* weight,
                                                                     std::int64_t n, int parts) {
  if (parts == 1) return {n};
  claim_sort_scratch(std::size_t(n) * (sizeof(int) + sizeof(std::int64_t) + (weight != nullptr ? sizeof(double) : 0)));
  if (weight != nullptr)
    thrust::stable_sort_by_key(policy(), owner, owner + n, thrust::make_zip_iterator(thrust::make_tuple(key, weight)));
  else
    thrust::stable_sort_by_key(policy(), owner, owner + n, key);
  // Each owner's first place, by binary search of the sorted owners; the counts are their steps.
  array<std::int64_t, device_space> first(static_cast<std::size_t>(parts) + 1);
  thrust::lower_bound(policy(), owner, owner + n, thrust::counting_iterator<int>(0),
                      thrust::counting_iterator<int>(parts + 1), first.data());
  const std::vector<std::int64_t> f = to_vector(first);
  std::vector<std::int64_t> count(static_cast<std::size_t>(parts));
  for (int p = 0; p < parts; ++p) count[std::size_t(p)] = f[std::size_t(p) + 1] - f[std::size_t(p)];
  return count;
}

void dist_kernels<device_space>::unpack(const std::int64_t* key, std::int64_t n, vertex_t* row, vertex_t* col) {
  parallel_for(n, FG_LAMBDA(std::int64_t i) {
    row[i] = vertex_t(key[i] >> 32);
    col[i] = vertex_t(key[i] & 0xffffffff);
  });
}

template <class T>
void dist_kernels<device_space>::weights(const double* weight, std::int64_t n, T* out) {
  parallel_for(n, FG_LAMBDA(std::int64_t i) { out[i] = weight != nullptr ? T(weight[i]) : T(1); });
}
template void dist_kernels<device_space>::weights<float>(const double*, std::int64_t, float*);
template void dist_kernels<device_space>::weights<double>(const double*, std::int64_t, double*);

}  // namespace fg::detail
