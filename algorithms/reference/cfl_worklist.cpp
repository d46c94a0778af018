// The oracle of the CFL solver: the classic worklist algorithm (Melski & Reps) over labelled edges,
// sequential, with no matrices. Indexed symbols are handled as written in the grammar — an edge of
// an indexed symbol carries its index, and a production joins two edges only when their indices
// agree — so it shares none of the matrix solver's fusion of indexed rules.
#include <chrono>
#include <deque>
#include <unordered_set>

#include "algorithms/cfl.hpp"

namespace fg {

namespace {
struct edge {
  vertex_t u, v, idx;  // idx -1: unindexed
};
struct edge_hash {
  std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& k) const noexcept {
    // unsigned: the product wraps by definition (a signed one overflowed: UB, found by UBSan)
    return std::size_t(std::uint64_t(k.first) * 1000003u ^ std::uint64_t(k.second));
  }
};
}  // namespace

cfl_result solve_cfl_worklist(const cfl_grammar& g, const cfl_graph& gr) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t syms = g.names.size(), n = std::size_t(gr.nodes);
  // Per symbol: the edge set (key: (u, v), (idx, sym)), out- and in-adjacency.
  std::unordered_set<std::pair<std::int64_t, std::int64_t>, edge_hash> seen;
  std::vector<std::vector<std::vector<edge>>> out(syms, std::vector<std::vector<edge>>(n)), in = out;
  std::vector<offset_t> pairs(syms, 0);
  std::deque<std::pair<int, edge>> work;
  auto add = [&](int s, edge e) {
    const std::int64_t k1 = std::int64_t(e.u) << 32 | std::uint32_t(e.v);
    const std::int64_t k2 = (std::int64_t(e.idx) + 1) << 20 | s;
    if (!seen.insert({k1, k2}).second) return;
    out[std::size_t(s)][std::size_t(e.u)].push_back(e);
    in[std::size_t(s)][std::size_t(e.v)].push_back(e);
    ++pairs[std::size_t(s)];
    work.emplace_back(s, e);
  };
  // Rules by the RHS position a symbol occupies.
  std::vector<std::vector<const cfl_grammar::rule*>> as_a(syms), as_b(syms);
  for (const auto& r : g.rules) {
    if (r.a >= 0) as_a[std::size_t(r.a)].push_back(&r);
    if (r.b >= 0) as_b[std::size_t(r.b)].push_back(&r);
  }
  auto join = [&](const cfl_grammar::rule& r, const edge& x, const edge& y) {  // x: the a-edge, y: the b-edge
    const bool xi = g.indexed[std::size_t(r.a)], yi = g.indexed[std::size_t(r.b)];
    if (xi && yi && x.idx != y.idx) return;
    const vertex_t idx = g.indexed[std::size_t(r.lhs)] ? (xi ? x.idx : y.idx) : -1;
    add(r.lhs, {x.u, y.v, idx});
  };
  for (std::size_t s = 0; s < syms; ++s)
    for (std::size_t j = 0; j < gr.src[s].size(); ++j)
      add(int(s), {gr.src[s][j], gr.dst[s][j], g.indexed[s] ? gr.idx[s][j] : -1});
  for (const auto& r : g.rules)
    if (r.a < 0)
      for (vertex_t v = 0; v < gr.nodes; ++v) add(r.lhs, {v, v, -1});
  std::int64_t pops = 0;
  while (!work.empty()) {
    const auto [s, e] = work.front();
    work.pop_front();
    ++pops;
    for (const cfl_grammar::rule* r : as_a[std::size_t(s)]) {
      if (r->b < 0) {
        add(r->lhs, {e.u, e.v, g.indexed[std::size_t(r->lhs)] ? e.idx : -1});
        continue;
      }
      const std::vector<edge> right = out[std::size_t(r->b)][std::size_t(e.v)];  // copy: add() may grow it
      for (const edge& y : right) join(*r, e, y);
    }
    for (const cfl_grammar::rule* r : as_b[std::size_t(s)]) {
      const std::vector<edge> left = in[std::size_t(r->a)][std::size_t(e.u)];
      for (const edge& x : left) join(*r, x, e);
    }
  }
  cfl_result res;
  res.pairs = pairs;
  for (std::size_t s = 0; s < syms; ++s)
    if (g.indexed[s]) res.pairs[s] = 0;  // as the matrix solver, which fuses them away
  for (int c : g.count) res.counts.push_back(pairs[std::size_t(c)]);
  res.iterations = int(std::min<std::int64_t>(pops, 2147483647));
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace fg
