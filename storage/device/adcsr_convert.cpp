// ADCSR binning in Thrust (King et al. 2016, §III-A): a bin label per row, a stable sort of the row
// ids on the labels (radix sort on CUDA), and each bin's start by a vectorized lower_bound over the
// sorted labels. OpenMP in the CPU build, CUDA in the CUDA build. Reference twin: storage/reference/adcsr.cpp.
#include <thrust/binary_search.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <cstdint>

#include "storage/detail/adcsr_kernels.hpp"
#include "storage/detail/kernels.hpp"  // FG_FOR_EACH_VALUE
#include "storage/detail/search.hpp"
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

// Row lengths in perm order, scanned to offsets; then one thread per ENTRY finds its stored row by
// binary search and copies it: balanced whatever the row lengths (a thread per row would leave one
// thread copying a hub row of 10^5 entries).
template <class V>
void K::adcsr_reorder(const csr_view<V>& A, const vertex_t* perm, offset_t* prow_ptr, vertex_t* pcol, stored_t<V>* pval) {
  const offset_t* rp = A.row_ptr;
  const vertex_t rows = A.rows;
  parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t k) {
    prow_ptr[k] = k < rows ? rp[perm[k] + 1] - rp[perm[k]] : 0;
  });
  thrust::exclusive_scan(policy(), prow_ptr, prow_ptr + rows + 1, prow_ptr);
  const vertex_t* col = A.col;
  const stored_t<V>* val = A.val;
  parallel_for(A.nnz, FG_LAMBDA(std::int64_t j) {
    const std::int64_t k = last_not_greater(prow_ptr, std::int64_t(rows), offset_t(j));
    const offset_t src = rp[perm[k]] + (j - prow_ptr[k]);
    pcol[j] = col[src];
    copy_value<V>(pval, j, val, src);
  });
}

#define FG_INSTANTIATE(V) \
  template void K::adcsr_reorder<V>(const csr_view<V>&, const vertex_t*, offset_t*, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
