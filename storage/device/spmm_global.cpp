// SpMM global path in Thrust (King et al. 2016, §III-B: expansion, sort, compression; the paper's
// 2049+ kernel, here without dynamic parallelism): OpenMP in the CPU build, where it serves every
// row, and CUDA in the CUDA build, where it serves the rows too long for shared memory.
// Reference twin: storage/reference/spmm.cpp.
#include <thrust/functional.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

#include <cstdint>

#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"
#include "storage/device/spmm_device.hpp"

namespace fg::detail::spmm_device {

namespace {
using DK = kernels<device_space>;

// Products (and mask entries) per thread: a handful on the GPU, where neighbours should write
// neighbouring keys; a long run on OpenMP threads, which walk memory sequentially best.
#if defined(FG_WITH_CUDA)
constexpr offset_t expand_chunk = 8;
#else
constexpr offset_t expand_chunk = 4096;
#endif

/// The row of list entry i (no list: the rows from r0 on).
FG_HD inline vertex_t listed(const vertex_t* rows, vertex_t r0, std::int64_t i) {
  return rows != nullptr ? rows[i] : vertex_t(r0 + i);
}
/// Sort key of a product: the row's list index above its column, so one sort orders both.
FG_HD inline std::uint64_t product_key(std::int64_t i, vertex_t c) {
  return (std::uint64_t(i) << 32) | std::uint32_t(c);
}
/// First position in key[lo, hi) that is >= v.
FG_HD inline offset_t lower_bound_key(const std::uint64_t* key, offset_t lo, offset_t hi, std::uint64_t v) {
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (key[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <class Sr>
struct semiring_add {
  FG_HD typename Sr::value_type operator()(typename Sr::value_type a, typename Sr::value_type b) const {
    return Sr::add(a, b);
  }
};

/// start[i] = first of the u sorted keys that belongs to list entry i, for i in [0, n].
void row_starts(const std::uint64_t* key, offset_t u, std::int64_t n, offset_t* start) {
  parallel_for(n + 1, FG_LAMBDA(std::int64_t i) { start[i] = lower_bound_key(key, 0, u, product_key(i, 0)); });
}
}  // namespace

template <class Sr, class V>
void global_rows(const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_operand<pattern>* M,
                 const vertex_t* rows, std::int64_t n, vertex_t r0, const offset_t* ptr, offset_t base,
                 vertex_t* ws_col, stored_t<spmm_value_t<Sr, V>>* ws_val, offset_t* count) {
  using VC = spmm_value_t<Sr, V>;
  using T = stored_t<VC>;
  constexpr bool values = !is_pattern_v<VC>;
  if (n <= 0) return;
  // A's entries of the listed rows, numbered row after row, and the products each one expands to.
  array<offset_t, device_space> acount(static_cast<std::size_t>(n + 1));
  offset_t* ac = acount.data();
  parallel_for(n + 1, FG_LAMBDA(std::int64_t i) { ac[i] = i < n ? A.size(listed(rows, r0, i)) : 0; });
  const offset_t entries = DK::exclusive_scan(ac, std::size_t(n) + 1);
  array<offset_t, device_space> eptr(static_cast<std::size_t>(entries + 1));
  offset_t* ep = eptr.data();
  parallel_for(entries + 1, FG_LAMBDA(std::int64_t e) {
    offset_t len = 0;
    if (e < entries) {
      const std::int64_t i = last_not_greater(ac, n + 1, offset_t(e));
      const vertex_t k = A.col[A.locate(listed(rows, r0, i), e - ac[i])];
      len = k < B.rows ? B.size(k) : 0;
    }
    ep[e] = len;
  });
  const offset_t total = DK::exclusive_scan(ep, std::size_t(entries) + 1);

  // Expansion: each thread takes a chunk of consecutive products, finds the first one's entry of A
  // by binary search (entries expanding to nothing are skipped by it) and walks on from there.
  array<std::uint64_t, device_space> keys(static_cast<std::size_t>(total));
  array<T, device_space> vals(values ? static_cast<std::size_t>(total) : 0);
  std::uint64_t* key = keys.data();
  T* val = vals.data();
  const offset_t chunks = (total + expand_chunk - 1) / expand_chunk;
  parallel_for(chunks, FG_LAMBDA(std::int64_t ch) {
    offset_t q = ch * expand_chunk;
    const offset_t end = q + expand_chunk < total ? q + expand_chunk : total;
    std::int64_t e = last_not_greater(ep, entries + 1, q);
    std::int64_t i = last_not_greater(ac, n + 1, offset_t(e));
    while (q < end) {
      while (ep[e + 1] <= q) ++e;
      while (ac[i + 1] <= e) ++i;
      const offset_t j = A.locate(listed(rows, r0, i), e - ac[i]);
      const vertex_t k = A.col[j];
      const auto a = value_or<V>(A.val, j, Sr::pattern_value());
      for (offset_t p = q - ep[e], len = ep[e + 1] - ep[e]; p < len && q < end; ++p, ++q) {
        const offset_t jb = B.locate(k, p);
        key[q] = product_key(i, B.col[jb]);
        store_value<VC>(val, q, Sr::mul(a, value_or<V>(B.val, jb, Sr::pattern_value())));
      }
    }
  });
  eptr = {};
  acount = {};

  // Sort and compression. Stable, so a cell's products are summed in input order, as the
  // reference twin sums them (bit-identical floats in the CPU build).
  offset_t u = 0;
  if constexpr (values) {
    thrust::stable_sort_by_key(policy(), key, key + total, val);
    array<std::uint64_t, device_space> ukeys(static_cast<std::size_t>(total));
    array<T, device_space> uvals(static_cast<std::size_t>(total));
    auto ends = thrust::reduce_by_key(policy(), key, key + total, val, ukeys.data(), uvals.data(),
                                      thrust::equal_to<std::uint64_t>(), semiring_add<Sr>());
    u = offset_t(ends.first - ukeys.data());
    keys = std::move(ukeys);
    vals = std::move(uvals);
    key = keys.data();
    val = vals.data();
  } else {
    thrust::sort(policy(), key, key + total);
    u = offset_t(thrust::unique(policy(), key, key + total) - key);
  }

  array<offset_t, device_space> starts(static_cast<std::size_t>(n + 1));
  offset_t* st = starts.data();
  if (M != nullptr && u > 0) {
    const spmm_operand<pattern> m = *M;
    array<std::uint8_t, device_space> dead(static_cast<std::size_t>(u));
    std::uint8_t* d = dead.data();
    if (m.bits != nullptr) {  // the set difference by the mask's bitmap: each result tests its bit
      parallel_for(u, FG_LAMBDA(std::int64_t o) {
        const vertex_t r = listed(rows, r0, std::int64_t(key[o] >> 32));
        d[o] = r < m.rows && m.has_bit(r, vertex_t(std::uint32_t(key[o]))) ? 1 : 0;
      });
    } else {
      // A thread per stored entry of M's row looks its column up in the row's sorted results; M's
      // rows need no order (a DCSR row is a sequence of appended batches).
      fill_zero(dead);
      row_starts(key, u, n, st);
      array<offset_t, device_space> mvolume(static_cast<std::size_t>(n + 1));
      offset_t* mv = mvolume.data();
      parallel_for(n + 1, FG_LAMBDA(std::int64_t i) {  // rows without results need no look-ups
        const vertex_t r = i < n ? listed(rows, r0, i) : 0;
        mv[i] = i < n && r < m.rows && st[i + 1] > st[i] ? m.size(r) : 0;
      });
      const offset_t volume = DK::exclusive_scan(mv, std::size_t(n) + 1);
      const offset_t mchunks = (volume + expand_chunk - 1) / expand_chunk;
      parallel_for(mchunks, FG_LAMBDA(std::int64_t ch) {  // chunks of M's entries, as in the expansion
        offset_t t = ch * expand_chunk;
        const offset_t end = t + expand_chunk < volume ? t + expand_chunk : volume;
        std::int64_t i = last_not_greater(mv, n + 1, t);
        for (; t < end; ++t) {
          while (mv[i + 1] <= t) ++i;
          const vertex_t c = m.col[m.locate(listed(rows, r0, i), t - mv[i])];
          const std::uint64_t want = product_key(i, c);
          const offset_t at = lower_bound_key(key, st[i], st[i + 1], want);
          if (at < st[i + 1] && key[at] == want) d[at] = 1;  // racing writers all store 1
        }
      });
    }
    auto drop = FG_LAMBDA(std::uint8_t f) { return f != 0; };
    if constexpr (values) {
      auto first = thrust::make_zip_iterator(thrust::make_tuple(key, val));
      u = offset_t(thrust::remove_if(policy(), first, first + u, d, drop) - first);
    } else {
      u = offset_t(thrust::remove_if(policy(), key, key + u, d, drop) - key);
    }
  }

  // Scatter into the workspace, each row at its products' place.
  row_starts(key, u, n, st);
  parallel_for(u, FG_LAMBDA(std::int64_t o) {
    const std::int64_t i = std::int64_t(key[o] >> 32);
    const offset_t w = ptr[listed(rows, r0, i)] - base + (o - st[i]);
    ws_col[w] = vertex_t(std::uint32_t(key[o]));
    copy_value<VC>(ws_val, w, val, o);
  });
  parallel_for(n, FG_LAMBDA(std::int64_t i) { count[listed(rows, r0, i) - r0] = st[i + 1] - st[i]; });
}

#define FG_INSTANTIATE(Sr, V)                                                                          \
  template void global_rows<Sr, V>(const spmm_operand<V>&, const spmm_operand<V>&,                     \
                                   const spmm_operand<pattern>*, const vertex_t*, std::int64_t, vertex_t, \
                                   const offset_t*, offset_t, vertex_t*, stored_t<spmm_value_t<Sr, V>>*, \
                                   offset_t*);
FG_FOR_EACH_SPMM(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail::spmm_device
