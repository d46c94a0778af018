// Column-sorted row partitions' SpMV (storage/colsort.hpp): a block a partition, its rows' sums in
// shared memory. A tile's colsort_tile entries were chosen in column order (their gathers of x share
// sectors, now hits in L1) and are stored in row order, so a thread multiplies its items where it
// reads them; a segmented block scan sums each row's run, and the run's last entry adds it to the
// row: one writer a row a tile, tiles in order, so the sums are the same every run.
// Replaces storage/device/colsort_spmv_portable.cpp in the CUDA build; reference twin:
// storage/reference/colsort.cpp.
#include <cub/block/block_scan.cuh>

#include "core/cuda_check.hpp"
#include "core/semiring.hpp"
#include "storage/cuda/vector_common.cuh"
#include "storage/detail/colsort_kernels.hpp"

namespace fg::detail {
namespace {

template <class T>
struct seg {
  T v;
  int head;  // the entry starts a row's run
};
template <class Sr>
struct seg_add {
  using T = typename Sr::value_type;
  __device__ seg<T> operator()(const seg<T>& a, const seg<T>& b) const {
    return {b.head ? b.v : Sr::add(a.v, b.v), a.head | b.head};
  }
};

template <class T>
using colsort_scan = cub::BlockScan<seg<T>, colsort_threads>;

// Blocks an SM the registers must allow: the tile's gathers are latency-bound and need warps in
// flight (ptxas gave 72-100 registers unbounded, i.e. 2-3 blocks). 4 for 4-byte sums (64 registers;
// the carveout below fits 3 blocks of 8192-row partitions, 4 of smaller ones); 8-byte sums take up
// to 68 KB of shared memory a block, and a cap of 4 only made them spill.
template <class T>
inline constexpr int colsort_min_blocks = sizeof(T) > 4 ? 2 : 4;

// The shared memory an SM sets aside (the rest is L1): the tile's gathers share x's sectors through
// L1, so L1's size matters as much as the warps. Measured on the H100 (docs/perf-journal.md,
// 2026-12-06, "what L1 is worth"; rmat-24, 8192-row partitions): 4-byte sums 2.63 / 2.20 / 2.05 /
// 2.17 ms with 196 / 164 / 132 / 100 KB of shared memory (4 / 4 / 3 / 2 blocks), 8-byte sums 6.51 /
// 3.81 / 3.34 / 4.11 ms with 228 / 196 / 164 / 132 KB (3 / 2 / 2 / 1 blocks). The driver's default, the most blocks, left 28 KB
// of L1 to 8-byte sums. The hint is a percentage of the most shared memory, rounded up to a size the
// SM has, so 57% and 71% of the H100's 228 KB are 132 and 164 KB.
template <class T>
int colsort_carveout() {
  return sizeof(T) > 4 ? 71 : 57;
}

template <class Sr, class V>
__global__ void __launch_bounds__(colsort_threads, colsort_min_blocks<typename Sr::value_type>)
colsort_kernel(colsort_view<V> A, const typename Sr::value_type* __restrict__ x, typename Sr::value_type* __restrict__ y) {
  using T = typename Sr::value_type;
  using scan = colsort_scan<T>;
  __shared__ typename scan::TempStorage tmp;
  extern __shared__ unsigned long long smem_words[];  // 8-byte aligned for any T
  T* ys = reinterpret_cast<T*>(smem_words);
  const colsort_part q = A.parts[blockIdx.x];
  const int t = int(threadIdx.x);
  for (int i = t; i < q.rows; i += colsort_threads) ys[i] = Sr::zero();
  __syncthreads();  // the rows zeroed before any add
  for (offset_t t0 = q.begin; t0 < q.end; t0 += colsort_tile) {
    const int n = int(q.end - t0 < colsort_tile ? q.end - t0 : colsort_tile);
    seg<T> it[colsort_items];
    int row[colsort_items];
    const int b = t * colsort_items;
#pragma unroll
    for (int k = 0; k < colsort_items; ++k) {
      const int j = b + k;
      row[k] = j < n ? int(A.lrow[t0 + j]) : -1;
      // A thread's 8 entries are consecutive, so a warp's load spans 32 sectors and the next items
      // find them in L1: cached loads here, not evict-first (review).
      it[k].v = j < n ? Sr::mul(matrix_value<V>(A.val, t0 + j, Sr::pattern_value(), false), __ldg(x + A.col[t0 + j]))
                      : Sr::zero();
    }
    const int before = b > 0 && b - 1 < n ? int(A.lrow[t0 + b - 1]) : -2;
#pragma unroll
    for (int k = 0; k < colsort_items; ++k) it[k].head = row[k] != (k == 0 ? before : row[k - 1]);
    scan(tmp).InclusiveScan(it, it, seg_add<Sr>());
    const int after = b + colsort_items < n ? int(A.lrow[t0 + b + colsort_items]) : -3;
#pragma unroll
    for (int k = 0; k < colsort_items; ++k)
      if (b + k < n && row[k] != (k + 1 < colsort_items ? row[k + 1] : after)) ys[row[k]] = Sr::add(ys[row[k]], it[k].v);
    __syncthreads();  // the scan's storage is free again for the next tile
  }
  if (q.piece >= 0) {
    if (t == 0) static_cast<T*>(A.carry)[blockIdx.x * (8 / sizeof(T))] = ys[0];
    return;
  }
  for (int i = t; i < q.rows; i += colsort_threads) y[q.row0 + i] = ys[i];
}

template <class Sr>
__global__ void colsort_fixup(const merge_run* __restrict__ runs, offset_t nruns, const void* carry,
                              typename Sr::value_type* __restrict__ y) {
  using T = typename Sr::value_type;
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= nruns) return;
  const merge_run r = runs[k];
  const T* c = static_cast<const T*>(carry);
  T acc = Sr::zero();
  for (offset_t p = r.first; p < r.first + r.count; ++p) acc = Sr::add(acc, c[p * (8 / sizeof(T))]);
  y[r.row] = acc;
}

}  // namespace

template <class Sr, class V>
void colsort_kernels<device_space>::spmv(const colsort_view<V>& A, const typename Sr::value_type* x,
                                         typename Sr::value_type* y) {
  using T = typename Sr::value_type;
  const std::size_t smem = std::size_t(A.max_rows) * sizeof(T);
  auto* kernel = colsort_kernel<Sr, V>;
  FG_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, colsort_carveout<T>()));
  // Past 48 KB with the scan's static storage, the dynamic part needs the opt-in, asked for each call
  // (the setting is the current device's; 44.5-48 KB of dynamic memory alone failed to launch: review).
  if (smem + sizeof(typename colsort_scan<T>::TempStorage) > 48 * 1024)
    FG_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  kernel<<<unsigned(A.nparts), colsort_threads, smem>>>(A, x, y);
  FG_CUDA_CHECK_LAUNCH();
  if (A.nruns > 0) {
    constexpr int threads = 128;
    colsort_fixup<Sr><<<unsigned((A.nruns + threads - 1) / threads), threads>>>(A.runs, A.nruns, A.carry, y);
    FG_CUDA_CHECK_LAUNCH();
  }
}

#define FG_INSTANTIATE(Sr, V) \
  template void colsort_kernels<device_space>::spmv<Sr, V>(const colsort_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
