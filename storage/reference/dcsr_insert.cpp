// Reference twin of storage/device/dcsr_insert.cpp: batch check, sort, duplicate removal, segment
// planning and the write of Algorithms 1-2, one row at a time.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "storage/detail/kernels.hpp"
#include "storage/detail/stepwise_insert.hpp"

namespace fg::detail {
using K = kernels<host_space>;

template <class V>
batch_summary K::summarize(const coo_matrix<V, host_space>& b) {
  batch_summary s;
  for (std::size_t e = 0; e < b.nnz; ++e) {
    int reason = b.row[e] < 0 ? 1 : b.col[e] < 0 ? 2 : 0;
    if constexpr (!is_pattern_v<V>)
      if (reason == 0 && !std::isfinite(double(b.val[e]))) reason = 3;
    if (reason != 0 && s.first_bad < 0) {
      s.first_bad = offset_t(e);
      s.reason = reason;
    }
    s.max_row = std::max(s.max_row, b.row[e]);
    s.max_col = std::max(s.max_col, b.col[e]);
  }
  return s;
}

template <class V>
void K::sort_batch(coo_matrix<V, host_space>& b) {
  std::vector<std::size_t> perm(b.nnz);
  std::iota(perm.begin(), perm.end(), std::size_t(0));
  std::stable_sort(perm.begin(), perm.end(), [&](std::size_t x, std::size_t y) {
    return b.row[x] != b.row[y] ? b.row[x] < b.row[y] : b.col[x] < b.col[y];
  });
  coo_matrix<V, host_space> s(b.nnz);
  for (std::size_t e = 0; e < b.nnz; ++e) {
    s.row[e] = b.row[perm[e]];
    s.col[e] = b.col[perm[e]];
    if constexpr (!is_pattern_v<V>) s.val[e] = b.val[perm[e]];
  }
  b = std::move(s);
}

template <class V>
offset_t K::drop_duplicates(const dcsr_view<V>& A, coo_matrix<V, host_space>& b, const std::uint8_t* also) {
  std::size_t out = 0;
  offset_t walked = 0;  // the stored entries of the touched rows (the device twin's measure)
  for (std::size_t e = 0; e < b.nnz; ++e) {
    const vertex_t r = b.row[e], c = b.col[e];
    if ((e == 0 || b.row[e - 1] != r) && r < A.rows) walked += A.sizes[r];
    bool dup = (e > 0 && b.row[e - 1] == r && b.col[e - 1] == c) || (also != nullptr && also[e] != 0);
    if (!dup && r < A.rows)
      for (vertex_t p = 0; p < A.sizes[r] && !dup; ++p) dup = A.col[A.locate(r, p)] == c;
    if (dup) continue;
    b.row[out] = r;
    b.col[out] = c;
    if constexpr (!is_pattern_v<V>) b.val[out] = b.val[e];
    ++out;
  }
  b.nnz = out;
  return walked;
}

std::size_t K::row_runs(const vertex_t* rows, std::size_t n, array<vertex_t, host_space>& run_row,
                        array<offset_t, host_space>& run_start) {
  run_row = array<vertex_t, host_space>(n);
  run_start = array<offset_t, host_space>(n + 1);
  std::size_t m = 0;
  for (std::size_t e = 0; e < n; ++e)
    if (e == 0 || rows[e] != rows[e - 1]) {
      run_row[m] = rows[e];
      run_start[m++] = offset_t(e);
    }
  run_start[m] = offset_t(n);
  return m;
}

template <class V>
plan_totals K::plan(const dcsr_view<V>& A, const vertex_t* run_row, const offset_t* run_start,
                    std::size_t m, offset_t alpha, double row_growth, offset_t* need) {
  plan_totals t;
  for (std::size_t i = 0; i < m; ++i) {
    const vertex_t r = run_row[i];
    const offset_t b = run_start[i + 1] - run_start[i];
    const offset_t free_space = A.capacity(r) - A.sizes[r];
    need[i] = segment_need(b, free_space, A.sizes[r], alpha, row_growth);
    const int segs = A.nseg[r] + (need[i] > 0 ? 1 : 0);
    t.overflow = t.overflow || segs > A.k;
    t.at_limit = t.at_limit || segs == A.k;
    t.total += need[i];
    t.segments += need[i] > 0 ? 1 : 0;
    t.max_nseg = std::max(t.max_nseg, segs);
  }
  need[m] = 0;
  return t;
}

offset_t K::exclusive_scan(offset_t* data, std::size_t n) {
  offset_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    offset_t v = data[i];
    data[i] = sum;
    sum += v;
  }
  return sum;
}

template <class V>
void K::write(const dcsr_view<V>& A, const vertex_t* run_row, const offset_t* run_start, std::size_t m,
              const offset_t* addr, offset_t base, const coo_matrix<V, host_space>& b) {
  for (std::size_t i = 0; i < m; ++i) {
    const vertex_t r = run_row[i];
    if (addr[i + 1] > addr[i]) {  // Algorithm 1: a new segment for this row
      const int s = A.nseg[r];
      A.seg[s * A.pitch + 2 * offset_t(r)] = base + addr[i];
      A.seg[s * A.pitch + 2 * offset_t(r) + 1] = base + addr[i + 1];
      A.nseg[r] = std::uint8_t(s + 1);
    }
    for (offset_t e = run_start[i]; e < run_start[i + 1]; ++e) {  // Algorithm 2
      const offset_t idx = A.locate(r, A.sizes[r] + (e - run_start[i]));
      A.col[idx] = b.col[e];
      if constexpr (!is_pattern_v<V>) A.val[idx] = b.val[e];
    }
    A.sizes[r] += vertex_t(run_start[i + 1] - run_start[i]);
  }
}

template <class V>
insert_status K::insert(const dcsr_view<V>& A, const coo_matrix<V, host_space>& b, const insert_request& rq,
                        batch_workspace<host_space>&, const edge_set_view& set) {
  return stepwise_insert<host_space>(A, b, rq, set);
}

#define FG_INSTANTIATE(V)                                                                        \
  FG_INSERT_KERNEL_OF(host_space, V)                                                             \
  template batch_summary K::summarize<V>(const coo_matrix<V, host_space>&);                      \
  template void K::sort_batch<V>(coo_matrix<V, host_space>&);                                    \
  template offset_t K::drop_duplicates<V>(const dcsr_view<V>&, coo_matrix<V, host_space>&, const std::uint8_t*);          \
  template plan_totals K::plan<V>(const dcsr_view<V>&, const vertex_t*, const offset_t*,         \
                                  std::size_t, offset_t, double, offset_t*);                             \
  template void K::write<V>(const dcsr_view<V>&, const vertex_t*, const offset_t*, std::size_t,  \
                            const offset_t*, offset_t, const coo_matrix<V, host_space>&);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
