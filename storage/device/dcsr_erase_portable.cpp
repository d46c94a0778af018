// kernels<device_space>::erase for the CPU build (OpenMP threads), where reading a count back between
// steps is a plain load: the insertion's step kernels check, sort and de-duplicate the keys, then a
// thread walks each touched row and looks every stored entry's column up in the row's keys (binary
// search; rows in dynamic chunks), the hits become the sorted hole list, and the shared write
// steps (storage/detail/erase_steps.hpp) fill the holes and trim the rows. The CUDA build replaces
// this file with storage/cuda/dcsr_erase.cu (same symbol); reference twin storage/reference/dcsr_erase.cpp.
#include <thrust/copy.h>
#include <thrust/count.h>

#include "storage/detail/erase_steps.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = kernels<device_space>;

namespace {
/// The keys that can match: sorted, distinct, rows of A only and, with a set, pairs it holds.
template <class V>
coo_matrix<pattern, device_space> candidate_keys(const dcsr_view<V>& A, const coo_matrix<V, device_space>& b,
                                                  const edge_set_view& set, erase_status& st) {
  coo_matrix<pattern, device_space> keys(b.nnz);  // values play no part (a NaN there is no error)
  copy_range(keys.row, 0, b.row, 0, b.nnz);
  copy_range(keys.col, 0, b.col, 0, b.nnz);
  const batch_summary sum = K::summarize(keys);
  st.first_bad = sum.first_bad;
  st.reason = sum.reason;
  if (sum.first_bad >= 0) return keys;
  K::sort_batch(keys);
  array<std::uint8_t, device_space> absent(b.nnz);
  std::uint8_t* out = absent.data();
  const vertex_t* row = keys.row.data();
  const vertex_t* col = keys.col.data();
  parallel_for(std::int64_t(b.nnz), FG_LAMBDA(std::int64_t e) {
    out[e] = row[e] >= A.rows || (set.slot != nullptr && !set.contains(edge_set_view::key(row[e], col[e])));
  });
  K::drop_duplicates(dcsr_view<pattern>{}, keys, out);  // a store with no rows: repeats and `absent` only
  return keys;
}
}  // namespace

template <class V>
erase_status K::erase(const dcsr_view<V>& A, const coo_matrix<V, device_space>& b, const erase_request& rq,
                      batch_workspace<device_space>& ws, const edge_set_view& set) {
  erase_status st;
  const coo_matrix<pattern, device_space> keys = candidate_keys(A, b, set, st);
  if (st.first_bad >= 0) return st;
  array<vertex_t, device_space> run_row;
  array<offset_t, device_space> run_start;
  const std::size_t m = row_runs(keys.row.data(), keys.nnz, run_row, run_start);
  array<offset_t, device_space> vol(m + 1);
  offset_t* v = vol.data();
  const vertex_t* rr = run_row.data();
  const offset_t* rs = run_start.data();
  parallel_for(std::int64_t(m) + 1, FG_LAMBDA(std::int64_t i) { v[i] = i < std::int64_t(m) ? A.sizes[rr[i]] : 0; });
  const offset_t volume = exclusive_scan(v, m + 1);
  // Every stored entry of a touched row: a hole when its row's keys list its column (every copy of
  // a key in an accumulating store). hit marks the keys found. A thread walks a row's pieces in
  // order, in dynamic chunks (R-MAT's hubs are its first rows): a thread an entry, the CUDA
  // build's layout, paid a search of the runs and a segment walk for every entry (a random-order
  // stream's batches touch the hubs: rmat-18, 1e4-edge batches, 0.48 M deletes/s, 53% of the
  // time in that loop; docs/perf-journal.md, 2026-11-29).
  array<std::uint8_t, device_space> is_hole(std::size_t(volume) + 1), hits(keys.nnz + 1);
  fill_zero(hits);
  std::uint8_t* hole_flag = is_hole.data();
  std::uint8_t* hit = hits.data();
  const vertex_t* kc = keys.col.data();
  const auto runs = std::int64_t(m);
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t i = 0; i < runs; ++i) {
    offset_t t = v[i];
    A.for_each_piece(rr[i], [&](offset_t b, offset_t e) {
      for (offset_t p = b; p < e; ++p, ++t) {
        const vertex_t c = A.col[p];
        const std::int64_t lo = first_not_less(kc, rs[i], rs[i + 1], c);
        const bool listed = lo < rs[i + 1] && kc[lo] == c;
        hole_flag[t] = listed;
        if (listed) hit[lo] = 1;  // copies of one edge all store 1
      }
    });
  }
  array<offset_t, device_space> holes{std::size_t(volume)};
  const auto first = thrust::counting_iterator<offset_t>(0);
  st.removed = offset_t(thrust::copy_if(policy(), first, first + volume, hole_flag, holes.data(),
                                        FG_LAMBDA(std::uint8_t f) { return f != 0; }) - holes.data());
  st.matched = offset_t(thrust::count(policy(), hit, hit + keys.nnz, std::uint8_t(1)));
  st.runs = offset_t(m);
  st.written = true;
  if (st.removed == 0) return st;
  // The first write: everything above allocated what the deletion needs, the log included.
  const erase_log<V> log = rq.log ? erase_log_in<V>(ws, std::size_t(st.removed), m) : erase_log<V>{};
  const erase_plan p{rr, v, std::int64_t(m), holes.data(), st.removed};
  parallel_for(st.removed, FG_LAMBDA(std::int64_t k) { fill_hole(A, p, k, log); });
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) { trim_row(A, p, i, log); });
  const vertex_t* kr = keys.row.data();
  if (set.slot != nullptr)  // tombstones: the set's count of used slots stays as it is
    parallel_for(std::int64_t(keys.nnz), FG_LAMBDA(std::int64_t e) {
      if (hit[e] != 0) set.erase(edge_set_view::key(kr[e], kc[e]));
    });
  return st;
}

#define FG_INSTANTIATE(V) FG_ERASE_KERNEL_OF(device_space, V)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
