// The walk over one chunk of a row list's entries, shared by the GPU's two load-balanced paths
// (algorithms/device/balanced_edges.hpp: edge_chunks; algorithms/cuda/frontier_edges.cuh: the
// one-launch path for short lists), which differ only in where the rows' offsets come from.
#pragma once
#include "storage/dcsr.hpp"

namespace fg::detail {

/// f(i, u, j) for the entries [first, end) of the list, where row u = rows[i] (rows null: u = i)
/// holds the entries [start[i], start[i + 1]) of count rows; first < start[count].
template <class V, class F>
FG_HD inline void walk_chunk(const dcsr_view<V>& g, const vertex_t* rows, vertex_t count, const offset_t* start,
                             offset_t first, offset_t end, const F& f) {
  vertex_t lo = 0, hi = count - 1;  // the last i with start[i] <= first
  while (lo < hi) {
    const vertex_t mid = vertex_t((offset_t(lo) + hi + 1) / 2);
    if (start[mid] <= first) lo = mid;
    else hi = mid - 1;
  }
  for (offset_t e = first; e < end; ++e) {
    while (start[lo + 1] <= e) ++lo;
    const vertex_t u = rows ? rows[lo] : lo;
    f(lo, u, g.locate(u, e - start[lo]));
  }
}

}  // namespace fg::detail
