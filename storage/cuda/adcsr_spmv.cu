// ADCSR SpMV (King et al. 2016, §III-A adaptive binning, after ACSR): a kernel per bin of row lengths,
// sized for the bin (sub-warps of 1-16 lanes, a warp, or a block per row), each bin on its own
// stream (pooled; small bins share one). Replaces storage/device/adcsr_spmv_portable.cpp in the CUDA
// build; reference twin: storage/reference/adcsr.cpp.
#include "core/semiring.hpp"
#include "storage/cuda/block_reduce.cuh"
#include "storage/cuda/stream_set.cuh"
#include "storage/cuda/vector_common.cuh"
#include "storage/detail/adcsr_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
namespace {

// Bins 0-5: W lanes per row (W = 1 is CSR-scalar), stored rows [begin, end).
template <int W, class Sr, class V>
__global__ void __launch_bounds__(vector_block)
adcsr_vector_kernel(csr_view<V> A, const vertex_t* __restrict__ perm, bool gathered, vertex_t begin, vertex_t end,
                    const typename Sr::value_type* __restrict__ x, typename Sr::value_type* __restrict__ y) {
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t k = begin + tid / W;
  const int lane = int(tid % W);
  auto acc = Sr::zero();
  vertex_t r = 0;
  if (k < end) {  // stored row k (bin order: a bin's rows are contiguous), matrix row perm[k]
    r = perm[k];
    const std::int64_t at = gathered ? std::int64_t(r) : k;  // ACSR: row r read in place
    const offset_t e = A.row_ptr[at + 1];
    for (offset_t j = A.row_ptr[at] + lane; j < e; j += W)
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
  }
  acc = subwarp_reduce<W, Sr>(acc);  // every lane of the warp calls it, rows past the end included
  if (k < end && lane == 0) y[r] = acc;
}

// Bins 6-10: a block per row (blockDim.x threads, a multiple of 32).
template <class Sr, class V>
__global__ void adcsr_block_kernel(csr_view<V> A, const vertex_t* __restrict__ perm, bool gathered, vertex_t begin,
                                   const typename Sr::value_type* __restrict__ x,
                                   typename Sr::value_type* __restrict__ y) {
  const vertex_t k = begin + vertex_t(blockIdx.x), r = perm[k];
  const vertex_t at = gathered ? r : k;
  auto acc = Sr::zero();
  const offset_t e = A.row_ptr[at + 1];
  for (offset_t j = A.row_ptr[at] + threadIdx.x; j < e; j += blockDim.x)
    acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
  acc = block_reduce<Sr>(acc);
  if (threadIdx.x == 0) y[r] = acc;
}

/// Calls launch(std::integral_constant<int, W>{}) for W = adcsr_bin_threads[b], b <= 5.
template <class Launch>
void dispatch_bin_width(int b, Launch&& launch) {
  switch (b) {
    case 0: launch(std::integral_constant<int, 1>{}); break;
    case 1: launch(std::integral_constant<int, 2>{}); break;
    case 2: launch(std::integral_constant<int, 4>{}); break;
    case 3: launch(std::integral_constant<int, 8>{}); break;
    case 4: launch(std::integral_constant<int, 16>{}); break;
    default: launch(std::integral_constant<int, 32>{}); break;
  }
}

/// Upper bound on the entries of a bin's launch (rows x its longest possible row); -1: unbounded (bin 10).
inline std::int64_t bin_work_bound(int b, std::int64_t rows) {
  if (b == adcsr_bins - 1) return -1;
  const std::int64_t longest = b == 0 ? 1 : b == 1 ? 3 : std::int64_t(1) << (b + 1);  // adcsr_bin's limits
  return rows * longest + rows;
}

}  // namespace

// A kernel per non-empty bin. A bin with a stream of its own takes one from the process-wide pool
// (stream_set.cuh); small bins (small_launch, by the bin's work bound) all go, in order, to one shared
// pool stream, which saves a stream sync each (a road graph's few short bins then cost one sync).
template <class Sr, class V>
void adcsr_kernels<device_space>::adcsr_spmv(const adcsr_view<V>& A, const typename Sr::value_type* x,
                                             typename Sr::value_type* y) {
  bool small[adcsr_bins] = {};
  std::size_t large = 0;
  bool any_small = false;
  for (int b = 0; b < adcsr_bins; ++b) {
    const std::int64_t rows = A.bin_ptr[b + 1] - A.bin_ptr[b];
    if (rows == 0) continue;  // empty bin: no launch
    const std::int64_t work = bin_work_bound(b, rows);
    small[b] = work >= 0 && small_launch(work);
    if (small[b]) any_small = true;
    else ++large;
  }
  stream_set streams(large + (any_small ? 1 : 0));
  std::size_t next = 0;
  // Longest rows first: their kernels run longest, so the short bins fill in around them.
  for (int b = adcsr_bins - 1; b >= 0; --b) {
    const vertex_t begin = A.bin_ptr[b], end = A.bin_ptr[b + 1];
    if (end == begin) continue;
    cudaStream_t st = small[b] ? streams[large] : streams[next++];  // the shared small stream is the last
    if (adcsr_bin_threads[b] <= 32) {
      dispatch_bin_width(b, [&](auto w) {
        constexpr int W = decltype(w)::value;
        adcsr_vector_kernel<W, Sr, V><<<vector_blocks(end - begin, W), vector_block, 0, st>>>(A.csr, A.perm, A.gathered,
                                                                                           begin, end, x, y);
        FG_CUDA_CHECK_LAUNCH();
      });
    } else {
      adcsr_block_kernel<Sr, V><<<unsigned(end - begin), adcsr_bin_threads[b], 0, st>>>(A.csr, A.perm, A.gathered,
                                                                                         begin, x, y);
      FG_CUDA_CHECK_LAUNCH();
    }
  }
  streams.finish();
}

#define FG_INSTANTIATE(Sr, V)                                                                          \
  template void adcsr_kernels<device_space>::adcsr_spmv<Sr, V>(const adcsr_view<V>&, const Sr::value_type*, \
                                                               Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
