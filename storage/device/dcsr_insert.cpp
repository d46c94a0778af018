// Device twin of storage/reference/dcsr_insert.cpp (King et al. 2016, Algorithms 1-2) in Thrust:
// runs on OpenMP threads in the CPU build and on the GPU in the CUDA build. Segment addresses come
// from a scan instead of an atomicAdd, so the layout matches the reference twin exactly.
#include <thrust/iterator/zip_iterator.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include <cmath>

#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"
#if !defined(FG_WITH_CUDA)
#include "storage/device/entry_ranges.hpp"
#endif

namespace fg::detail {
using K = kernels<device_space>;

namespace {
struct combine_summary {
  FG_HD batch_summary operator()(const batch_summary& a, const batch_summary& b) const {
    batch_summary s;
    const bool take_a = a.first_bad >= 0 && (b.first_bad < 0 || a.first_bad < b.first_bad);
    s.first_bad = take_a ? a.first_bad : b.first_bad;
    s.reason = take_a ? a.reason : b.reason;
    s.max_row = a.max_row > b.max_row ? a.max_row : b.max_row;
    s.max_col = a.max_col > b.max_col ? a.max_col : b.max_col;
    return s;
  }
};

}  // namespace

template <class V>
batch_summary K::summarize(const coo_matrix<V, device_space>& b) {
  const vertex_t* row = b.row.data();
  const vertex_t* col = b.col.data();
  const stored_t<V>* val = b.val.data();
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(0),
      thrust::counting_iterator<std::int64_t>(std::int64_t(b.nnz)),
      FG_LAMBDA(std::int64_t e) {
        batch_summary s;
        int reason = row[e] < 0 ? 1 : col[e] < 0 ? 2 : 0;
        if (reason == 0 && !value_is_finite<V>(val, e)) reason = 3;
        if (reason != 0) {
          s.first_bad = e;
          s.reason = reason;
        }
        s.max_row = row[e];
        s.max_col = col[e];
        return s;
      },
      batch_summary{}, combine_summary{});
}

template <class V>
void K::sort_batch(coo_matrix<V, device_space>& b) {
  const std::int64_t n = std::int64_t(b.nnz);
  FG_EXPECTS(n < (std::int64_t(1) << 32), "batch too large for one sort");
  // One 64-bit key per edge: a radix sort on the GPU, and row/col come back out of the key.
  array<std::uint64_t, device_space> keys(static_cast<std::size_t>(n));
  std::uint64_t* key = keys.data();
  vertex_t* row = b.row.data();
  vertex_t* col = b.col.data();
  parallel_for(n, FG_LAMBDA(std::int64_t e) {
    key[e] = (std::uint64_t(std::uint32_t(row[e])) << 32) | std::uint32_t(col[e]);
  });
  if constexpr (is_pattern_v<V>) {
    claim_sort_scratch(std::size_t(n) * sizeof(std::uint64_t));
    thrust::sort(policy(), key, key + n);
  } else {
    array<std::uint32_t, device_space> perm(static_cast<std::size_t>(n));
    thrust::sequence(policy(), perm.data(), perm.data() + n);
    claim_sort_scratch(std::size_t(n) * (sizeof(std::uint64_t) + sizeof(std::uint32_t)));
    thrust::stable_sort_by_key(policy(), key, key + n, perm.data());
    array<V, device_space> val(static_cast<std::size_t>(n));
    const V* old = b.val.data();
    V* out = val.data();
    const std::uint32_t* p = perm.data();
    parallel_for(n, FG_LAMBDA(std::int64_t e) { out[e] = old[p[e]]; });
    b.val = std::move(val);
  }
  parallel_for(n, FG_LAMBDA(std::int64_t e) {
    row[e] = vertex_t(key[e] >> 32);
    col[e] = vertex_t(std::uint32_t(key[e]));
  });
}

template <class V>
offset_t K::drop_duplicates(const dcsr_view<V>& A, coo_matrix<V, device_space>& b, const std::uint8_t* also) {
  const std::int64_t n = std::int64_t(b.nnz);
  array<std::uint8_t, device_space> drop(static_cast<std::size_t>(n));
  std::uint8_t* d = drop.data();
  const vertex_t* row = b.row.data();
  const vertex_t* col = b.col.data();
  parallel_for(n, FG_LAMBDA(std::int64_t e) {  // repeats within the (sorted) batch
    d[e] = (e > 0 && row[e - 1] == row[e] && col[e - 1] == col[e]) || (also != nullptr && also[e] != 0) ? 1 : 0;
  });
  // Against the store: one thread per STORED entry of a touched row binary-searches the batch's
  // sorted run for that row. Work is the touched rows' volume, spread evenly; scanning the row once
  // per batch entry instead would cost (entries in the row) x (row length) on hub rows.
  array<vertex_t, device_space> run_row;
  array<offset_t, device_space> run_start;
  const std::size_t m = row_runs(row, std::size_t(n), run_row, run_start);
  array<offset_t, device_space> volume(m + 1);
  offset_t* vol = volume.data();
  const vertex_t* rr = run_row.data();
  const offset_t* rs = run_start.data();
  parallel_for(std::int64_t(m) + 1, FG_LAMBDA(std::int64_t i) {
    vol[i] = i < std::int64_t(m) && rr[i] < A.rows ? A.sizes[rr[i]] : 0;
  });
  const offset_t total = exclusive_scan(vol, m + 1);
#if defined(FG_WITH_CUDA)
  parallel_for(total, FG_LAMBDA(std::int64_t t) {
    const std::int64_t i = last_not_greater(vol, std::int64_t(m) + 1, offset_t(t));
    const vertex_t c = A.col[A.locate(rr[i], t - vol[i])];
    const std::int64_t lo = first_not_less(col, rs[i], rs[i + 1], c);  // the run's first col >= c
    if (lo < rs[i + 1] && col[lo] == c) d[lo] = 1;  // racing writers all store 1
  });
#else  // a CPU walks the touched rows in order instead (storage/device/entry_ranges.hpp)
  for_each_entry_ranged(A, vol, std::int64_t(m), rr, total, FG_LAMBDA(offset_t, std::int64_t i, offset_t src) {
    const vertex_t c = A.col[src];
    const std::int64_t lo = first_not_less(col, rs[i], rs[i + 1], c);  // the run's first col >= c
    if (lo < rs[i + 1] && col[lo] == c) d[lo] = 1;  // racing writers all store 1
  });
#endif
  auto identity = FG_LAMBDA(std::uint8_t f) { return f != 0; };
  if constexpr (is_pattern_v<V>) {
    auto first = thrust::make_zip_iterator(thrust::make_tuple(b.row.data(), b.col.data()));
    b.nnz = std::size_t(thrust::remove_if(policy(), first, first + n, d, identity) - first);
  } else {
    auto first = thrust::make_zip_iterator(thrust::make_tuple(b.row.data(), b.col.data(), b.val.data()));
    b.nnz = std::size_t(thrust::remove_if(policy(), first, first + n, d, identity) - first);
  }
  return total;
}

std::size_t K::row_runs(const vertex_t* rows, std::size_t n, array<vertex_t, device_space>& run_row,
                        array<offset_t, device_space>& run_start) {
  run_row = array<vertex_t, device_space>(n);
  run_start = array<offset_t, device_space>(n + 1);
  auto ends = thrust::unique_by_key_copy(policy(), rows, rows + n, thrust::counting_iterator<offset_t>(0),
                                         run_row.data(), run_start.data());
  const std::size_t m = std::size_t(ends.first - run_row.data());
  const offset_t total = offset_t(n);
  memory::copy_to_device(run_start.data() + m, &total, sizeof total);
  return m;
}

offset_t K::exclusive_scan(offset_t* data, std::size_t n) {
  if (n == 0) return 0;
  const offset_t last = read_one<device_space>(data + n - 1);
  thrust::exclusive_scan(policy(), data, data + n, data);
  return read_one<device_space>(data + n - 1) + last;
}

#define FG_INSTANTIATE(V)                                                                          \
  template batch_summary K::summarize<V>(const coo_matrix<V, device_space>&);                      \
  template void K::sort_batch<V>(coo_matrix<V, device_space>&);                                    \
  template offset_t K::drop_duplicates<V>(const dcsr_view<V>&, coo_matrix<V, device_space>&, const std::uint8_t*);          \

FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
