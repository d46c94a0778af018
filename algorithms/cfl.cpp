// All-pairs CFL-reachability by semi-naive masked or-and SpMMs (see cfl.hpp), once for both twins.
//
// Per round, every rule reads the deltas of the last round: N -> X adds ΔX \ N (ΔX·I masked by N);
// N -> B C adds (ΔB·C ∪ B·ΔC) \ N; a fused indexed rule Y -> t_i X u_i adds
// Lf·(retag(T'·ΔX)·U') \ Y. New cells are appended to the full store and to the next delta
// (algorithms/detail/fixpoint.hpp); terminals are deltas in the first round only.
#include "algorithms/cfl.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "algorithms/detail/cfl_kernels.hpp"
#include "algorithms/detail/fixpoint.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"

namespace fg {

namespace {
using detail::derive;
using fused_rule = cfl_fused_rule;

// The constant matrices of one fused rule.
template <class S>
struct fused_mats {
  dcsr_matrix<pattern, S> T, Lf, U;  // T'(t-port, dst), Lf(node, t-port), U'(u-port, dst)
  array<vertex_t, S> tag;            // index of each t-port
  array<std::int64_t, S> keys;       // sorted port keys of the u-ports
  vertex_t tports = 0, uports = 0;
};

// Ports of an indexed label: its distinct (source, index) pairs as sorted keys, and each edge's port.
struct ports {
  std::vector<std::int64_t> keys;
  std::vector<vertex_t> of_edge;
};
ports ports_of(const std::vector<vertex_t>& src, const std::vector<vertex_t>& idx) {
  ports p;
  std::vector<std::int64_t> k(src.size());
  for (std::size_t j = 0; j < src.size(); ++j) k[j] = detail::port_key(idx[j], src[j]);
  p.keys = k;
  std::sort(p.keys.begin(), p.keys.end());
  p.keys.erase(std::unique(p.keys.begin(), p.keys.end()), p.keys.end());
  for (std::int64_t key : k)
    p.of_edge.push_back(vertex_t(std::lower_bound(p.keys.begin(), p.keys.end(), key) - p.keys.begin()));
  return p;
}

template <class S>
fused_mats<S> fused_matrices(const cfl_graph& gr, const fused_rule& f) {
  const vertex_t n = gr.nodes;
  fused_mats<S> m;
  const ports tp = ports_of(gr.src[std::size_t(f.t)], gr.idx[std::size_t(f.t)]);
  const ports up = ports_of(gr.src[std::size_t(f.u)], gr.idx[std::size_t(f.u)]);
  m.tports = vertex_t(tp.keys.size());
  m.uports = vertex_t(up.keys.size());
  std::vector<vertex_t> tag(tp.keys.size()), lr, lc;
  for (std::size_t p = 0; p < tp.keys.size(); ++p) {
    tag[p] = vertex_t(tp.keys[p] >> 32);
    lr.push_back(vertex_t(tp.keys[p] & 0xffffffff));  // the port's source node
    lc.push_back(vertex_t(p));
  }
  m.T = detail::relation<S>(m.tports, n, tp.of_edge, gr.dst[std::size_t(f.t)]);
  m.Lf = detail::relation<S>(n, m.tports, lr, lc);
  m.tag = to_space<S>(tag);
  m.U = detail::relation<S>(m.uports, n, up.of_edge, gr.dst[std::size_t(f.u)]);
  m.keys = to_space<S>(up.keys);
  return m;
}

template <class S>
cfl_result solve_on(const cfl_grammar& g, const cfl_graph& gr, const cfl_options& opt) {
  memory::reset_peak();
  const vertex_t n = gr.nodes;
  const std::size_t syms = g.names.size();
  cfl_result res;
  spmm_stats sst;
  std::vector<dcsr_matrix<pattern, S>> full, delta;
  for (std::size_t s = 0; s < syms; ++s) {
    const bool term = g.terminal[s] && !g.indexed[s];
    full.push_back(term ? detail::relation<S>(n, n, gr.src[s], gr.dst[s]) : detail::empty_relation<S>(n, n));
    delta.push_back(term ? detail::relation<S>(n, n, gr.src[s], gr.dst[s]) : detail::empty_relation<S>(n, n));
  }
  const auto t0 = std::chrono::steady_clock::now();
  const dcsr_matrix<pattern, S> I = detail::identity_relation<S>(n);
  for (const auto& r : g.rules)  // ε: (v, v) for every node
    if (r.a < 0) {
      derive(I, I, full[std::size_t(r.lhs)], &delta[std::size_t(r.lhs)], opt.spmm, sst);
    }
  const std::vector<fused_rule> fused = fused_rules(g);
  std::vector<fused_mats<S>> fm;
  for (const auto& f : fused) fm.push_back(fused_matrices<S>(gr, f));
  using K = detail::cfl_kernels<S>;
  for (;;) {
    bool any = false;
    for (const auto& d : delta) any |= d.nnz() > 0;
    if (!any) break;
    ++res.iterations;
    std::vector<dcsr_matrix<pattern, S>> next;
    for (std::size_t s = 0; s < syms; ++s) next.push_back(detail::empty_relation<S>(n, n));
    offset_t added = 0;
    for (const auto& r : g.rules) {
      if (r.a < 0 || g.indexed[std::size_t(r.lhs)] || g.indexed[std::size_t(r.a)]) continue;  // ε done; indexed: fused
      auto& N = full[std::size_t(r.lhs)];
      auto* dn = &next[std::size_t(r.lhs)];
      if (r.b < 0) {
        added += derive(delta[std::size_t(r.a)], I, N, dn, opt.spmm, sst);
      } else {
        added += derive(delta[std::size_t(r.a)], full[std::size_t(r.b)], N, dn, opt.spmm, sst);
        added += derive(full[std::size_t(r.a)], delta[std::size_t(r.b)], N, dn, opt.spmm, sst);
      }
    }
    for (std::size_t i = 0; i < fused.size(); ++i) {
      const auto& dx = delta[std::size_t(fused[i].x)];
      const fused_mats<S>& m = fm[i];
      if (dx.nnz() == 0 || m.T.nnz() == 0 || m.U.nnz() == 0) continue;
      const dcsr_matrix<pattern, S> W = spmm<or_and>(m.T, dx, opt.spmm, &sst);  // t-port x node
      const coo_matrix<pattern, S> moved = K::retag(W.to_coo(), m.tag, m.keys);  // t-port x u-port
      if (moved.nnz == 0) continue;
      const auto W2 = dcsr_matrix<pattern, S>::from_coo(moved, m.tports, m.uports, detail::relation_config(m.tports, m.uports));
      const dcsr_matrix<pattern, S> Z = spmm<or_and>(W2, m.U, opt.spmm, &sst);  // t-port x node
      added += derive(m.Lf, Z, full[std::size_t(fused[i].y)], &next[std::size_t(fused[i].y)], opt.spmm, sst);
    }
    delta = std::move(next);
    if (opt.progress) {
      offset_t total = 0;
      for (const auto& f : full) total += f.nnz();
      opt.progress(res.iterations, added, total);
    }
  }
  memory::synchronize();
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (std::size_t s = 0; s < syms; ++s) res.pairs.push_back(g.indexed[s] ? 0 : full[s].nnz());
  for (int c : g.count) {
    res.counts.push_back(full[std::size_t(c)].nnz());
    if (!opt.want_pairs) continue;
    std::vector<offset_t> ptr;
    std::vector<vertex_t> col;
    detail::sorted_rows(full[std::size_t(c)], ptr, col);
    auto& out = res.count_pairs.emplace_back();
    for (std::size_t r = 0; r + 1 < ptr.size(); ++r)
      for (offset_t j = ptr[r]; j < ptr[r + 1]; ++j) out.emplace_back(vertex_t(r), col[std::size_t(j)]);
  }
  res.products = sst.products;
  res.peak_bytes = memory::peak_bytes();
  return res;
}
}  // namespace

cfl_result solve_cfl(const cfl_grammar& g, const cfl_graph& graph, exec where, const cfl_options& opt) {
  if (where == exec::reference) return solve_on<host_space>(g, graph, opt);
#if defined(FG_WITH_CUDA)
  if (auto r = solve_cfl_value_flow(g, graph, opt)) return std::move(*r);  // 6-7 rounds of bit rows, not 18-21 of SpMMs
  return solve_on<device_space>(g, graph, opt);
#else
  return solve_cfl_sets(g, graph, opt);
#endif
}

}  // namespace fg
