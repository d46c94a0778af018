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
  template <class OnMerge>
  std::vector<vertex_t> collapse(OnMerge&& on_merge) {
    const std::size_t n = size();
    for (std::size_t v = 0; v < n; ++v)
      if (rep_[v] == vertex_t(v) && dirty_[v]) normalise(vertex_t(v));
    std::vector<std::int32_t> index(n, -1), low(n, 0);
    std::vector<char> on_stack(n, 0);
    std::vector<vertex_t> stack, order, sources;
    struct frame {
      vertex_t v;
      std::size_t next;
    };
    std::vector<frame> call;
    std::int32_t counter = 0;
    for (std::size_t root = 0; root < n; ++root) {
      if (rep_[root] != vertex_t(root) || index[root] >= 0) continue;
      if (!has_in_[root]) {
        sources.push_back(vertex_t(root));
        continue;
      }
      call.push_back({vertex_t(root), 0});
      index[root] = low[root] = counter++;
      stack.push_back(vertex_t(root)), on_stack[root] = 1;
      while (!call.empty()) {
        frame& f = call.back();
        const auto& s = succ_[std::size_t(f.v)];
        if (f.next < s.size()) {
          const vertex_t w = find(s[f.next++]);
          if (w == f.v) continue;
          if (index[std::size_t(w)] < 0) {
            index[std::size_t(w)] = low[std::size_t(w)] = counter++;
            stack.push_back(w), on_stack[std::size_t(w)] = 1;
            call.push_back({w, 0});
          } else if (on_stack[std::size_t(w)]) {
            low[std::size_t(f.v)] = std::min(low[std::size_t(f.v)], index[std::size_t(w)]);
          }
          continue;
        }
        const vertex_t v = f.v;
        call.pop_back();
        if (!call.empty()) low[std::size_t(call.back().v)] = std::min(low[std::size_t(call.back().v)], low[std::size_t(v)]);
        if (low[std::size_t(v)] != index[std::size_t(v)]) continue;
        bool cycle = false;
        for (;;) {
          const vertex_t w = stack.back();
          stack.pop_back(), on_stack[std::size_t(w)] = 0;
          if (w == v) break;
          merge(v, w), on_merge(v, w), cycle = true;
        }
        if (cycle) normalise(v);
        order.push_back(v);
      }
    }
    sources.insert(sources.end(), order.rbegin(), order.rend());
    return sources;
  }

 private:
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
