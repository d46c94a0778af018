// SpMM with row-length-binned kernels (King et al. 2016, §III-B): rows are binned by partial-product
// count (1-32, 33-64, ..., 1025-2048); with a mask, a thread block expands, sorts (bitonic), reduces
// and masks one row in shared memory; without one, the products are summed into a hash table per
// row (storage/cuda/spmm_hash.cuh). Rows of 2049+ products take the global path (device radix sort,
// storage/device/spmm_global.cpp). Replaces storage/device/spmm_portable.cpp in the CUDA build;
// reference twin: storage/reference/spmm.cpp.
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/cuda_check.hpp"
#include "storage/cuda/spmm_common.cuh"
#include "storage/cuda/spmm_hash.cuh"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"
#include "storage/device/spmm_device.hpp"

namespace fg::detail {
namespace {

/// One block per listed row of at most Cap products. Results go to the workspace at ptr[r] - base,
/// sorted by column; count[r - r0] = their number. Every loop that contains __syncthreads has
/// bounds that are the same for the whole block (they depend on the row only).
template <int Cap, int Threads, class Sr, class V>
__global__ void __launch_bounds__(Threads)
spmm_bin_kernel(spmm_operand<V> A, spmm_operand<V> B, spmm_operand<pattern> M, bool masked,
                const vertex_t* __restrict__ rows, const offset_t* __restrict__ ptr, offset_t base, vertex_t r0,
                vertex_t* __restrict__ ws_col, stored_t<spmm_value_t<Sr, V>>* __restrict__ ws_val,
                offset_t* __restrict__ count) {
  using VC = spmm_value_t<Sr, V>;
  using T = typename Sr::value_type;
  constexpr bool values = !is_pattern_v<VC>;
  constexpr int items = Cap / Threads;
  using block_scan = cub::BlockScan<int, Threads>;
  __shared__ typename block_scan::TempStorage scan_tmp;
  __shared__ std::uint32_t key[Cap];
  __shared__ T val[values ? Cap : 1];
  __shared__ std::uint8_t dead[Cap];
  __shared__ int start[Threads];  // first product of each thread's entry of A within the chunk
  __shared__ vertex_t brow[Threads];
  __shared__ offset_t bbegin[Threads], blength[Threads];
  __shared__ T aval[Threads];
  const chunk_entries<T> ch{brow, bbegin, blength, aval};
  const vertex_t r = rows[blockIdx.x];
  const int t = threadIdx.x;

  // 1. Expansion, a chunk of Threads entries of A at a time: a scan of their B-row lengths places
  //    them; then each product finds its entry by binary search over the chunk.
  int filled = 0;
  A.for_each_piece(r, [&](offset_t b, offset_t e) {
    for (offset_t c0 = b; c0 < e; c0 += Threads) {
      const int len = load_entry<Sr, V, values>(A, B, c0 + t, e, ch, t);
      int off = 0, chunk = 0;
      block_scan(scan_tmp).ExclusiveSum(len, off, chunk);
      start[t] = off;  // entries past the row's end get the chunk's total: never found
      __syncthreads();
      for_each_product<Threads, Sr, V, values>(B, start, ch, t, chunk, Threads, [&](int q, std::uint32_t c, T v) {
        key[filled + q] = c;
        if constexpr (values) val[filled + q] = v;
      });
      filled += chunk;
      __syncthreads();
    }
  });

  // 2. Sort the next power of two >= filled slots; padding (0xffffffff) sorts last.
  int n2 = 1;
  while (n2 < filled) n2 <<= 1;
  for (int i = filled + t; i < n2; i += Threads) key[i] = 0xffffffffu;
  __syncthreads();
  bitonic_sort<values>(key, val, n2);

  // 3. Reduce equal columns in place: heads sum their run, then move to their rank.
  int head[items], rank[items], unique = 0;
  std::uint32_t hk[items];
  T hv[items];
#pragma unroll
  for (int it = 0; it < items; ++it) {
    const int i = t * items + it;
    head[it] = i < filled && (i == 0 || key[i] != key[i - 1]) ? 1 : 0;
    hk[it] = i < filled ? key[i] : 0;
    hv[it] = T{};
    if constexpr (values) {
      if (head[it]) {
        T v = val[i];
        for (int m = i + 1; m < filled && key[m] == key[i]; ++m) v = Sr::add(v, val[m]);
        hv[it] = v;
      }
    }
  }
  __syncthreads();
  block_scan(scan_tmp).ExclusiveSum(head, rank, unique);
  __syncthreads();
#pragma unroll
  for (int it = 0; it < items; ++it)
    if (head[it]) {
      key[rank[it]] = hk[it];
      if constexpr (values) val[rank[it]] = hv[it];
    }
  for (int i = t; i < unique; i += Threads) dead[i] = 0;
  __syncthreads();

  // 4. The set difference: by the mask's bitmap (each result tests its bit), else each stored
  // entry of M's row is looked up among the row's results.
  if (masked && r < M.rows && unique > 0 && M.bits != nullptr) {
    for (int i = t; i < unique; i += Threads)
      if (M.has_bit(r, vertex_t(key[i]))) dead[i] = 1;
    __syncthreads();
  } else if (masked && r < M.rows && unique > 0) {
    M.for_each_piece(r, [&](offset_t b, offset_t e) {
      for (offset_t p = b + t; p < e; p += Threads) {
        const auto c = std::uint32_t(M.col[p]);
        int lo = 0, hi = unique;
        while (lo < hi) {
          const int mid = (lo + hi) / 2;
          if (key[mid] < c) lo = mid + 1;
          else hi = mid;
        }
        if (lo < unique && key[lo] == c) dead[lo] = 1;
      }
    });
    __syncthreads();
  }

  // 5. Survivors to the workspace, in column order.
  int alive[items], out[items], kept = 0;
#pragma unroll
  for (int it = 0; it < items; ++it) {
    const int i = t * items + it;
    alive[it] = i < unique && dead[i] == 0 ? 1 : 0;
  }
  block_scan(scan_tmp).ExclusiveSum(alive, out, kept);
  const offset_t w0 = ptr[r] - base;
#pragma unroll
  for (int it = 0; it < items; ++it)
    if (alive[it]) {
      const int i = t * items + it;
      ws_col[w0 + out[it]] = vertex_t(key[i]);
      store_value<VC>(ws_val, w0 + out[it], val[values ? i : 0]);
    }
  if (t == 0) count[r - r0] = kept;
}

template <int Cap, int Threads, class Sr, class V>
void launch_bin(std::int64_t rows_in_bin, const spmm_operand<V>& A, const spmm_operand<V>& B,
                const spmm_operand<pattern>* M, const vertex_t* rows, const offset_t* ptr, offset_t base,
                vertex_t r0, vertex_t* ws_col, stored_t<spmm_value_t<Sr, V>>* ws_val, offset_t* count) {
  if (rows_in_bin == 0) return;
  const spmm_operand<pattern> m = M != nullptr ? *M : spmm_operand<pattern>{};
  spmm_bin_kernel<Cap, Threads, Sr, V><<<unsigned(rows_in_bin), Threads>>>(A, B, m, M != nullptr, rows, ptr, base,
                                                                          r0, ws_col, ws_val, count);
  FG_CUDA_CHECK_LAUNCH();
}

/// label_rows on the GPU: a thread a row; each warp adds its rows to a block's counts with one
/// shared atomic per distinct bin, each block to the global counts with one per nonzero bin.
template <class V>
__global__ void label_rows_kernel(spmm_operand<V> A, const offset_t* __restrict__ ptr, vertex_t r0, vertex_t r1,
                                  bool masked, std::uint8_t* __restrict__ label, offset_t* __restrict__ hist) {
  __shared__ unsigned int h[spmm_hash_bins];
  for (int i = threadIdx.x; i < spmm_hash_bins; i += blockDim.x) h[i] = 0;
  __syncthreads();
  for (std::int64_t r = r0 + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < r1;
       r += std::int64_t(gridDim.x) * blockDim.x) {
    const offset_t p = ptr[r + 1] - ptr[r];
    const int b = masked ? spmm_bin(p) : spmm_hash_bin(p, A.size(vertex_t(r)));
    label[r - r0] = std::uint8_t(b);
    const unsigned peers = __match_any_sync(__activemask(), b);
    if ((threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(&h[b], unsigned(__popc(peers)));
  }
  __syncthreads();
  for (int i = threadIdx.x; i < spmm_hash_bins; i += blockDim.x)
    if (h[i] != 0) atomicAdd(reinterpret_cast<unsigned long long*>(hist + i), static_cast<unsigned long long>(h[i]));
}

/// Bin starts, by value (a kernel argument).
struct bin_starts {
  std::int64_t at[spmm_hash_bins + 1];
};

/// This lane's place in bin b, counted by cursor[b]: the active lanes of one bin take consecutive
/// places (one atomic a bin a warp, lanes in order), so a bin's list stays nearly ascending; any
/// order gives the same product (each row is made alone).
template <class C>
__device__ std::int64_t place_in_bin(int b, C* cursor) {
  const unsigned peers = __match_any_sync(__activemask(), b);
  const int lane = int(threadIdx.x & 31), leader = __ffs(peers) - 1;
  C base = 0;
  if (lane == leader) base = atomicAdd(cursor + b, C(__popc(peers)));
  base = __shfl_sync(peers, base, leader);
  return std::int64_t(base) + __popc(peers & ((1u << lane) - 1u));
}

/// order[start of bin label[i] + its place] = r0 + i: the rows listed by bin, a thread a row.
__global__ void list_rows_kernel(const std::uint8_t* __restrict__ label, std::int64_t n, vertex_t r0, bin_starts starts,
                                 unsigned long long* __restrict__ cursor, vertex_t* __restrict__ order) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int b = label[i];
  order[starts.at[b] + place_in_bin(b, cursor)] = vertex_t(r0 + i);
}

/// count_small's first kernel: a warp a row (a coarse level's rows are long); ptr[r] and cost[r]
/// for r <= rows, the last 0.
template <class V>
__global__ void count_rows_kernel(spmm_operand<V> A, spmm_operand<V> B, spmm_cost c, vertex_t rows,
                                  offset_t* __restrict__ ptr, offset_t* __restrict__ cost) {
  const std::int64_t w = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = int(threadIdx.x & 31);
  if (w > rows) return;  // the whole warp
  offset_t n = 0, len = 0;
  if (w < rows) {
    const auto r = vertex_t(w);
    A.for_each_piece(r, [&](offset_t b, offset_t e) {
      for (offset_t j = b + lane; j < e; j += 32) {
        const vertex_t k = A.col[j];
        n += k < B.rows ? B.size(k) : 0;
      }
    });
    len = A.size(r);
  }
  for (int d = 16; d > 0; d >>= 1) n += __shfl_xor_sync(0xffffffffu, n, d);
  if (lane == 0) ptr[w] = n, cost[w] = w < rows ? c.of(n, len) : 0;
}

// 512 threads of 8 items: at 1024 threads the register cap (64) made both kernels spill.
constexpr int small_threads = 512, small_items = 8;
using small_scan = cub::BlockScan<offset_t, small_threads>;

/// a[0, n) scanned in place (exclusive) by the whole block; every thread gets the total.
__device__ offset_t scan_in_place(offset_t* a, std::int64_t n, typename small_scan::TempStorage& tmp) {
  offset_t carry = 0;
  for (std::int64_t i0 = 0; i0 < n; i0 += small_threads * small_items) {
    const std::int64_t at = i0 + std::int64_t(threadIdx.x) * small_items;
    offset_t in[small_items], ex[small_items], total = 0;
#pragma unroll
    for (int k = 0; k < small_items; ++k) in[k] = at + k < n ? a[at + k] : 0;
    small_scan(tmp).ExclusiveSum(in, ex, total);
#pragma unroll
    for (int k = 0; k < small_items; ++k)
      if (at + k < n) a[at + k] = carry + ex[k];
    carry += total;
    __syncthreads();  // tmp is reused, and the stores are seen by the whole block after it
  }
  return carry;
}

/// count_small's second kernel, one block: the scans, the labels, the bins' sizes and the rows
/// listed bin after bin (place_in_bin, as list_rows_kernel).
template <class V>
__global__ void __launch_bounds__(small_threads)
small_bins_kernel(spmm_operand<V> A, vertex_t rows, bool masked, offset_t* __restrict__ ptr, offset_t* __restrict__ cost,
                  std::uint8_t* __restrict__ label, vertex_t* __restrict__ order, offset_t* __restrict__ out) {
  __shared__ typename small_scan::TempStorage tmp;
  __shared__ int hist[spmm_hash_bins], at[spmm_hash_bins];
  const int t = int(threadIdx.x);
  if (t < spmm_hash_bins) hist[t] = 0;
  const offset_t products = scan_in_place(ptr, std::int64_t(rows) + 1, tmp);  // its barriers order the zeroing too
  const offset_t bytes = scan_in_place(cost, std::int64_t(rows) + 1, tmp);
  for (vertex_t r = t; r < rows; r += small_threads) {
    const offset_t p = ptr[r + 1] - ptr[r];
    const int b = masked ? spmm_bin(p) : spmm_hash_bin(p, A.size(r));
    label[r] = std::uint8_t(b);
    atomicAdd(&hist[b], 1);
  }
  __syncthreads();
  if (t == 0)
    for (int b = 0, sum = 0; b < spmm_hash_bins; ++b) at[b] = sum, sum += hist[b];
  __syncthreads();
  for (vertex_t r = t; r < rows; r += small_threads) order[place_in_bin(label[r], at)] = r;
  if (t < 2 + spmm_hash_bins) out[t] = t == 0 ? products : t == 1 ? bytes : offset_t(hist[t - 2]);
}

__global__ void __launch_bounds__(small_threads) scan_small_kernel(offset_t* count, std::int64_t n) {
  __shared__ typename small_scan::TempStorage tmp;
  (void)scan_in_place(count, n, tmp);
}

}  // namespace

namespace spmm_device {
template <class V>
void count_small(const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_cost& c, offset_t* ptr,
                 offset_t* cost, spmm_row_bins& bins, offset_t* out) {
  constexpr int threads = 256;
  const std::int64_t lanes = (std::int64_t(A.rows) + 1) * 32;
  count_rows_kernel<V><<<unsigned((lanes + threads - 1) / threads), threads>>>(A, B, c, A.rows, ptr, cost);
  FG_CUDA_CHECK_LAUNCH();
  small_bins_kernel<V><<<1, small_threads>>>(A, A.rows, bins.masked, ptr, cost, bins.label, bins.order, out);
  FG_CUDA_CHECK_LAUNCH();
}

offset_t scan_small(offset_t* count, std::int64_t n) {
  scan_small_kernel<<<1, small_threads>>>(count, n + 1);
  FG_CUDA_CHECK_LAUNCH();
  return read_offset(count + n);
}

template <class V>
void label_rows(const spmm_operand<V>& A, const offset_t* ptr, vertex_t r0, vertex_t r1, bool masked,
                std::uint8_t* label, offset_t* hist) {
  constexpr int threads = 256;
  constexpr std::int64_t max_blocks = 1024;  // a grid-stride loop: about 8 blocks an SM suffice
  if (r1 <= r0) return;
  const std::int64_t blocks = std::min<std::int64_t>((std::int64_t(r1) - r0 + threads - 1) / threads, max_blocks);
  label_rows_kernel<V><<<unsigned(blocks), threads>>>(A, ptr, r0, r1, masked, label, hist);
  FG_CUDA_CHECK_LAUNCH();
}
#define FG_INSTANTIATE(V)                                                                                              \
  template void label_rows<V>(const spmm_operand<V>&, const offset_t*, vertex_t, vertex_t, bool, std::uint8_t*, offset_t*); \
  template void count_small<V>(const spmm_operand<V>&, const spmm_operand<V>&, const spmm_cost&, offset_t*, offset_t*,      \
                               spmm_row_bins&, offset_t*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
}  // namespace spmm_device

template <class Sr, class V>
spmm_workspace<spmm_value_t<Sr, V>, device_space> spmm_kernels<device_space>::multiply_rows(
    const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_operand<pattern>* M, vertex_t r0, vertex_t r1,
    const offset_t* ptr, offset_t base, offset_t products, const spmm_row_bins* given) {
  using VC = spmm_value_t<Sr, V>;
  const std::int64_t n = std::int64_t(r1) - r0;
  spmm_workspace<VC, device_space> ws{
      array<vertex_t, device_space>(static_cast<std::size_t>(products)),
      array<stored_t<VC>, device_space>(is_pattern_v<VC> ? 0 : static_cast<std::size_t>(products)),
      array<offset_t, device_space>(static_cast<std::size_t>(n + 1))};
  fill_zero(ws.count);  // rows without products are in no bin

  // Bins: a label per row, the rows listed bin after bin. count_products's labels and counts serve when they cover this slice and its kind of bins
  // (no extra host read); otherwise they are made here.
  const bool masked = M != nullptr;
  const int bins = masked ? spmm_bins : spmm_hash_bins;
  std::array<offset_t, spmm_hash_bins> bin_rows{};
  array<std::uint8_t, device_space> own_label;
  std::uint8_t* l = nullptr;
  vertex_t* listed = nullptr;  // count_small's list
  if (given != nullptr && given->filled && given->masked == masked && r0 == 0 && r1 == A.rows) {
    l = given->label;
    bin_rows = given->rows;
    if (given->listed) listed = given->order;
  } else {
    own_label = array<std::uint8_t, device_space>(static_cast<std::size_t>(n));
    array<offset_t, device_space> hist(spmm_hash_bins);
    fill_zero(hist);
    l = own_label.data();
    spmm_device::label_rows(A, ptr, r0, r1, masked, l, hist.data());
    const std::vector<offset_t> h = to_vector(hist);
    std::copy(h.begin(), h.end(), bin_rows.begin());
  }
  // The rows listed by bin from the labels and the bins' sizes (known here): one kernel, where a
  // stable radix sort of the labels took four launches and a temporary.
  std::vector<std::int64_t> bs(std::size_t(bins) + 1, 0);
  for (int b = 0; b < bins; ++b) bs[std::size_t(b) + 1] = bs[std::size_t(b)] + bin_rows[std::size_t(b)];
  array<vertex_t, device_space> order(listed != nullptr ? 0 : static_cast<std::size_t>(n));
  vertex_t* o = listed != nullptr ? listed : order.data();
  if (n > 0 && listed == nullptr) {
    bin_starts starts{};
    for (int b = 0; b <= bins; ++b) starts.at[b] = bs[std::size_t(b)];
    array<unsigned long long, device_space> cursor(spmm_hash_bins);
    fill_zero(cursor);
    constexpr int threads = 256;
    list_rows_kernel<<<unsigned((n + threads - 1) / threads), threads>>>(l, n, r0, starts, cursor.data(), o);
    FG_CUDA_CHECK_LAUNCH();
  }
  auto rows_of = [&](int b) { return bs[std::size_t(b) + 1] - bs[std::size_t(b)]; };
  auto list_of = [&](int b) { return o + bs[std::size_t(b)]; };
  vertex_t* wc = ws.col.data();
  stored_t<VC>* wv = ws.val.data();
  offset_t* cnt = ws.count.data();
  if (!masked) {  // no set difference: the distinct columns in hash tables, only they sorted
    spmm_hash::multiply_bins<Sr>(rows_of, list_of, A, B, ptr, base, r0, wc, wv, cnt);
    return ws;
  }
  launch_bin<32, 32, Sr>(rows_of(1), A, B, M, list_of(1), ptr, base, r0, wc, wv, cnt);
  launch_bin<64, 32, Sr>(rows_of(2), A, B, M, list_of(2), ptr, base, r0, wc, wv, cnt);
  launch_bin<128, 64, Sr>(rows_of(3), A, B, M, list_of(3), ptr, base, r0, wc, wv, cnt);
  launch_bin<256, 128, Sr>(rows_of(4), A, B, M, list_of(4), ptr, base, r0, wc, wv, cnt);
  launch_bin<512, 256, Sr>(rows_of(5), A, B, M, list_of(5), ptr, base, r0, wc, wv, cnt);
  launch_bin<1024, 256, Sr>(rows_of(6), A, B, M, list_of(6), ptr, base, r0, wc, wv, cnt);
  launch_bin<2048, 512, Sr>(rows_of(7), A, B, M, list_of(7), ptr, base, r0, wc, wv, cnt);
  spmm_device::global_rows<Sr>(A, B, M, list_of(8), rows_of(8), r0, ptr, base, wc, wv, cnt);
  return ws;
}

FG_FOR_EACH_SPMM(FG_SPMM_MULTIPLY_DEVICE)

}  // namespace fg::detail
