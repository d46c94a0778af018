// Merge-path CSR SpMV (Merrill & Garland, SC 2016, §4: the merge-path decomposition of Algorithm 2,
// with the block-level staging and reduce-by-segment of its CUB implementation), semiring-generic.
// Twin: storage/reference/csr_merge.cpp (portable: storage/device/csr_merge_spmv_portable.cpp).
//
// A thread block owns a tile of tile_items merge items between two path points precomputed at
// conversion. It stages the tile's row ends and its nonzeros' products in shared memory (coalesced
// loads; all threads gather x in parallel), then every thread finds its own start in the tile by a
// merge-path search in shared memory and consumes items_per_thread items in order: a nonzero is added
// to the running sum, a row end writes the row (rows complete within the thread go straight to y) and
// restarts the sum. What a thread carries out (the sum of the row it stops in) is combined across the
// block by a segmented scan keyed by row; the block's own carry goes to a per-tile slot, and a second
// kernel on the same stream folds each run of carries into y (no atomics: the semiring may be
// min-plus or or-and; no host sync; no allocation: slots and runs come from the conversion).
#include <algorithm>

#include "core/semiring.hpp"
#include "storage/cuda/vector_common.cuh"
#include "storage/detail/csr_merge_kernels.hpp"

namespace fg::detail {
namespace {

constexpr int threads = csr_merge_threads;
constexpr int warps = threads / 32;

/// The staged tile: row ends (int, relative to the tile's first nonzero) then products (T). A tile
/// has a_len row ends and b_len nonzeros with a_len + b_len <= Tile, so both fit in Tile slots of
/// the wider of the two, plus the row-end sentinel and alignment.
template <class T, int Tile>
struct merge_shared {
  static constexpr std::size_t slot = sizeof(T) > 4 ? sizeof(T) : 4;
  alignas(16) unsigned char tile[(Tile + 4) * slot];
  T incl[threads];     ///< each thread's inclusive segmented scan value
  T warp_val[warps];   ///< each warp's last inclusive value ...
  int warp_key[warps];  ///< ... and its row
};

template <class Sr, class V, class X>
__global__ void __launch_bounds__(threads)
csr_merge_kernel(csr_merge_view<V> A, const X* __restrict__ x, typename Sr::value_type* __restrict__ y, bool stream) {
  using T = typename Sr::value_type;
  constexpr int ipt = csr_merge_items_per_thread<V>, tile = threads * ipt;
  __shared__ merge_shared<T, tile> s;
  const merge_coord c0 = A.coords[blockIdx.x], c1 = A.coords[blockIdx.x + 1];
  const int a_len = int(c1.row - c0.row), b_len = int(c1.nz - c0.nz), tid = int(threadIdx.x);
  int* row_end = reinterpret_cast<int*>(s.tile);
  T* prod = reinterpret_cast<T*>(s.tile + ((std::size_t(a_len) + 1) * 4 + 7) / 8 * 8);

  // Stage. Unrolled over the ipt slots a thread can own, so its loads are all in flight at once.
  const offset_t* rp = A.csr.row_ptr + c0.row + 1;
  const std::uint32_t* rp32 = A.row_end32 ? A.row_end32 + c0.row : nullptr;  // uniform: half the bytes
  const vertex_t* col = A.csr.col + c0.nz;
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    const int k = tid + i * threads;
    if (k < a_len) row_end[k] = rp32 ? int(rp32[k] - std::uint32_t(c0.nz)) : int(rp[k] - c0.nz);
    if (k < b_len)
      prod[k] = Sr::mul(matrix_value<V>(A.csr.val, c0.nz + k, Sr::pattern_value(), stream), T(x[matrix_load(col + k, stream)]));
  }
  if (tid == 0) row_end[a_len] = b_len;  // the next row end lies past the tile: its nonzeros come first
  __syncthreads();

  // This thread's start: the path point on its diagonal of the tile (merge_path_search, in shared memory).
  const int d = std::min(tid * ipt, a_len + b_len);
  int lo = std::max(0, d - b_len), hi = std::min(d, a_len);
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (row_end[mid] <= d - mid - 1) lo = mid + 1;
    else hi = mid;
  }
  const int r0 = lo;
  int r = lo, j = d - lo, next_end = row_end[r];
  T acc = Sr::zero(), head = Sr::zero();  // head: the sum of row r0 before it ends in this thread
  auto step = [&] {
    if (j < next_end) {
      acc = Sr::add(acc, prod[j++]);
    } else {
      if (r > r0) y[c0.row + r] = acc;  // a row wholly inside this thread's items
      else head = acc;                  // row r0 may have begun in earlier threads: written after the scan
      acc = Sr::zero();
      next_end = row_end[++r];
    }
  };
  const int n = std::min(ipt, a_len + b_len - d);
  if (n == ipt) {  // every tile but the last: no per-item bound check
#pragma unroll
    for (int i = 0; i < ipt; ++i) step();
  } else {
#pragma unroll
    for (int i = 0; i < ipt; ++i)
      if (i < n) step();
  }

  // Segmented inclusive scan of (row r, acc) over the block. Rows are non-decreasing with the thread
  // index, so equal keys are contiguous: a warp-level Hillis-Steele scan that adds only across equal
  // keys, then earlier warps' totals for this row, walking back while their row is still this row.
  const int lane = tid & 31, warp = tid >> 5;
  T v = acc;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const T u = shuffle_up(v, off);
    const int k = __shfl_up_sync(0xffffffffu, r, off);
    if (lane >= off && k == r) v = Sr::add(u, v);
  }
  if (lane == 31) {
    s.warp_val[warp] = v;
    s.warp_key[warp] = r;
  }
  __syncthreads();
  for (int w = warp - 1; w >= 0 && s.warp_key[w] == r; --w) v = Sr::add(s.warp_val[w], v);
  s.incl[tid] = v;
  __syncthreads();
  // The previous thread stopped in row r0: its inclusive value is everything row r0 got before us.
  if (r > r0) y[c0.row + r0] = Sr::add(tid > 0 ? s.incl[tid - 1] : Sr::zero(), head);
  // The last thread stops at the tile's end point: its value is the tile's carry (row c1.row).
  if (tid == threads - 1) static_cast<T*>(A.carry)[blockIdx.x] = v;
}

/// Runs longer than this are folded by the whole warp.
constexpr int long_run = 8;

// Fix-up: a thread per run folds its tiles' carries into y[row], after the tile that ends the row wrote
// it. A row longer than long_run tiles (a hub cut by many tiles) would serialise one thread; its run
// is folded by the thread's whole warp instead (coalesced carry loads, a warp reduction).
template <class Sr>
__global__ void __launch_bounds__(vector_block)
csr_merge_fixup(const merge_run* __restrict__ runs, offset_t nruns, const typename Sr::value_type* __restrict__ carry,
                typename Sr::value_type* __restrict__ y) {
  using T = typename Sr::value_type;
  const offset_t k = offset_t(blockIdx.x) * vector_block + threadIdx.x;
  merge_run run;
  if (k < nruns) run = runs[k];
  if (run.count > 0 && run.count <= long_run) {
    T acc = Sr::zero();
    for (offset_t t = run.first; t < run.first + run.count; ++t) acc = Sr::add(acc, carry[t]);
    y[run.row] = Sr::add(y[run.row], acc);
  }
  const int lane = int(threadIdx.x & 31);
  for (unsigned todo = __ballot_sync(0xffffffffu, run.count > long_run); todo != 0; todo &= todo - 1) {
    const int leader = __ffs(todo) - 1;  // every lane sees the same todo: the loop is warp-uniform
    const offset_t first = __shfl_sync(0xffffffffu, run.first, leader);
    const int count = __shfl_sync(0xffffffffu, run.count, leader);
    const vertex_t row = __shfl_sync(0xffffffffu, run.row, leader);
    T acc = Sr::zero();
    for (int i = lane; i < count; i += 32) acc = Sr::add(acc, carry[first + i]);
    acc = subwarp_reduce<32, Sr>(acc);
    if (lane == 0) y[row] = Sr::add(y[row], acc);
  }
}

}  // namespace

template <class Sr, class V, class X>
void csr_merge_kernels<device_space>::spmv(const csr_merge_view<V>& A, const X* x, typename Sr::value_type* y) {
  csr_merge_kernel<Sr, V, X><<<unsigned(A.tiles), threads>>>(A, x, y, streaming_loads());
  FG_CUDA_CHECK_LAUNCH();
  if (A.nruns == 0) return;  // no row is cut by a tile boundary
  csr_merge_fixup<Sr><<<unsigned((A.nruns + vector_block - 1) / vector_block), vector_block>>>(
      A.runs, A.nruns, static_cast<const typename Sr::value_type*>(A.carry), y);
  FG_CUDA_CHECK_LAUNCH();
}

#define FG_CSR_MERGE_INSTANCE(Sr, V, X) \
  template void csr_merge_kernels<device_space>::spmv<Sr, V, X>(const csr_merge_view<V>&, const X*, Sr::value_type*);
FG_CSR_MERGE_SPMVS
#undef FG_CSR_MERGE_INSTANCE

}  // namespace fg::detail
