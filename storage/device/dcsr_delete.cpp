// Device twin of storage/reference/dcsr_delete.cpp in Thrust (OpenMP in the CPU build, the GPU in the
// CUDA build). One thread per stored entry of a touched row, found by binary search over the
// flattened row offsets, so a hub row is spread over many threads; the new places come from a scan,
// so the layout matches the reference twin exactly.
#include <thrust/count.h>

#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = kernels<device_space>;

template <class V>
void K::touched_rows(const dcsr_view<V>& A, const vertex_t* run_row, std::size_t m, offset_t* vol,
                     std::uint8_t* nseg) {
  parallel_for(std::int64_t(m) + 1, FG_LAMBDA(std::int64_t i) {
    const bool in = i < std::int64_t(m) && run_row[i] < A.rows;
    vol[i] = in ? A.sizes[run_row[i]] : 0;
    if (i < std::int64_t(m)) nseg[i] = in ? A.nseg[run_row[i]] : 0;
  });
}

template <class V>
offset_t K::mark_deletes(const dcsr_view<V>& A, const vertex_t* run_row, const offset_t* run_start,
                         std::size_t m, const vertex_t* b_col, const offset_t* vol, offset_t* keep,
                         vertex_t* saved_col, stored_t<V>* saved_val) {
  offset_t total = 0, entries = 0;
  memory::copy_to_host(&total, vol + m, sizeof total);
  memory::copy_to_host(&entries, run_start + m, sizeof entries);
  array<std::uint8_t, device_space> hits(static_cast<std::size_t>(entries));
  fill_zero(hits);
  std::uint8_t* hit = hits.data();
  const std::int64_t runs = std::int64_t(m) + 1;
  parallel_for(total + 1, FG_LAMBDA(std::int64_t t) {
    if (t == total) {
      keep[t] = 0;  // the scan's last slot
      return;
    }
    const std::int64_t i = last_not_greater(vol, runs, offset_t(t));
    const offset_t src = A.locate(run_row[i], t - vol[i]);
    const vertex_t c = A.col[src];
    saved_col[t] = c;
    copy_value<V>(saved_val, t, A.val, src);
    offset_t lo = run_start[i], hi = run_start[i + 1];  // first batch entry of the run with col >= c
    while (lo < hi) {
      const offset_t mid = lo + (hi - lo) / 2;
      if (b_col[mid] < c) lo = mid + 1;
      else hi = mid;
    }
    const bool listed = lo < run_start[i + 1] && b_col[lo] == c;
    keep[t] = listed ? 0 : 1;
    if (listed) hit[lo] = 1;  // copies of one edge (accumulating store) all store 1
  });
  return offset_t(thrust::count(policy(), hit, hit + entries, std::uint8_t(1)));
}

template <class V>
void K::place_rows(const dcsr_view<V>& A, const vertex_t* run_row, std::size_t m, const offset_t* vol,
                   const offset_t* pos, const std::uint8_t* nseg, const vertex_t* saved_col,
                   const stored_t<V>* saved_val) {
  // Sizes and chains first, then the entries through the new chains.
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) {
    if (run_row[i] < A.rows) reshape_row(A, run_row[i], std::size_t(i), vol, pos, nseg);
  });
  offset_t total = 0;
  memory::copy_to_host(&total, vol + m, sizeof total);
  const std::int64_t runs = std::int64_t(m) + 1;
  parallel_for(total, FG_LAMBDA(std::int64_t t) {
    if (pos != nullptr && pos[t + 1] == pos[t]) return;
    const std::int64_t i = last_not_greater(vol, runs, offset_t(t));
    const offset_t q = pos != nullptr ? pos[t] - pos[vol[i]] : t - vol[i];
    const offset_t dst = A.locate(run_row[i], q);
    A.col[dst] = saved_col[t];
    copy_value<V>(A.val, dst, saved_val, t);
  });
}

#define FG_INSTANTIATE(V) FG_DELETE_KERNELS_OF(device_space, V)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
