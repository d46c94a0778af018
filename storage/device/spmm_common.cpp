// Device SpMM pieces compiled in both builds (OpenMP / CUDA): partial-product counts per row
// (King et al. 2016, §III-B: "for each element a_ij the number of entries in row j of B are
// summed"), the workspace-to-batch gather, and the sortedness check of DCSR append_sorted.
// Reference twin: storage/reference/spmm.cpp.
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <vector>

#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"
#include "storage/device/spmm_device.hpp"

namespace fg::detail {
using K = spmm_kernels<device_space>;

// count_products: below `few_rows` rows (a coarse level, whose rows are long) a row's entries are
// counted by `lanes` threads, not one.
constexpr vertex_t few_rows = 32768;
constexpr std::int64_t lanes = 32;

template <class V>
product_totals K::count_products(const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_cost& c,
                                 offset_t* ptr, offset_t* cost, spmm_row_bins* bins) {
  const vertex_t rows = A.rows;
  constexpr int nb = spmm_hash_bins;
#if defined(FG_WITH_CUDA)
  if (rows < spmm_device::small_rows && bins != nullptr && bins->label != nullptr && bins->order != nullptr && rows > 0) {
    array<offset_t, device_space> out(2 + nb);
    spmm_device::count_small(A, B, c, ptr, cost, *bins, out.data());
    const std::vector<offset_t> h = to_vector(out);
    std::copy(h.begin() + 2, h.end(), bins->rows.begin());
    bins->filled = bins->listed = true;
    return {h[0], h[1]};
  }
#endif
  if (rows >= few_rows) {  // a thread a row
    parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t r) {
      offset_t n = 0;
      if (r < rows)
        A.for_each_piece(vertex_t(r), [&](offset_t b, offset_t e) {
          for (offset_t j = b; j < e; ++j) n += A.col[j] < B.rows ? B.size(A.col[j]) : 0;
        });
      ptr[r] = n;
      cost[r] = r < rows ? c.of(n, A.size(vertex_t(r))) : 0;
    });
  } else {  // few rows, long ones (a coarse level's): `lanes` threads a row, added atomically
    parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t r) { ptr[r] = 0; });
    parallel_for(std::int64_t(rows) * lanes, FG_LAMBDA(std::int64_t i) {
      const auto r = vertex_t(i / lanes);
      offset_t n = 0;
      for (offset_t p = i % lanes; p < A.size(r); p += lanes) {
        const vertex_t k = A.col[A.locate(r, p)];
        n += k < B.rows ? B.size(k) : 0;
      }
      if (n == 0) return;
#if defined(__CUDA_ARCH__)
      atomicAdd(reinterpret_cast<unsigned long long*>(ptr + r), static_cast<unsigned long long>(n));
#else
      __atomic_fetch_add(ptr + r, n, __ATOMIC_RELAXED);
#endif
    });
    parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t r) { cost[r] = r < rows ? c.of(ptr[r], A.size(vertex_t(r))) : 0; });
  }
  // Each array ends in 0, so its total is its scan's last entry; the totals and the bins' row
  // counts are read back in one copy: every host read waits for the GPU to drain, and a
  // small SpMM (a coarse AMG level) is made of such waits.
  thrust::exclusive_scan(policy(), ptr, ptr + rows + 1, ptr);  // (a zip of both took 2x as long)
  thrust::exclusive_scan(policy(), cost, cost + rows + 1, cost);
  array<offset_t, device_space> out(2 + nb);
  offset_t* o = out.data();
  parallel_for(2 + nb, FG_LAMBDA(std::int64_t i) { o[i] = i == 0 ? ptr[rows] : i == 1 ? cost[rows] : 0; });
#if defined(FG_WITH_CUDA)  // the bins are the CUDA kernels' (the CPU build has none)
  const bool binned = bins != nullptr && bins->label != nullptr && rows > 0;
  if (binned) spmm_device::label_rows(A, ptr, 0, rows, bins->masked, bins->label, o + 2);
#else
  constexpr bool binned = false;
  (void)bins;
#endif
  const std::vector<offset_t> h = to_vector(out);
  if (binned) {
    std::copy(h.begin() + 2, h.end(), bins->rows.begin());
    bins->filled = true;
  }
  return {h[0], h[1]};
}

bool K::strictly_sorted(const vertex_t* row, const vertex_t* col, std::size_t n) {
  if (n < 2) return true;
  const std::int64_t bad = thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(1), thrust::counting_iterator<std::int64_t>(std::int64_t(n)),
      FG_LAMBDA(std::int64_t i)->std::int64_t {
        return row[i] < row[i - 1] || (row[i] == row[i - 1] && col[i] <= col[i - 1]) ? 1 : 0;
      },
      std::int64_t(0), thrust::plus<std::int64_t>());
  return bad == 0;
}

void K::row_offsets(const vertex_t* row, std::size_t n, vertex_t rows, offset_t* row_ptr) {
  const auto m = std::int64_t(n);
  parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t i) {
    std::int64_t lo = 0, hi = m;  // first entry whose row is >= i
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (std::int64_t(row[mid]) < i) lo = mid + 1;
      else hi = mid;
    }
    row_ptr[i] = offset_t(lo);
  });
}

void K::mark(std::uint32_t* bits, offset_t words, const vertex_t* row, const vertex_t* col, std::size_t n) {
  parallel_for(std::int64_t(n), FG_LAMBDA(std::int64_t i) {
    std::uint32_t* w = bits + offset_t(row[i]) * words + (col[i] >> 5);
    const std::uint32_t bit = 1u << (col[i] & 31);
#if defined(__CUDA_ARCH__)
    atomicOr(w, bit);
#else
    __atomic_fetch_or(w, bit, __ATOMIC_RELAXED);
#endif
  });
}

namespace spmm_device {

offset_t read_offset(const offset_t* p) {
  offset_t v = 0;
  memory::copy_to_host(&v, p, sizeof v);
  return v;
}

}  // namespace spmm_device

// The pack walks the output in tiles: every lane of a tile finds the tile's first row by one binary
// search (the same addresses: one load for the warp), then takes every `lanes`-th entry, walking on
// through the rows. Long rows cost no more than short ones, and the writes are coalesced.
#if defined(FG_WITH_CUDA)
constexpr offset_t pack_tile = 128, pack_lanes = 32;
#else
constexpr offset_t pack_tile = 4096, pack_lanes = 1;
#endif

offset_t K::scan_counts(offset_t* count, std::int64_t n) {
#if defined(FG_WITH_CUDA)
  if (n < spmm_device::small_rows) return spmm_device::scan_small(count, n);
#endif
  thrust::exclusive_scan(policy(), count, count + n + 1, count);  // count[n] is 0: the total lands there
  return spmm_device::read_offset(count + n);
}

template <class VC>
spmm_part<VC, device_space> K::pack(vertex_t r0, vertex_t r1, const offset_t* ptr, offset_t base,
                                    spmm_workspace<VC, device_space>&& ws, offset_t total) {
  const std::int64_t n = std::int64_t(r1) - r0;
  spmm_part<VC, device_space> part{coo_matrix<VC, device_space>(static_cast<std::size_t>(total)), std::move(ws.count)};
  const offset_t* count = part.row_ptr.data();
  vertex_t* row = part.batch.row.data();
  vertex_t* col = part.batch.col.data();
  stored_t<VC>* val = part.batch.val.data();
  const vertex_t* ws_col = ws.col.data();
  const stored_t<VC>* ws_val = ws.val.data();
  parallel_for((total + pack_tile - 1) / pack_tile * pack_lanes, FG_LAMBDA(std::int64_t t) {
    const offset_t o0 = t / pack_lanes * pack_tile;
    const offset_t end = o0 + pack_tile < total ? o0 + pack_tile : total;
    std::int64_t i = last_not_greater(count, n + 1, o0);
    for (offset_t o = o0 + t % pack_lanes; o < end; o += pack_lanes) {
      while (count[i + 1] <= o) ++i;
      const offset_t w = ptr[r0 + i] - base + (o - count[i]);
      row[o] = vertex_t(r0 + i);
      col[o] = ws_col[w];
      copy_value<VC>(val, o, ws_val, w);
    }
  });
  return part;
}

FG_FOR_EACH_VALUE(FG_SPMM_COUNT_DEVICE)
#define FG_PACK(VC) FG_SPMM_PACK_IN(::fg::device_space, VC)
FG_FOR_EACH_VALUE(FG_PACK)
#undef FG_PACK

}  // namespace fg::detail
