// The renumbering policy of fluxgraph::graph and fluxgraph::stream (docs/api.md "Vertex ids"), in
// one place: a batch's deletes and inserts in the caller's ids to vertex numbers through the one
// stream/id_map, and the map's new ids given back when the batch fails.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "stream/id_map.hpp"

namespace fluxgraph::api {

/// Appends the deletes whose ids are both in the map, as vertex numbers, to `out` (an edge list):
/// an id the map lacks names no edge, so its delete is dropped and never interned.
template <class L>
void known_pairs(const fg::id_map& map, const std::int64_t* src, const std::int64_t* dst, std::size_t n, L& out) {
  for (std::size_t i = 0; i < n; ++i) {
    const fg::vertex_t u = map.find(src[i]), v = map.find(dst[i]);
    if (u >= 0 && v >= 0) out.src.push_back(u), out.dst.push_back(v);
  }
}

/// The inserts as vertex numbers in `out`, the batch's new ids interned in increasing order of id
/// (id_map::intern_batch: the same numbers whatever the edges' order).
template <class L>
void interned_pairs(fg::id_map& map, const std::int64_t* src, const std::int64_t* dst, std::size_t n, L& out) {
  out.src.resize(n), out.dst.resize(n);
  map.intern_batch(src, dst, out.src.data(), out.dst.data(), n);
}

/// f(), which interns a batch's ids and applies it. When it throws, the map forgets the ids it
/// gave out since, except the first keep() (the vertices the store has now, which keep their ids:
/// a failure after the store update), so that a refused batch leaves the ids as they were.
template <class F, class K>
auto ids_kept_if_applied(fg::id_map& map, F f, K keep) {
  const fg::vertex_t before = map.size();
  try {
    return f();
  } catch (...) {
    map.truncate(std::max(before, fg::vertex_t(keep())));
    throw;
  }
}
/// The same where the store's update is all or nothing (a graph): a failure keeps no new id.
template <class F>
auto ids_kept_if_applied(fg::id_map& map, F f) {
  return ids_kept_if_applied(map, f, [] { return 0; });
}

}  // namespace fluxgraph::api
