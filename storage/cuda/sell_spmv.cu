// SELL-C-sigma SpMV (Kreutzer et al. 2014 §2; the scs kernel of Wik 2021): one thread per row of a
// chunk, a warp per chunk (C = 32), so each step k of the chunk is one coalesced 128-byte load of
// columns. Replaces storage/device/sell_spmv_portable.cpp in the CUDA build; reference twin:
// storage/reference/sell.cpp.
#include "core/cuda_check.hpp"
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/sell_kernels.hpp"
#include "storage/cuda/vector_common.cuh"

namespace fg::detail {
namespace {

constexpr int sell_block = 256;  // 8 chunks per block
static_assert(sell_chunk_rows == 32, "the kernel maps a chunk to a warp");

// Steps of a chunk a thread loads before it adds: their column, value and x loads all in flight at
// once (one step at a time, each x load waited on its column's). 8 for 4-byte vectors, 4 for 8-byte
// ones: on the 3D FE problem (H200, docs/perf-journal.md, 2026-11-29) float went from 0.76 to 0.85 of the
// copy bandwidth at 8 steps, double from 0.92 down to 0.87. The matrix is read evict-first, so the
// x of neighbouring rows stays in L2 (float 0.79 → 0.85 at 8 steps; double unchanged).
template <class T>
inline constexpr int sell_unroll_for = sizeof(T) <= 4 ? 8 : 4;

// No shuffles or barriers, so threads past the last row may simply return. Padding (sell_padding)
// only follows a row's entries; an unrolled step skips it. The product is formed inside the add, as
// in the plain loop, so that it still compiles to one fused multiply-add: the same sums, rounded the
// same way, in the same order (a select between the multiply and the add split them: review, s. 23).
template <int sell_unroll, class Sr, class V>
__global__ void __launch_bounds__(sell_block)
sell_kernel(vertex_t rows, const offset_t* __restrict__ chunk_ptr, const vertex_t* __restrict__ perm,
            const vertex_t* __restrict__ col, const stored_t<V>* __restrict__ val,
            const typename Sr::value_type* __restrict__ x, typename Sr::value_type* __restrict__ y, bool stream) {
  using T = typename Sr::value_type;
  constexpr offset_t step = sell_chunk_rows;
  const std::int64_t s = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= rows) return;
  const std::int64_t c = s / sell_chunk_rows;
  const offset_t end = chunk_ptr[c + 1];
  T acc = Sr::zero();
  offset_t j = chunk_ptr[c] + s % sell_chunk_rows;
  for (; j + (sell_unroll - 1) * step < end; j += sell_unroll * step) {
    vertex_t cj[sell_unroll];
    T a[sell_unroll], xv[sell_unroll];
#pragma unroll
    for (int u = 0; u < sell_unroll; ++u) cj[u] = matrix_load(col + j + u * step, stream);
#pragma unroll
    for (int u = 0; u < sell_unroll; ++u)
      if (cj[u] >= 0) a[u] = matrix_value<V>(val, j + u * step, Sr::pattern_value(), stream), xv[u] = x[cj[u]];
#pragma unroll
    for (int u = 0; u < sell_unroll; ++u)
      if (cj[u] >= 0) acc = Sr::add(acc, Sr::mul(a[u], xv[u]));
    if (cj[sell_unroll - 1] < 0) {  // the row has ended (and the tail loop must not add it again)
      j = end;
      break;
    }
  }
  for (; j < end; j += step) {
    const vertex_t cj = matrix_load(col + j, stream);
    if (cj < 0) break;
    acc = Sr::add(acc, Sr::mul(matrix_value<V>(val, j, Sr::pattern_value(), stream), x[cj]));
  }
  y[perm[s]] = acc;
}

}  // namespace

template <class Sr, class V>
void sell_kernels<device_space>::sell_spmv(const sell_view<V>& A, const typename Sr::value_type* x,
                                           typename Sr::value_type* y) {
  const unsigned blocks = unsigned((std::int64_t(A.rows) + sell_block - 1) / sell_block);
  constexpr int unroll = sell_unroll_for<typename Sr::value_type>;
  sell_kernel<unroll, Sr, V><<<blocks, sell_block>>>(A.rows, A.chunk_ptr, A.perm, A.col, A.val, x, y, streaming_loads());
  FG_CUDA_CHECK_LAUNCH();
}

#define FG_INSTANTIATE(Sr, V) \
  template void sell_kernels<device_space>::sell_spmv<Sr, V>(const sell_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
