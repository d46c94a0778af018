// The oracle of the inclusion solver: the textbook worklist algorithm over hash sets, sequential,
// with no matrices and no rounds (a node is revisited whenever its pts grows), so it shares nothing
// with the SpMM formulation but the constraints.
#include <algorithm>
#include <chrono>
#include <deque>
#include <unordered_set>

#include "algorithms/pointsto.hpp"

namespace fg {

inclusion_result solve_inclusion_worklist(const inclusion_problem& p) {
  p.check();
  const auto t0 = std::chrono::steady_clock::now();
  const auto n = std::size_t(p.nodes);
  std::vector<std::unordered_set<vertex_t>> pts(n), succ(n);  // succ[s] ∋ d: pts(d) ⊇ pts(s)
  std::vector<std::vector<vertex_t>> loads(n);                // loads[ptr]: the dsts of dst = *ptr
  struct store_use {
    vertex_t src;
    std::size_t family;
  };
  std::vector<std::vector<store_use>> stores(n);  // stores[ptr]
  std::vector<std::vector<std::vector<vertex_t>>> field(p.stores.size());  // field[f][o]: nodes written
  for (std::size_t f = 0; f < p.stores.size(); ++f) {
    const auto& s = p.stores[f];
    for (std::size_t j = 0; j < s.ptr.size(); ++j) stores[std::size_t(s.ptr[j])].push_back({s.src[j], f});
    field[f].resize(std::size_t(p.objects));
    for (std::size_t j = 0; j < s.field_node.size(); ++j) field[f][std::size_t(s.field_obj[j])].push_back(s.field_node[j]);
  }
  for (std::size_t j = 0; j < p.load_dst.size(); ++j) loads[std::size_t(p.load_ptr[j])].push_back(p.load_dst[j]);
  std::deque<vertex_t> work;
  std::vector<char> queued(n, 0);
  auto push = [&](vertex_t v) {
    if (!queued[std::size_t(v)]) queued[std::size_t(v)] = 1, work.push_back(v);
  };
  for (std::size_t j = 0; j < p.base_node.size(); ++j)
    if (pts[std::size_t(p.base_node[j])].insert(p.base_obj[j]).second) push(p.base_node[j]);
  for (std::size_t j = 0; j < p.copy_dst.size(); ++j)
    if (succ[std::size_t(p.copy_src[j])].insert(p.copy_dst[j]).second) push(p.copy_src[j]);
  std::int64_t pops = 0;
  while (!work.empty()) {
    const vertex_t v = work.front();
    work.pop_front();
    queued[std::size_t(v)] = 0;
    ++pops;
    // Complex constraints first: they may add edges out of v (a store *v = v) or into other nodes.
    const std::vector<vertex_t> mine(pts[std::size_t(v)].begin(), pts[std::size_t(v)].end());
    for (vertex_t o : mine) {
      for (vertex_t d : loads[std::size_t(v)])
        if (succ[std::size_t(o)].insert(d).second) push(o);
      for (const store_use& s : stores[std::size_t(v)]) {
        if (p.stores[s.family].field_node.empty()) {
          if (succ[std::size_t(s.src)].insert(o).second) push(s.src);
        } else {
          for (vertex_t d : field[s.family][std::size_t(o)])
            if (succ[std::size_t(s.src)].insert(d).second) push(s.src);
        }
      }
    }
    const std::vector<vertex_t> out(succ[std::size_t(v)].begin(), succ[std::size_t(v)].end());
    for (vertex_t d : out) {
      bool grew = false;
      for (vertex_t o : pts[std::size_t(v)]) grew |= pts[std::size_t(d)].insert(o).second;
      if (grew) push(d);
    }
  }
  inclusion_result r;
  r.row_ptr.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    r.row_ptr[v + 1] = r.row_ptr[v] + offset_t(pts[v].size());
    r.col.insert(r.col.end(), pts[v].begin(), pts[v].end());
    std::sort(r.col.begin() + r.row_ptr[v], r.col.end());
    r.stats.copy_edges += offset_t(succ[v].size());
  }
  r.stats.facts = offset_t(r.col.size());
  r.stats.iterations = int(std::min<std::int64_t>(pops, 2147483647));  // worklist pops, not rounds
  r.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace fg
