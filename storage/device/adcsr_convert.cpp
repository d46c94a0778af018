// ADCSR binning in Thrust (King et al. 2016, §III-A): a bin label per row, a stable sort of the row
// ids on the labels (radix sort on CUDA), and each bin's start by a vectorized lower_bound over the
// sorted labels. OpenMP in the CPU build, CUDA in the CUDA build. Reference twin: storage/reference/adcsr.cpp.
#include <thrust/binary_search.h>
#include <thrust/sort.h>

#include <cstdint>

#include "storage/detail/adcsr_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = adcsr_kernels<device_space>;

void K::adcsr_bin_rows(const offset_t* row_ptr, vertex_t rows, vertex_t* perm, vertex_t* bin_ptr) {
  array<std::uint8_t, device_space> label(static_cast<std::size_t>(rows));
  std::uint8_t* l = label.data();
  parallel_for(rows, FG_LAMBDA(std::int64_t r) {
    perm[r] = vertex_t(r);
    l[r] = std::uint8_t(adcsr_bin(row_ptr[r + 1] - row_ptr[r]));
  });
  thrust::stable_sort_by_key(policy(), l, l + rows, perm);
  array<vertex_t, device_space> start(adcsr_bins + 1);
  thrust::lower_bound(policy(), l, l + rows, thrust::counting_iterator<int>(0),
                      thrust::counting_iterator<int>(adcsr_bins + 1), start.data());
  memory::copy_to_host(bin_ptr, start.data(), start.bytes());
}

}  // namespace fg::detail
