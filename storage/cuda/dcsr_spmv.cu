// DCSR SpMV (King et al. 2016, Algorithm 3): CSR-vector with an outer loop over the row's segments;
// sub-warp width from mu. Replaces the portable twin in storage/device/spmv.cpp in the CUDA build;
// reference twin: storage/reference/spmv.cpp.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include <algorithm>

#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "storage/cuda/vector_common.cuh"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
namespace {

template <int W, class Sr, class V>
__global__ void __launch_bounds__(vector_block)
dcsr_vector_kernel(dcsr_view<V> A, const typename Sr::value_type* __restrict__ x,
                   typename Sr::value_type* __restrict__ y) {
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = tid / W;
  const int lane = int(tid % W);
  auto acc = Sr::zero();
  if (row < A.rows) {
    offset_t left = A.sizes[row];
    const int nseg = A.nseg[row];
    for (int s = 0; s < nseg && left > 0; ++s) {
      const offset_t b = A.seg[s * A.pitch + 2 * row];
      const offset_t len = min(A.seg[s * A.pitch + 2 * row + 1] - b, left);
      for (offset_t j = b + lane; j < b + len; j += W)
        acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
      left -= len;
    }
  }
  acc = subwarp_reduce<W, Sr>(acc);
  if (row < A.rows && lane == 0) y[row] = acc;
}

// Every row has at most one segment (after defragment, or built from CSR): the row is
// [seg[2r], seg[2r] + size), read exactly like a CSR row.
template <int W, class Sr, class V>
__global__ void __launch_bounds__(vector_block)
dcsr_single_segment_kernel(dcsr_view<V> A, const typename Sr::value_type* __restrict__ x,
                           typename Sr::value_type* __restrict__ y) {
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = tid / W;
  const int lane = int(tid % W);
  auto acc = Sr::zero();
  if (row < A.rows) {
    const offset_t b = A.seg[2 * row], end = b + A.sizes[row];
    for (offset_t j = b + lane; j < end; j += W)
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
  }
  acc = subwarp_reduce<W, Sr>(acc);
  if (row < A.rows && lane == 0) y[row] = acc;
}

// k vectors at once (row-major x, y): a sub-warp of KP x G lanes a row, KP = the power of two >= k
// lanes across the vectors (a column's k values are one coalesced gather) and G groups of lanes
// taking every G-th entry of the row; the groups' partial sums meet by shuffles. Its lanes go
// across the vectors, not along the row, so a row takes KP times the steps of a one-vector read,
// and a hub row (rmat-22: 97 k in-edges) would hold its sub-warp for the whole read: the row kernel reads the first `cap` entries of every row and lists
// the longer rows; a scan numbers their remaining chunks of `cap`, which the long-row kernel shares
// among all warps, adding each chunk's sums to y (atomics: the last bits of a long row's sum depend
// on their order).

// Sum of entries [lo, hi) of `row` (in stored order, across its segments) with x's column c, over
// the entries of this lane's group g of `groups`.
template <class V>
__device__ inline double k_range_sum(const dcsr_view<V>& A, std::int64_t row, offset_t lo, offset_t hi,
                                     const double* __restrict__ x, int k, int c, int g, int groups) {
  double acc = 0;
  const offset_t size = A.sizes[row];
  hi = min(hi, size);
  const int nseg = A.single_segment ? 1 : A.nseg[row];
  offset_t start = 0;  // the row's index of the segment's first entry
  for (int s = 0; s < nseg && start < hi; ++s) {
    const offset_t b = A.seg[s * A.pitch + 2 * row];
    const offset_t len = A.single_segment ? size : min(A.seg[s * A.pitch + 2 * row + 1] - b, size - start);
    const offset_t from = max(lo, start), to = min(hi, start + len);
    for (offset_t j = from + g; j < to; j += groups) {
      const offset_t at = b + (j - start);
      acc += value_or<V>(A.val, at, 1.0) * x[std::int64_t(A.col[at]) * k + c];
    }
    start += len;
  }
  return acc;
}

template <int KP>
__device__ inline double groups_sum(double acc, int width) {
  for (int off = KP; off < width; off *= 2) acc += __shfl_xor_sync(0xffffffffu, acc, off, width);
  return acc;
}

template <int KP, class V>
__global__ void __launch_bounds__(vector_block)
dcsr_k_rows_kernel(dcsr_view<V> A, const double* __restrict__ x, double* __restrict__ y, int k, int groups, offset_t cap,
                   vertex_t* __restrict__ long_rows) {
  const int width = KP * groups;
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = tid / width;
  const int lane = int(tid % width), c = lane % KP, g = lane / KP;
  double acc = row < A.rows && c < k ? k_range_sum(A, row, 0, cap, x, k, c, g, groups) : 0.0;
  acc = groups_sum<KP>(acc, width);
  if (row >= A.rows) return;
  if (g == 0 && c < k) y[row * k + c] = acc;
  if (lane == 0 && A.sizes[row] > cap) long_rows[1 + atomicAdd(reinterpret_cast<unsigned*>(long_rows), 1u)] = vertex_t(row);
}

// A warp a chunk (KP x 32/KP lanes): the listed rows' chunks beyond their first, numbered in list
// order (chunk_ptr: listed row i's first), go round the warps; a chunk finds its row by a binary
// search in chunk_ptr.
template <int KP, class V>
__global__ void __launch_bounds__(vector_block)
dcsr_k_long_kernel(dcsr_view<V> A, const double* __restrict__ x, double* __restrict__ y, int k, offset_t cap,
                   const vertex_t* __restrict__ long_rows, const offset_t* __restrict__ chunk_ptr, std::int64_t slots) {
  constexpr int groups = 32 / KP;
  const std::int64_t warps = std::int64_t(gridDim.x) * blockDim.x / 32;
  const std::int64_t warp = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = int(threadIdx.x % 32), c = lane % KP, g = lane / KP;
  const offset_t chunks = chunk_ptr[slots];
  for (offset_t q = warp; q < chunks; q += warps) {
    std::int64_t lo = 0, hi = slots;  // the last i with chunk_ptr[i] <= q
    while (hi - lo > 1) {
      const std::int64_t mid = (lo + hi) / 2;
      if (chunk_ptr[mid] <= q) lo = mid;
      else hi = mid;
    }
    const vertex_t row = long_rows[1 + lo];
    const offset_t from = (q - chunk_ptr[lo] + 1) * cap;
    double acc = c < k ? k_range_sum(A, row, from, from + cap, x, k, c, g, groups) : 0.0;
    acc = groups_sum<KP>(acc, 32);
    if (g == 0 && c < k) atomicAdd(y + std::int64_t(row) * k + c, acc);
  }
}

// chunk_ptr = exclusive scan of the listed rows' chunks beyond their first (0 past the count).
template <class V>
void number_chunks(const dcsr_view<V>& a, const vertex_t* listed, offset_t cap, std::int64_t slots, offset_t* chunk_ptr) {
  auto chunks = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), FG_LAMBDA(std::int64_t i) {
    const unsigned count = *reinterpret_cast<const unsigned*>(listed);
    return i < std::int64_t(count) ? (offset_t(a.sizes[listed[1 + i]]) - 1) / cap : offset_t(0);
  });
  thrust::exclusive_scan(policy(), chunks, chunks + slots + 1, chunk_ptr);
}

}  // namespace

template <class V>
void kernels<device_space>::dcsr_spmv_k(const dcsr_view<V>& A, const double* x, double* y, int k) {
  int kp = 1;
  while (kp < k) kp *= 2;
  int groups = 1;  // lanes per row up to a warp, no more groups than a mean row has entries
  while (kp * groups < 32 && groups < A.mean_row) groups *= 2;
  // A row's first 64 steps in the row kernel; more entries than that are long-row chunks.
  const offset_t cap = 64 * offset_t(groups), most = A.rows > 0 ? offset_t(A.rows) : 1;
  const unsigned long_blocks = unsigned(sm_count() * 4);
  // The long rows' list: [0] the count, then the rows (at most nnz / cap of them). The allocator
  // (core/memory) keeps freed blocks, so a phase of reads takes the same block each time.
  const offset_t nnz_bound = std::max<offset_t>(1, offset_t(A.mean_row * double(A.rows)) + 1);
  const std::int64_t slots = std::min(most, nnz_bound / cap + 1);
  array<vertex_t, device_space> list(std::size_t(slots) + 1);
  array<offset_t, device_space> chunk_ptr(std::size_t(slots) + 1);
  memory::zero_on_device(list.data(), sizeof(vertex_t));
  auto launch = [&](auto kpc) {
    constexpr int KP = decltype(kpc)::value;
    vertex_t* listed = list.data();
    dcsr_k_rows_kernel<KP, V><<<vector_blocks(A.rows, kp * groups), vector_block>>>(A, x, y, k, groups, cap, listed);
    FG_CUDA_CHECK_LAUNCH();
    number_chunks(A, listed, cap, slots, chunk_ptr.data());
    dcsr_k_long_kernel<KP, V><<<long_blocks, vector_block>>>(A, x, y, k, cap, listed, chunk_ptr.data(), slots);
    FG_CUDA_CHECK_LAUNCH();
  };
  switch (kp) {
    case 2: launch(std::integral_constant<int, 2>{}); break;
    case 4: launch(std::integral_constant<int, 4>{}); break;
    case 8: launch(std::integral_constant<int, 8>{}); break;
    case 16: launch(std::integral_constant<int, 16>{}); break;
    default: launch(std::integral_constant<int, 32>{}); break;
  }
}
template void kernels<device_space>::dcsr_spmv_k<pattern>(const dcsr_view<pattern>&, const double*, double*, int);
template void kernels<device_space>::dcsr_spmv_k<double>(const dcsr_view<double>&, const double*, double*, int);

template <class Sr, class V>
void kernels<device_space>::dcsr_spmv(const dcsr_view<V>& A, const typename Sr::value_type* x,
                                      typename Sr::value_type* y) {
  dispatch_width(A.mean_row, [&](auto w) {
    if (A.single_segment)
      dcsr_single_segment_kernel<decltype(w)::value, Sr, V><<<vector_blocks(A.rows, w), vector_block>>>(A, x, y);
    else
      dcsr_vector_kernel<decltype(w)::value, Sr, V><<<vector_blocks(A.rows, w), vector_block>>>(A, x, y);
    FG_CUDA_CHECK_LAUNCH();
  });
}

#define FG_INSTANTIATE(Sr, V) \
  template void kernels<device_space>::dcsr_spmv<Sr, V>(const dcsr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
