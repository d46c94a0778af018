// The oracle of the inclusion solver: the textbook worklist algorithm, sequential, with no
// matrices, no rounds, no cycle collapse and no order (a node is revisited whenever its pts grows),
// so it shares nothing with the SpMM formulation or the wave solver but the constraints and the set
// container (core/set_table.hpp, tested against std::set on its own). Difference propagation (a
// popped node sends only its facts new since its last pop) and the hash-consed sets keep it within
// reach of the solvers: over hash sets of facts it took 137 s on a 28 k-line program (issue 26),
// over plain sparse bitmaps 530 s on objdump (181 k lines, 2.2e8 facts).
#include <algorithm>
#include <chrono>
#include <deque>

#include "algorithms/detail/indirect_calls.hpp"
#include "algorithms/pointsto.hpp"
#include "core/set_table.hpp"

namespace fg {

inclusion_result solve_inclusion_worklist(const inclusion_problem& p) {
  p.check();
  const auto t0 = std::chrono::steady_clock::now();
  const auto n = std::size_t(p.nodes);
  set_table sets;
  std::vector<set_table::id> pts(n, set_table::empty_set);
  std::vector<std::vector<vertex_t>> succ(n);  // succ[s] ∋ d: pts(d) ⊇ pts(s)
  std::vector<std::vector<vertex_t>> loads(n);                // loads[ptr]: the dsts of dst = *ptr
  struct store_use {
    vertex_t src;
    std::size_t family;
  };
  std::vector<std::vector<store_use>> stores(n);  // stores[ptr]
  const detail::field_table fields = detail::field_rows(p);
  const detail::field_view fv = detail::host_field_view(fields, p.objects);
  for (std::size_t f = 0; f < p.stores.size(); ++f) {
    const auto& s = p.stores[f];
    for (std::size_t j = 0; j < s.ptr.size(); ++j) stores[std::size_t(s.ptr[j])].push_back({s.src[j], f});
  }
  for (std::size_t j = 0; j < p.load_dst.size(); ++j) loads[std::size_t(p.load_ptr[j])].push_back(p.load_dst[j]);
  const std::vector<std::vector<std::uint32_t>> calls = detail::sites_by_callee(p);
  const std::vector<std::int32_t> fn_rows = detail::function_rows(p);
  const detail::call_table call_tab = detail::host_call_table(p, fn_rows);
  // Difference propagation: a node's facts new since it was last popped (delta) are all that its
  // loads, stores and out-edges need to see again; a new edge carries its source's whole set once.
  std::vector<set_table::id> delta(n, set_table::empty_set);
  std::deque<vertex_t> work;
  std::vector<char> queued(n, 0);
  auto push = [&](vertex_t v) {
    if (!queued[std::size_t(v)]) queued[std::size_t(v)] = 1, work.push_back(v);
  };
  auto add_facts = [&](vertex_t v, set_table::id from) {  // pts(v) ∪= from; the new ones into delta
    const set_table::id had = pts[std::size_t(v)], now = sets.unite(had, from);
    if (now == had) return;
    pts[std::size_t(v)] = now;
    delta[std::size_t(v)] = sets.unite(delta[std::size_t(v)], sets.minus(now, had));
    push(v);
  };
  // An edge may be added twice (two loads through pointers to one object): the repeat only sends
  // pts(s) again, a memoised union, where a hash set of the 4e7 edges of objdump cost seconds.
  auto add_edge = [&](vertex_t s, vertex_t d) {
    succ[std::size_t(s)].push_back(d);
    add_facts(d, pts[std::size_t(s)]);
  };
  for (std::size_t j = 0; j < p.base_node.size(); ++j)
    add_facts(p.base_node[j], sets.insert(set_table::empty_set, std::uint32_t(p.base_obj[j])));
  for (std::size_t j = 0; j < p.copy_dst.size(); ++j) add_edge(p.copy_src[j], p.copy_dst[j]);
  std::int64_t pops = 0;
  while (!work.empty()) {
    const vertex_t v = work.front();
    work.pop_front();
    queued[std::size_t(v)] = 0;
    ++pops;
    const set_table::id fresh = delta[std::size_t(v)];
    delta[std::size_t(v)] = set_table::empty_set;
    sets.get(fresh).for_each([&](std::uint32_t o) {  // a stable reference: the table never moves a set
      for (vertex_t d : loads[std::size_t(v)]) add_edge(vertex_t(o), d);
      for (const store_use& s : stores[std::size_t(v)]) detail::store_edges(fv, s.family, s.src, vertex_t(o), add_edge);
      for (std::uint32_t site : calls[std::size_t(v)]) detail::call_edges(call_tab, site, vertex_t(o), add_edge);
    });
    for (std::size_t k = 0; k < succ[std::size_t(v)].size(); ++k) add_facts(succ[std::size_t(v)][k], fresh);  // by index: it may grow
  }
  inclusion_result r;
  r.row_ptr.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    sets.get(pts[v]).for_each([&](std::uint32_t o) { r.col.push_back(vertex_t(o)); });
    r.row_ptr[v + 1] = offset_t(r.col.size());
  }
  std::vector<std::int64_t> seen(n, -1);  // distinct edges: succ lists may repeat an edge
  for (std::size_t v = 0; v < n; ++v)
    for (vertex_t d : succ[v])
      if (seen[std::size_t(d)] != std::int64_t(v)) seen[std::size_t(d)] = std::int64_t(v), ++r.stats.copy_edges;
  r.stats.facts = offset_t(r.col.size());
  r.stats.iterations = int(std::min<std::int64_t>(pops, 2147483647));  // worklist pops, not rounds
  r.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace fg
