// The gather of Algorithm 4 (CompactIndices) on the GPU; replaces storage/device/dcsr_compact_portable.cpp
// in the CUDA build (reference twin: storage/reference/dcsr_compact.cpp).
//
// Output entry i belongs to the last row k with row_ptr[k] <= i. The portable twin finds it by a
// binary search over all rows per entry: 22 dependent loads on a 4 M-row graph, 1.5 ms of a 1.7 ms
// defragmentation of rmat-22 (2.2 CSR SpMVs). Here a block first finds the rows its tile of outputs
// spans (two searches per tile), and each entry searches only that range (a few rows when rows
// average tens of entries). Entries of one row stay spread over threads, so a hub row cannot
// unbalance the gather, and a thread's items are independent so their loads overlap.
#include "core/cuda_check.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"

namespace fg::detail {
namespace {

constexpr int compact_block = 256;
constexpr int compact_items = 4;  // per thread, strided by the block so stores coalesce
constexpr offset_t compact_tile = offset_t(compact_block) * compact_items;

template <class V>
__global__ void __launch_bounds__(compact_block)
compact_kernel(dcsr_view<V> A, const offset_t* __restrict__ row_ptr, const vertex_t* __restrict__ order,
               offset_t nnz, vertex_t* __restrict__ out_col, stored_t<V>* __restrict__ out_val) {
  __shared__ std::int64_t span[2];
  const offset_t tile = offset_t(blockIdx.x) * compact_tile;
  if (threadIdx.x < 2) {
    const offset_t v = threadIdx.x == 0 ? tile : min(tile + compact_tile, nnz) - 1;
    span[threadIdx.x] = last_not_greater(row_ptr, std::int64_t(A.rows) + 1, v);
  }
  __syncthreads();
  const std::int64_t lo = span[0], rows = span[1] - span[0] + 1;  // rows [lo, lo + rows) hold the tile
  offset_t src[compact_items];
#pragma unroll
  for (int u = 0; u < compact_items; ++u) {
    const offset_t i = tile + u * compact_block + threadIdx.x;
    src[u] = -1;
    if (i < nnz) {
      const std::int64_t k = lo + last_not_greater(row_ptr + lo, rows, i);
      src[u] = A.locate(order ? order[k] : vertex_t(k), i - row_ptr[k]);
    }
  }
#pragma unroll
  for (int u = 0; u < compact_items; ++u) {
    if (src[u] < 0) continue;
    const offset_t i = tile + u * compact_block + threadIdx.x;
    out_col[i] = A.col[src[u]];
    copy_value<V>(out_val, i, A.val, src[u]);
  }
}

}  // namespace

template <class V>
void kernels<device_space>::compact(const dcsr_view<V>& A, const offset_t* row_ptr, const vertex_t* order, offset_t nnz,
                                    vertex_t* out_col, stored_t<V>* out_val) {
  if (nnz <= 0) return;
  const auto blocks = unsigned((nnz + compact_tile - 1) / compact_tile);
  compact_kernel<V><<<blocks, compact_block>>>(A, row_ptr, order, nnz, out_col, out_val);
  FG_CUDA_CHECK_LAUNCH();
}

#define FG_INSTANTIATE(V)                                                                           \
  template void kernels<device_space>::compact<V>(const dcsr_view<V>&, const offset_t*, const vertex_t*, \
                                                  offset_t, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
