// CFL-reachability for the value-flow grammar (vf.cfg: A -> A A | call_i A ret_i | a | ε) as an
// inclusion system for the bit-row solver (algorithms/pointsto_bits.cpp). With
// pts(v) = {u : A(u, v)}:
//   - ε: u ∈ pts(u) for every node (the base facts);
//   - an a-edge u -> t: pts(t) ⊇ pts(u) (a copy edge; A's closure is the propagation along them);
//   - A -> call_i A ret_i: a return edge c -ret_i-> d, for each b ∈ pts(c) (that is, A(b, c)) and
//     each call edge a -call_i-> b, gives A(a, d): the copy edge a -> d (a matched return unit).
// So A's closure costs what points-to's copy edges cost: cycles collapse on the host, a row settles
// in one wave a round, and only the summary edges go back to the host. The matrix fixed point
// (algorithms/cfl.cpp) pays ~4 ms a round in SpMM set-up on 17 k-node graphs; the rows here are
// 17 k bits.
#include <algorithm>
#include <chrono>

#include "algorithms/cfl.hpp"
#include "algorithms/detail/pointsto_bits.hpp"

namespace fg {

namespace {
// The single unindexed nonterminal when the grammar has value flow's shape (A -> A A, A -> ε,
// A -> A, A -> t for unindexed terminals t, and fused rules A -> t_i A u_i; Count: A); -1 if not.
int value_flow_symbol(const cfl_grammar& g) {
  if (g.count.size() != 1) return -1;
  const int a = g.count[0];
  bool eps = false;
  for (const auto& r : g.rules) {
    if (g.indexed[std::size_t(r.lhs)] || (r.a >= 0 && g.indexed[std::size_t(r.a)])) continue;  // the fused rules' parts
    if (r.lhs != a) return -1;
    if (r.a < 0) eps = true;
    else if (r.b < 0) {
      if (r.a != a && !g.terminal[std::size_t(r.a)]) return -1;
    } else if (r.a != a || r.b != a) {
      return -1;
    }
  }
  for (const cfl_fused_rule& f : fused_rules(g))
    if (f.y != a || f.x != a) return -1;
  return eps ? a : -1;
}
}  // namespace

std::optional<cfl_result> solve_cfl_value_flow(const cfl_grammar& g, const cfl_graph& gr, const cfl_options& opt) {
  const int a = value_flow_symbol(g);
  if (a < 0) return std::nullopt;
  const auto t0 = std::chrono::steady_clock::now();
  inclusion_problem p;
  p.nodes = p.objects = gr.nodes;
  for (vertex_t v = 0; v < gr.nodes; ++v) p.base_node.push_back(v), p.base_obj.push_back(v);
  for (const auto& r : g.rules)
    if (r.lhs == a && r.a >= 0 && r.b < 0 && r.a != a) {  // A -> t: t's edges
      const auto s = std::size_t(r.a);
      p.copy_src.insert(p.copy_src.end(), gr.src[s].begin(), gr.src[s].end());
      p.copy_dst.insert(p.copy_dst.end(), gr.dst[s].begin(), gr.dst[s].end());
    }
  detail::bits::matched_edges m;
  for (const cfl_fused_rule& f : fused_rules(g)) {
    const auto t = std::size_t(f.t), u = std::size_t(f.u);
    m.call_src.insert(m.call_src.end(), gr.src[t].begin(), gr.src[t].end());
    m.call_dst.insert(m.call_dst.end(), gr.dst[t].begin(), gr.dst[t].end());
    m.call_idx.insert(m.call_idx.end(), gr.idx[t].begin(), gr.idx[t].end());
    m.ret_src.insert(m.ret_src.end(), gr.src[u].begin(), gr.src[u].end());
    m.ret_dst.insert(m.ret_dst.end(), gr.dst[u].begin(), gr.dst[u].end());
    m.ret_idx.insert(m.ret_idx.end(), gr.idx[u].begin(), gr.idx[u].end());
  }
  inclusion_options io;
  io.spmm = opt.spmm;
  io.progress = opt.progress;
  const inclusion_result sol = detail::bits::solve_matched(p, m, io);
  cfl_result res;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  res.iterations = sol.stats.iterations;
  res.peak_bytes = sol.stats.peak_bytes;
  for (std::size_t s = 0; s < g.names.size(); ++s) {  // terminals: their distinct edges, as the other solvers count
    offset_t c = 0;
    if (int(s) == a) {
      c = sol.stats.facts;
    } else if (g.terminal[s] && !g.indexed[s]) {
      std::vector<std::uint64_t> e(gr.src[s].size());
      for (std::size_t j = 0; j < e.size(); ++j) e[j] = std::uint64_t(std::uint32_t(gr.src[s][j])) << 32 | std::uint32_t(gr.dst[s][j]);
      std::sort(e.begin(), e.end());
      c = offset_t(std::unique(e.begin(), e.end()) - e.begin());
    }
    res.pairs.push_back(c);
  }
  res.counts.push_back(sol.stats.facts);
  if (opt.want_pairs) {  // pts(v) holds the u of A(u, v): sorted by (u, v) here
    auto& out = res.count_pairs.emplace_back();
    for (vertex_t v = 0; v < gr.nodes; ++v)
      for (offset_t j = sol.row_ptr[std::size_t(v)]; j < sol.row_ptr[std::size_t(v) + 1]; ++j) out.emplace_back(sol.col[std::size_t(j)], v);
    std::sort(out.begin(), out.end());
  }
  return res;
}

}  // namespace fg
