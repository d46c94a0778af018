// The CPU build's CFL-reachability solver (algorithms/cfl.hpp): Melski & Reps' worklist, but over
// per-node successor sets (sparse bitmaps) with difference propagation — a node's new successors of
// a symbol are joined once, as one set, not edge by edge.
//
// Transitive symbols (a rule X -> X X: aa.cfg's A and Abar, vf.cfg's A) carry most of the pairs and
// most of a plain worklist's redundant derivations (each X pair found again through every split
// point). Here X is kept as the closure of its *base* edges, those the other rules derive: a new
// base edge w -> t adds {t} ∪ X(t) to X(w), and a node's new X successors flow back along the base
// edges into it only, as in inclusion-based points-to solvers (the redundancy POCR's spanning trees
// remove, Lei et al. OOPSLA'22). A base edge already implied by the closure is dropped. The rules
// N -> X N and N -> N X with X transitive equal N -> Xbase N and N -> N Xbase, so they are joined
// on base edges too (every closure pair is a chain of recorded base edges).
// Fused indexed rules Y -> t_i X u_i (cfl.hpp) join a node's new X successors c with the u-edges
// leaving c and the t-edges entering the node that carry the same index.
#include <chrono>
#include <deque>
#include <tuple>
#include <unordered_map>

#include "algorithms/cfl.hpp"
#include "core/sparse_bitset.hpp"

namespace fg {

namespace {
using set = sparse_bitset;

struct use {
  int n, other;  // N -> s other (left) or N -> other s (right)
};

struct symbol {
  bool live = false, transitive = false, need_preds = false;
  std::vector<set> full, delta;
  std::vector<char> queued;
  std::vector<std::vector<vertex_t>> preds;       // need_preds: every w with (w, v) in the symbol
  std::vector<std::vector<vertex_t>> base_preds;  // transitive: the sources of base edges into v
  std::vector<int> unary;                         // N -> s
  std::vector<use> left, right;                   // N -> s C, N -> B s (joined on new pairs)
  std::vector<int> base_left, base_right;         // s transitive: N -> s N, N -> N s (joined on base edges)
  std::vector<int> fused;                         // indices of fused rules with s in the middle
};

struct fused_index {
  cfl_fused_rule rule;
  std::vector<std::vector<std::pair<vertex_t, vertex_t>>> u_out;  // node c: (d, index) of its u-edges
  std::unordered_map<std::uint64_t, std::vector<vertex_t>> t_in;   // (b, index): sources of t-edges into b
};

std::uint64_t key(vertex_t node, vertex_t index) { return std::uint64_t(std::uint32_t(node)) << 32 | std::uint32_t(index); }

class sets_solver {
 public:
  sets_solver(const cfl_grammar& g, const cfl_graph& gr) : g_(g), n_(std::size_t(gr.nodes)), sym_(g.names.size()) {
    for (std::size_t s = 0; s < sym_.size(); ++s) sym_[s].live = !g.indexed[s];
    for (const auto& r : g.rules)
      if (r.a >= 0 && r.lhs == r.a && r.lhs == r.b) sym_[std::size_t(r.lhs)].transitive = true;
    for (const auto& r : g.rules) classify(r);
    for (const cfl_fused_rule& f : fused_rules(g)) index_fused(gr, f);
    for (auto& s : sym_) {
      if (!s.live) continue;
      s.full.resize(n_), s.delta.resize(n_), s.queued.assign(n_, 0);
      if (s.need_preds) s.preds.resize(n_);
      if (s.transitive) s.base_preds.resize(n_);
    }
    for (std::size_t s = 0; s < sym_.size(); ++s)
      if (g.terminal[s] && !g.indexed[s])
        for (std::size_t j = 0; j < gr.src[s].size(); ++j) add_one(int(s), gr.src[s][j], gr.dst[s][j]);
    for (const auto& r : g.rules)  // ε: (v, v) for every node
      if (r.a < 0)
        for (vertex_t v = 0; v < vertex_t(n_); ++v) add_one(r.lhs, v, v);
  }

  std::int64_t run() {
    std::int64_t pops = 0;
    while (!bases_.empty() || !work_.empty()) {
      if (!bases_.empty()) {
        const auto [s, w, t] = bases_.front();
        bases_.pop_front();
        on_base(s, w, t);
        continue;
      }
      const auto [s, u] = work_.front();
      work_.pop_front();
      ++pops;
      symbol& y = sym_[std::size_t(s)];
      y.queued[std::size_t(u)] = 0;
      // the delta swaps with a cleared spare, so both keep their buffers (a moved-out delta made
      // the node's next one allocate from scratch: a fifth of the instructions on namd.peg)
      set d = std::move(spare_);
      d.clear();
      std::swap(d, y.delta[std::size_t(u)]);
      on_delta(s, u, d);
      spare_ = std::move(d);
    }
    return pops;
  }

  const set& pairs_of(int s, vertex_t u) const { return sym_[std::size_t(s)].full[std::size_t(u)]; }

 private:
  void classify(const cfl_grammar::rule& r) {
    if (r.a < 0 || g_.indexed[std::size_t(r.lhs)] || g_.indexed[std::size_t(r.a)]) return;  // ε; fused
    symbol& a = sym_[std::size_t(r.a)];
    if (r.b < 0) {
      if (r.a != r.lhs) a.unary.push_back(r.lhs);
      return;
    }
    symbol& b = sym_[std::size_t(r.b)];
    if (r.lhs == r.a && r.lhs == r.b) return;  // the closure itself
    if (a.transitive && r.b == r.lhs) {
      a.base_left.push_back(r.lhs);  // N -> X N
    } else {
      a.left.push_back({r.lhs, r.b});
    }
    if (b.transitive && r.a == r.lhs) {
      b.base_right.push_back(r.lhs);  // N -> N X
      sym_[std::size_t(r.lhs)].need_preds = true;
    } else {
      b.right.push_back({r.lhs, r.a});
      if (!(a.transitive && r.b == r.lhs)) a.need_preds = true;  // N -> X N walks X's base edges
    }
  }

  void index_fused(const cfl_graph& gr, const cfl_fused_rule& f) {
    fused_index x{f, std::vector<std::vector<std::pair<vertex_t, vertex_t>>>(n_), {}};
    const std::size_t t = std::size_t(f.t), u = std::size_t(f.u);
    for (std::size_t j = 0; j < gr.src[t].size(); ++j) x.t_in[key(gr.dst[t][j], gr.idx[t][j])].push_back(gr.src[t][j]);
    for (std::size_t j = 0; j < gr.src[u].size(); ++j) x.u_out[std::size_t(gr.src[u][j])].emplace_back(gr.dst[u][j], gr.idx[u][j]);
    sym_[std::size_t(f.x)].fused.push_back(int(fused_.size()));
    fused_.push_back(std::move(x));
  }

  // (w, t) for t in T into symbol s: base edges of a transitive s, plain pairs otherwise.
  void add(int s, vertex_t w, const set& T) {
    symbol& y = sym_[std::size_t(s)];
    if (!y.transitive) return close(s, w, T);
    const set cand = set::minus(T, y.full[std::size_t(w)]);
    cand.for_each([&](std::uint32_t t) { add_one(s, w, vertex_t(t)); });
  }

  void add_one(int s, vertex_t w, vertex_t t) {
    symbol& y = sym_[std::size_t(s)];
    if (!y.transitive || t == w) return close_one(s, w, t);
    if (y.full[std::size_t(w)].contains(std::uint32_t(t))) return;  // implied by the base edges
    y.base_preds[std::size_t(t)].push_back(w);
    close_one(s, w, t);
    close(s, w, y.full[std::size_t(t)]);
    if (!y.base_left.empty() || !y.base_right.empty()) bases_.emplace_back(s, w, t);
  }

  // The pairs (w, t), t in T, that s lacks: into its full set and its delta.
  void close(int s, vertex_t w, const set& T) {
    symbol& y = sym_[std::size_t(s)];
    if (!y.full[std::size_t(w)].unite(T, news_)) return;
    y.delta[std::size_t(w)].unite(news_);
    if (y.need_preds)
      for (const set::word& x : news_)
        for (std::uint64_t b = x.bits; b != 0; b &= b - 1) y.preds[x.index * 64 + unsigned(__builtin_ctzll(b))].push_back(w);
    queue(s, w);
  }

  void close_one(int s, vertex_t w, vertex_t t) {
    symbol& y = sym_[std::size_t(s)];
    if (!y.full[std::size_t(w)].insert(std::uint32_t(t))) return;
    y.delta[std::size_t(w)].insert(std::uint32_t(t));
    if (y.need_preds) y.preds[std::size_t(t)].push_back(w);
    queue(s, w);
  }

  void queue(int s, vertex_t w) {
    symbol& y = sym_[std::size_t(s)];
    if (!y.queued[std::size_t(w)]) y.queued[std::size_t(w)] = 1, work_.emplace_back(s, w);
  }

  void on_base(int s, vertex_t w, vertex_t t) {
    for (int n : sym_[std::size_t(s)].base_left) add(n, w, sym_[std::size_t(n)].full[std::size_t(t)]);
    for (int n : sym_[std::size_t(s)].base_right) {
      const auto& p = sym_[std::size_t(n)].preds[std::size_t(w)];
      for (std::size_t k = 0; k < p.size(); ++k) add_one(n, p[k], t);  // by index: add() may grow p
    }
  }

  void on_delta(int s, vertex_t u, const set& d) {
    symbol& y = sym_[std::size_t(s)];
    if (y.transitive) {
      const auto& bp = y.base_preds[std::size_t(u)];
      for (std::size_t k = 0; k < bp.size(); ++k) close(s, bp[k], d);
    }
    for (int n : y.unary) add(n, u, d);
    for (const use& l : y.left) d.for_each([&](std::uint32_t v) { add(l.n, u, sym_[std::size_t(l.other)].full[v]); });
    for (const use& r : y.right) {
      const symbol& b = sym_[std::size_t(r.other)];
      const bool base = b.transitive && r.n == s;  // N -> X N: X's base edges
      const auto& p = base ? b.base_preds[std::size_t(u)] : b.preds[std::size_t(u)];
      for (std::size_t k = 0; k < p.size(); ++k) add(r.n, p[k], d);
    }
    for (int f : y.fused) {
      const fused_index& x = fused_[std::size_t(f)];
      d.for_each([&](std::uint32_t c) {
        for (const auto& [dst, index] : x.u_out[c]) {
          const auto it = x.t_in.find(key(u, index));
          if (it == x.t_in.end()) continue;
          for (vertex_t a : it->second) add_one(x.rule.y, a, dst);
        }
      });
    }
  }

  const cfl_grammar& g_;
  std::size_t n_;
  std::vector<symbol> sym_;
  std::vector<fused_index> fused_;
  std::deque<std::pair<int, vertex_t>> work_;
  std::deque<std::tuple<int, vertex_t, vertex_t>> bases_;
  std::vector<set::word> news_;  // close()'s new words
  set spare_;                    // run()'s delta buffer
};
}  // namespace

cfl_result solve_cfl_sets(const cfl_grammar& g, const cfl_graph& gr, const cfl_options& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  sets_solver solver(g, gr);
  const std::int64_t pops = solver.run();
  cfl_result res;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  res.iterations = int(std::min<std::int64_t>(pops, 2147483647));
  for (std::size_t s = 0; s < g.names.size(); ++s) {
    offset_t c = 0;
    if (!g.indexed[s])
      for (vertex_t u = 0; u < gr.nodes; ++u) c += offset_t(solver.pairs_of(int(s), u).count());
    res.pairs.push_back(c);
  }
  for (int c : g.count) {
    res.counts.push_back(res.pairs[std::size_t(c)]);
    if (!opt.want_pairs) continue;
    auto& out = res.count_pairs.emplace_back();
    for (vertex_t u = 0; u < gr.nodes; ++u)
      solver.pairs_of(c, u).for_each([&](std::uint32_t v) { out.emplace_back(u, vertex_t(v)); });
  }
  if (opt.progress) opt.progress(res.iterations, res.counts.empty() ? 0 : res.counts[0], res.counts.empty() ? 0 : res.counts[0]);
  return res;
}

}  // namespace fg
