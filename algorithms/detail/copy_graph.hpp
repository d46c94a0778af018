// The copy edges of an inclusion problem as the solvers with cycle collapse keep them on the host
// (algorithms/reference/pointsto_wave.cpp, algorithms/pointsto_bits.cpp): union-find over the nodes
// (every node of a cycle ends with the same pts, so one representative stands for the cycle) and
// successor lists, collapsed by Tarjan's SCCs into a DAG ordered topologically.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/types.hpp"

namespace fg::detail {

class copy_graph {
  struct no_op {
    void operator()(vertex_t) const noexcept {}
  };

 public:
  explicit copy_graph(std::size_t n) : rep_(n), succ_(n), dirty_(n, 1), has_in_(n, 0), mark_(n, 0) {
    for (std::size_t v = 0; v < n; ++v) rep_[v] = vertex_t(v);
  }
  std::size_t size() const noexcept { return rep_.size(); }
  bool is_rep(vertex_t v) const noexcept { return rep_[std::size_t(v)] == v; }

  vertex_t find(vertex_t v) {
    while (rep_[std::size_t(v)] != v) {
      rep_[std::size_t(v)] = rep_[std::size_t(rep_[std::size_t(v)])];  // path halving
      v = rep_[std::size_t(v)];
    }
    return v;
  }

  /// Marks on representatives for a caller's own test (collapse() uses them too, between calls):
  /// new_marks() clears them all at once, mark(v) marks find(v), marked(v) asks for find(v).
  void new_marks() { ++stamp_; }
  void mark(vertex_t v) { mark_[std::size_t(find(v))] = stamp_; }
  bool marked(vertex_t v) { return mark_[std::size_t(find(v))] == stamp_; }

  /// Successors of a representative: may repeat and may name nodes merged since (map by find()).
  const std::vector<vertex_t>& succ(vertex_t v) const { return succ_[std::size_t(v)]; }

  /// The edge find(a) -> find(b); false (and nothing added) when both are one node.
  bool add_edge(vertex_t a, vertex_t b) {
    a = find(a), b = find(b);
    if (a == b) return false;
    succ_[std::size_t(a)].push_back(b);
    dirty_[std::size_t(a)] = 1;
    has_in_[std::size_t(b)] = 1;
    return true;
  }

  /// Folds representative v into representative `into` (its edges move along).
  void merge(vertex_t into, vertex_t v) {
    rep_[std::size_t(v)] = into;
    auto& dst = succ_[std::size_t(into)];
    auto& src = succ_[std::size_t(v)];
    dst.insert(dst.end(), src.begin(), src.end());
    std::vector<vertex_t>().swap(src);
    has_in_[std::size_t(into)] |= has_in_[std::size_t(v)];
    dirty_[std::size_t(into)] = 1;
  }

  /// Merges every cycle (on_merge(into, v) after each node folded) and returns the representatives
  /// in topological order: first those no edge enters (their edges are never walked: on objdump the
  /// objects behind 40 M load edges), then Tarjan's SCCs, which come out in reverse order.
  /// on_done(v) is called for each representative once its successors are final and have had theirs
  /// (reverse topological order: a caller can compute heights there without another pass).
  template <class OnMerge, class OnDone = no_op>
  std::vector<vertex_t> collapse(OnMerge&& on_merge, OnDone&& on_done = {}) {
    tarjan t(size());
    std::vector<vertex_t> sources;
    normalise_dirty();
    for (std::size_t root = 0; root < size(); ++root) {
      if (rep_[root] != vertex_t(root) || t.index[root] >= 0) continue;
      if (!has_in_[root]) sources.push_back(vertex_t(root));
      else visit(vertex_t(root), t, on_merge, on_done);
    }
    for (vertex_t v : sources) on_done(v);
    sources.insert(sources.end(), t.order.rbegin(), t.order.rend());
    return sources;
  }

  /// The same for the part of the graph reachable from `roots` only: after edges into the roots
  /// (or rows merged into them), every new cycle passes through a root, and only the nodes handed
  /// to on_done can have gained objects. Late rounds of a solve touch a small part of the graph;
  /// this keeps their cost to that part.
  template <class OnMerge, class OnDone>
  void collapse_from(const std::vector<vertex_t>& roots, OnMerge&& on_merge, OnDone&& on_done) {
    tarjan t(size());
    normalise_dirty();
    for (vertex_t r : roots)
      if (const vertex_t v = find(r); t.index[std::size_t(v)] < 0) visit(v, t, on_merge, on_done);
  }

 private:
  struct tarjan {  // one collapse's Tarjan state
    explicit tarjan(std::size_t n) : index(n, -1), low(n, 0), on_stack(n, 0) {}
    std::vector<std::int32_t> index, low;
    std::vector<char> on_stack;
    std::vector<vertex_t> stack, order;  // order: SCC representatives, reverse topological
    struct frame {
      vertex_t v;
      std::size_t next;
    };
    std::vector<frame> call;
    std::int32_t counter = 0;
  };

  void normalise_dirty() {
    for (std::size_t v = 0; v < size(); ++v)
      if (rep_[v] == vertex_t(v) && dirty_[v]) normalise(vertex_t(v));
  }

  // Tarjan's SCCs from representative root (unvisited), iteratively: each SCC merges into its
  // root, is appended to t.order and handed to on_done.
  template <class OnMerge, class OnDone>
  void visit(vertex_t root, tarjan& t, OnMerge& on_merge, OnDone& on_done) {
    auto open = [&](vertex_t v) {
      t.index[std::size_t(v)] = t.low[std::size_t(v)] = t.counter++;
      t.stack.push_back(v), t.on_stack[std::size_t(v)] = 1;
      t.call.push_back({v, 0});
    };
    open(root);
    while (!t.call.empty()) {
      auto& f = t.call.back();
      const auto& s = succ_[std::size_t(f.v)];
      if (f.next < s.size()) {
        const vertex_t w = find(s[f.next++]);
        if (w == f.v) continue;
        if (t.index[std::size_t(w)] < 0) open(w);
        else if (t.on_stack[std::size_t(w)]) t.low[std::size_t(f.v)] = std::min(t.low[std::size_t(f.v)], t.index[std::size_t(w)]);
        continue;
      }
      const vertex_t v = f.v;
      t.call.pop_back();
      if (!t.call.empty()) t.low[std::size_t(t.call.back().v)] = std::min(t.low[std::size_t(t.call.back().v)], t.low[std::size_t(v)]);
      if (t.low[std::size_t(v)] != t.index[std::size_t(v)]) continue;
      bool cycle = false;
      for (;;) {
        const vertex_t w = t.stack.back();
        t.stack.pop_back(), t.on_stack[std::size_t(w)] = 0;
        if (w == v) break;
        merge(v, w), on_merge(v, w), cycle = true;
      }
      if (cycle) normalise(v);
      t.order.push_back(v);
      on_done(v);
    }
  }

  // Successors as representatives, without repeats or self-loops. Only lists that grew since: an
  // entry naming a node merged since is mapped by find() where it is read (sorting every list
  // every round was a sixth of the time on objdump).
  void normalise(vertex_t v) {
    dirty_[std::size_t(v)] = 0;
    auto& s = succ_[std::size_t(v)];
    ++stamp_;  // marks, not a sort: merged cycles' lists run to millions of entries
    mark_[std::size_t(v)] = stamp_;
    std::size_t kept = 0;
    for (vertex_t w : s) {
      w = find(w);
      if (mark_[std::size_t(w)] != stamp_) mark_[std::size_t(w)] = stamp_, s[kept++] = w;
    }
    s.resize(kept);
  }

  std::vector<vertex_t> rep_;  // union-find parents
  std::vector<std::vector<vertex_t>> succ_;
  std::vector<char> dirty_;   // succ_ grew since it was last normalised
  // An edge points into the node. Objects no store or copy reaches (functions, most of a program's
  // objects) are the sources of most load edges (o -> d for every o in pts(p)) and can be on no
  // cycle: the cycle search skips them (on objdump the walk over 40 M such edges was most of a round).
  std::vector<char> has_in_;
  std::vector<std::uint32_t> mark_;  // normalise()'s and the callers' marks, by stamp
  std::uint32_t stamp_ = 0;
};

/// The round loop of the solvers with cycle collapse: round() until it returns false (no new
/// edge); progress(round, new facts, facts) after each, from count_facts(). Returns the rounds.
template <class Round, class Count>
int solve_rounds(Round&& round, Count&& count_facts, const std::function<void(int, offset_t, offset_t)>& progress) {
  int rounds = 0;
  offset_t facts = 0;
  for (bool more = true; more;) {
    ++rounds;
    more = round();
    if (progress) {
      const offset_t now = count_facts();
      progress(rounds, now - facts, now);
      facts = now;
    }
  }
  return rounds;
}

}  // namespace fg::detail
