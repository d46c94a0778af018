// Device twin of the column-sorted row partitions' conversion (storage/reference/colsort.cpp), in
// Thrust (OpenMP in the CPU build, CUDA in the CUDA build): the groups by a stream compaction of the
// shared rule, and the partitions. The sort within groups is storage/device/colsort_sort_portable.cpp (CPU
// build) or storage/cuda/colsort_sort.cu (with the CUDA kernel's tile order).
#include <thrust/copy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>

#include "storage/detail/colsort_kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = colsort_kernels<device_space>;

array<vertex_t, device_space> K::groups(const offset_t* rp, vertex_t rows, offset_t cap) {
  array<vertex_t, device_space> first(static_cast<std::size_t>(rows));
  auto r0 = thrust::counting_iterator<vertex_t>(0);
  const auto n = vertex_t(thrust::copy_if(policy(), r0, r0 + rows, first.data(),
                                          FG_LAMBDA(vertex_t r) { return r == 0 || colsort_group_starts(rp, r, cap); }) -
                          first.data());
  array<vertex_t, device_space> g(static_cast<std::size_t>(n) + 1);
  copy_prefix(g, first, std::size_t(n));
  write_at(g, std::size_t(n), rows);
  return g;
}

void K::partitions(const offset_t* rp, const vertex_t* g, offset_t groups, offset_t cap,
                   array<colsort_part, device_space>& parts, array<merge_run, device_space>& runs) {
  array<offset_t, device_space> at(static_cast<std::size_t>(groups) + 1), longs(static_cast<std::size_t>(groups) + 1);
  offset_t* a = at.data();
  offset_t* l = longs.data();
  parallel_for(groups + 1, FG_LAMBDA(std::int64_t i) {
    const offset_t n = i < groups ? colsort_pieces(rp, g[i], g[i + 1], cap) : 0;
    a[i] = n;
    l[i] = n > 1 ? 1 : 0;
  });
  thrust::exclusive_scan(policy(), a, a + groups + 1, a);
  thrust::exclusive_scan(policy(), l, l + groups + 1, l);
  parts = array<colsort_part, device_space>(static_cast<std::size_t>(read_one<device_space>(a + groups)));
  runs = array<merge_run, device_space>(static_cast<std::size_t>(read_one<device_space>(l + groups)));
  colsort_part* p = parts.data();
  merge_run* r = runs.data();
  parallel_for(groups, FG_LAMBDA(std::int64_t i) {
    const offset_t n = a[i + 1] - a[i];
    for (offset_t k = 0; k < n; ++k) p[a[i] + k] = colsort_piece(rp, g[i], g[i + 1], cap, k);
    if (l[i + 1] > l[i]) r[l[i]] = {g[i], std::int32_t(n), a[i]};
  });
}

vertex_t K::max_rows(const colsort_part* parts, offset_t n) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<offset_t>(0), thrust::counting_iterator<offset_t>(n),
      FG_LAMBDA(offset_t p)->vertex_t { return parts[p].rows; }, vertex_t(0), thrust::maximum<vertex_t>());
}

}  // namespace fg::detail
