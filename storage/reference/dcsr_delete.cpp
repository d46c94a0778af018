// Reference twin of storage/device/dcsr_delete.cpp: the touched rows' entries are copied aside and
// marked, one row at a time, with a plain scan of the batch's run (an independent oracle for the
// device twin's binary search), then written back compacted.
#include <vector>

#include "storage/detail/kernels.hpp"

namespace fg::detail {
using K = kernels<host_space>;

template <class V>
void K::touched_rows(const dcsr_view<V>& A, const vertex_t* run_row, std::size_t m, offset_t* vol,
                     std::uint8_t* nseg) {
  for (std::size_t i = 0; i < m; ++i) {
    const vertex_t r = run_row[i];
    vol[i] = r < A.rows ? A.sizes[r] : 0;
    nseg[i] = r < A.rows ? A.nseg[r] : 0;
  }
  vol[m] = 0;
}

template <class V>
offset_t K::mark_deletes(const dcsr_view<V>& A, const vertex_t* run_row, const offset_t* run_start,
                         std::size_t m, const vertex_t* b_col, const offset_t* vol, offset_t* keep,
                         vertex_t* saved_col, stored_t<V>* saved_val) {
  std::vector<bool> hit(std::size_t(run_start[m]), false);
  for (std::size_t i = 0; i < m; ++i) {
    for (offset_t t = vol[i]; t < vol[i + 1]; ++t) {
      const offset_t src = A.locate(run_row[i], t - vol[i]);
      saved_col[t] = A.col[src];
      if constexpr (!is_pattern_v<V>) saved_val[t] = A.val[src];
      keep[t] = 1;
      for (offset_t e = run_start[i]; e < run_start[i + 1]; ++e)
        if (b_col[e] == saved_col[t]) {
          keep[t] = 0;
          hit[std::size_t(e)] = true;
        }
    }
  }
  keep[vol[m]] = 0;
  offset_t matched = 0;
  for (bool h : hit) matched += h ? 1 : 0;
  return matched;
}

template <class V>
void K::place_rows(const dcsr_view<V>& A, const vertex_t* run_row, std::size_t m, const offset_t* vol,
                   const offset_t* pos, const std::uint8_t* nseg, const vertex_t* saved_col,
                   const stored_t<V>* saved_val) {
  for (std::size_t i = 0; i < m; ++i) {
    const vertex_t r = run_row[i];
    if (r >= A.rows) continue;
    reshape_row(A, r, i, vol, pos, nseg);  // the chain first, then the entries through it
    offset_t q = 0;
    for (offset_t t = vol[i]; t < vol[i + 1]; ++t) {
      if (pos != nullptr && pos[t + 1] == pos[t]) continue;
      const offset_t dst = A.locate(r, q++);
      A.col[dst] = saved_col[t];
      if constexpr (!is_pattern_v<V>) A.val[dst] = saved_val[t];
    }
  }
}

#define FG_INSTANTIATE(V) FG_DELETE_KERNELS_OF(host_space, V)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
