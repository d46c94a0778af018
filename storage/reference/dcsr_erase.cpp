// Reference twin of kernels<device_space>::erase (storage/device/dcsr_erase_portable.cpp, CUDA:
// storage/cuda/dcsr_erase.cu): one touched row at a time, written out plainly as the oracle of the
// layout rule in storage/detail/erase_steps.hpp — the row's holes in ascending order, its tail's
// survivors in ascending order, the first filled from the second — without the device twins' hole
// list, ranks and binary searches over it.
#include <algorithm>
#include <utility>
#include <vector>

#include "storage/detail/erase_steps.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = kernels<host_space>;

namespace {
/// One touched row: the sorted distinct columns deleted from it and the positions they occupy.
struct touched_row {
  vertex_t r = 0;
  std::vector<vertex_t> cols;
  std::vector<offset_t> holes;  ///< ascending
};

/// The first bad key (negative id), as batch_summary reports it.
template <class V>
bool first_bad_key(const coo_matrix<V, host_space>& b, erase_status& st) {
  for (std::size_t e = 0; e < b.nnz; ++e) {
    const int reason = b.row[e] < 0 ? 1 : b.col[e] < 0 ? 2 : 0;
    if (reason != 0) {
      st.first_bad = offset_t(e);
      st.reason = reason;
      return true;
    }
  }
  return false;
}

/// The rows of A that the keys name, with their columns, and where those columns sit (read only).
template <class V>
std::vector<touched_row> locate(const dcsr_view<V>& A, const coo_matrix<V, host_space>& b, erase_status& st) {
  std::vector<std::pair<vertex_t, vertex_t>> keys;
  for (std::size_t e = 0; e < b.nnz; ++e)
    if (b.row[e] < A.rows) keys.emplace_back(b.row[e], b.col[e]);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<touched_row> rows;
  for (const auto& [r, c] : keys) {
    if (rows.empty() || rows.back().r != r) rows.push_back(touched_row{r, {}, {}});
    rows.back().cols.push_back(c);
  }
  for (touched_row& t : rows) {
    std::vector<bool> hit(t.cols.size(), false);
    for (offset_t p = 0; p < A.sizes[t.r]; ++p) {
      const vertex_t c = A.col[A.locate(t.r, p)];
      const auto it = std::lower_bound(t.cols.begin(), t.cols.end(), c);
      if (it == t.cols.end() || *it != c) continue;
      t.holes.push_back(p);
      hit[std::size_t(it - t.cols.begin())] = true;
    }
    st.matched += offset_t(std::count(hit.begin(), hit.end(), true));
    st.removed += offset_t(t.holes.size());
  }
  return rows;
}
}  // namespace

template <class V>
erase_status K::erase(const dcsr_view<V>& A, const coo_matrix<V, host_space>& b, const erase_request& rq,
                      batch_workspace<host_space>& ws, const edge_set_view&) {
  erase_status st;
  if (first_bad_key(b, st)) return st;
  const std::vector<touched_row> rows = locate(A, b, st);
  st.runs = offset_t(rows.size());
  const erase_log<V> log = rq.log ? erase_log_in<V>(ws, std::size_t(st.removed), rows.size()) : erase_log<V>{};
  offset_t k = 0;  // hole number over the whole batch, as the device twins count them
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const touched_row& t = rows[i];
    const offset_t n = A.sizes[t.r], d = offset_t(t.holes.size()), keep = n - d;
    std::vector<offset_t> survivors;  // of the tail [keep, n), ascending
    for (offset_t p = keep, h = 0; p < n; ++p) {
      while (h < d && t.holes[std::size_t(h)] < p) ++h;
      if (h == d || t.holes[std::size_t(h)] != p) survivors.push_back(p);
    }
    for (offset_t h = 0; h < d; ++h, ++k) {
      const offset_t hole = t.holes[std::size_t(h)];
      offset_t dst = -1;
      if (hole < keep) {  // the h-th hole of the prefix takes the h-th survivor of the tail
        dst = A.locate(t.r, hole);
        const offset_t src = A.locate(t.r, survivors[std::size_t(h)]);
        if (log.dst != nullptr) {
          log.col[k] = A.col[dst];
          if constexpr (!is_pattern_v<V>) log.val[k] = A.val[dst];
        }
        A.col[dst] = A.col[src];
        if constexpr (!is_pattern_v<V>) A.val[dst] = A.val[src];
      }
      if (log.dst != nullptr) log.dst[k] = dst;
    }
    if (log.dst != nullptr) {
      log.row[i] = d > 0 ? t.r : -1;
      log.size[i] = vertex_t(n);
      log.nseg[i] = A.nseg[t.r];
    }
    if (d == 0) continue;
    A.sizes[t.r] = vertex_t(keep);
    A.nseg[t.r] = std::uint8_t(segments_holding(A, t.r, keep));
  }
  st.written = true;
  return st;
}

template <class V>
void K::undo_erase(const dcsr_view<V>& A, batch_workspace<host_space>& ws, const erase_status& st) {
  const erase_log<V> log = erase_log_in<V>(ws, std::size_t(st.removed), std::size_t(st.runs));
  for (offset_t k = 0; k < st.removed; ++k) unfill_hole(A, log, k);
  for (offset_t i = 0; i < st.runs; ++i) untrim_row(A, log, i);
}

#define FG_INSTANTIATE(V) FG_ERASE_KERNEL_OF(host_space, V) FG_UNDO_ERASE_KERNEL_OF(host_space, V)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
