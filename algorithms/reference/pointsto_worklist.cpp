// The oracle of the inclusion solver: the textbook worklist algorithm over hash sets, sequential,
// with no matrices, no rounds and no cycle collapse (a node is revisited whenever its pts grows), so
// it shares nothing with the SpMM formulation or the wave solver but the constraints. Difference
// propagation (a popped node sends only its facts new since its last pop) keeps it practical: the
// full-set version took 137 s on a 28 k-line program (issue 26).
#include <algorithm>
#include <chrono>
#include <deque>
#include <unordered_set>

#include "algorithms/detail/indirect_calls.hpp"
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
  const std::vector<std::vector<std::uint32_t>> calls = detail::sites_by_callee(p);
  const std::vector<std::int32_t> fn_rows = detail::function_rows(p);
  // Difference propagation: a node's facts new since it was last popped (delta) are all that its
  // loads, stores and out-edges need to see again; a new edge carries its source's whole set once.
  std::vector<std::vector<vertex_t>> delta(n);
  std::deque<vertex_t> work;
  std::vector<char> queued(n, 0);
  auto push = [&](vertex_t v) {
    if (!queued[std::size_t(v)]) queued[std::size_t(v)] = 1, work.push_back(v);
  };
  auto add_fact = [&](vertex_t v, vertex_t o) {
    if (pts[std::size_t(v)].insert(o).second) delta[std::size_t(v)].push_back(o), push(v);
  };
  auto add_edge = [&](vertex_t s, vertex_t d) {
    if (!succ[std::size_t(s)].insert(d).second) return;
    const std::vector<vertex_t> all(pts[std::size_t(s)].begin(), pts[std::size_t(s)].end());
    for (vertex_t o : all) add_fact(d, o);
  };
  for (std::size_t j = 0; j < p.base_node.size(); ++j) add_fact(p.base_node[j], p.base_obj[j]);
  for (std::size_t j = 0; j < p.copy_dst.size(); ++j) add_edge(p.copy_src[j], p.copy_dst[j]);
  std::int64_t pops = 0;
  while (!work.empty()) {
    const vertex_t v = work.front();
    work.pop_front();
    queued[std::size_t(v)] = 0;
    ++pops;
    std::vector<vertex_t> news;
    news.swap(delta[std::size_t(v)]);
    for (vertex_t o : news) {
      for (vertex_t d : loads[std::size_t(v)]) add_edge(o, d);
      for (const store_use& s : stores[std::size_t(v)]) {
        if (p.stores[s.family].field_node.empty()) {
          add_edge(s.src, o);
        } else {
          for (vertex_t d : field[s.family][std::size_t(o)]) add_edge(s.src, d);
        }
      }
      for (std::uint32_t site : calls[std::size_t(v)]) detail::call_edges(p, fn_rows, site, o, add_edge);
    }
    const std::vector<vertex_t> out(succ[std::size_t(v)].begin(), succ[std::size_t(v)].end());
    for (vertex_t d : out)
      for (vertex_t o : news) add_fact(d, o);
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
