// The CPU solver of inclusion constraints: wave propagation (Pereira & Berlin, CGO'09) with
// difference propagation over hash-consed sparse bitmaps. Each round
//   1. collapses the copy graph's cycles (Tarjan; every node of a cycle ends with the same pts, so
//      one representative holds it: the collapse of Hardekopf & Lin's LCD/HCD, done for all cycles
//      at once) and orders the representatives topologically;
//   2. sends every node's new facts (pts minus what it sent before) to its successors, in that
//      order: one pass settles the whole acyclic graph;
//   3. runs the loads, stores and indirect calls on the facts their pointer gained since they last
//      ran, adding copy edges (a call's: actuals to the formals of each function it may reach); a
//      new edge a -> b carries what a sent already, the rest goes with the next wave. A pointer
//      whose load and store meet in one cycle merges its objects into that cycle instead.
// It stops when a round adds no edge. Objects in the sets keep their ids; only nodes merge.
// Sets are hash-consed (core/set_table.hpp): a node holds the id of its set, and the unions along
// the edges, most of them the same few unions again, are memoised. The copy edges are not kept in
// a set while solving (on objdump 43 M hash inserts were half the time): a repeated edge costs a
// memoised union, and result() counts the fixed point's edges from the solution.
// binutils 2.40 objdump (181 k lines, 1.6e5 constraints, 2.2e8 facts): 77 s before these changes,
// 0.95 s after (2 cores, one thread).
#include <algorithm>
#include <chrono>

#include "algorithms/detail/indirect_calls.hpp"
#include "algorithms/pointsto.hpp"
#include "core/set_table.hpp"

namespace fg {

namespace {

class wave_solver {
 public:
  explicit wave_solver(const inclusion_problem& p)
      : p_(p), n_(std::size_t(p.nodes)), rep_(n_), pts_(n_, 0), sent_(n_, 0), ran_(n_, 0), succ_(n_), loads_(n_), stores_(n_),
        calls_(detail::sites_by_callee(p)), fn_rows_(detail::function_rows(p)) {
    for (std::size_t v = 0; v < n_; ++v) rep_[v] = vertex_t(v);
    dirty_.assign(n_, 1);
    has_in_.assign(n_, 0);
    mark_.assign(n_, 0);
    field_.resize(p.stores.size());
    for (std::size_t f = 0; f < p.stores.size(); ++f) {
      const auto& s = p.stores[f];
      for (std::size_t j = 0; j < s.ptr.size(); ++j) stores_[std::size_t(s.ptr[j])].push_back({s.src[j], std::uint32_t(f)});
      if (s.field_node.empty()) continue;
      field_[f].resize(std::size_t(p.objects));
      for (std::size_t j = 0; j < s.field_node.size(); ++j) field_[f][std::size_t(s.field_obj[j])].push_back(s.field_node[j]);
    }
    for (std::size_t j = 0; j < p.load_dst.size(); ++j) loads_[std::size_t(p.load_ptr[j])].push_back(p.load_dst[j]);
    {
      std::vector<sparse_bitset> base(n_);
      for (std::size_t j = 0; j < p.base_node.size(); ++j) base[std::size_t(p.base_node[j])].insert(std::uint32_t(p.base_obj[j]));
      for (std::size_t v = 0; v < n_; ++v) pts_[v] = sets_.intern(std::move(base[v]));
    }
    for (std::size_t j = 0; j < p.copy_dst.size(); ++j) add_edge(p.copy_src[j], p.copy_dst[j]);
  }

  int solve(const std::function<void(int, offset_t, offset_t)>& progress) {
    int rounds = 0;
    bool more = true;
    offset_t facts = 0;
    while (more) {
      ++rounds;
      wave(collapse_cycles());
      more = run_complex();
      if (progress) {
        const offset_t now = count_facts();
        progress(rounds, now - facts, now);
        facts = now;
      }
    }
    return rounds;
  }

  inclusion_result result() {
    inclusion_result r;
    r.row_ptr.assign(n_ + 1, 0);
    for (std::size_t v = 0; v < n_; ++v) {
      sets_.get(pts_[std::size_t(find(vertex_t(v)))]).for_each([&](std::uint32_t o) { r.col.push_back(vertex_t(o)); });
      r.row_ptr[v + 1] = offset_t(r.col.size());
    }
    r.stats.facts = offset_t(r.col.size());
    r.stats.copy_edges = count_copy_edges(r);
    return r;
  }

 private:
  struct store_use {
    vertex_t src;
    std::uint32_t family;
  };

  offset_t count_facts() {  // every node's set, a cycle's once per member
    offset_t c = 0;
    for (std::size_t v = 0; v < n_; ++v) c += offset_t(sets_.count(pts_[std::size_t(find(vertex_t(v)))]));
    return c;
  }

  vertex_t find(vertex_t v) {
    while (rep_[std::size_t(v)] != v) {
      rep_[std::size_t(v)] = rep_[std::size_t(rep_[std::size_t(v)])];  // path halving
      v = rep_[std::size_t(v)];
    }
    return v;
  }

  // pts(b) ⊇ pts(a) for nodes a, b; false inside a collapsed cycle. It carries what a has sent so
  // far: the rest of pts(a) is a's next difference, which the next wave sends along every edge of a.
  // An edge may come again (a merged node runs its constraints on its whole set): normalise()
  // drops the repeat, and its union is a memo hit.
  bool add_edge(vertex_t a, vertex_t b) {
    a = find(a), b = find(b);
    if (a == b) return false;
    succ_[std::size_t(a)].push_back(b);
    dirty_[std::size_t(a)] = 1;
    has_in_[std::size_t(b)] = 1;
    pts_[std::size_t(b)] = sets_.unite(pts_[std::size_t(b)], sent_[std::size_t(a)]);
    return true;
  }

  // |E| at the fixed point, as the constraints name the nodes (what the matrix solvers count): per
  // destination the set of its sources, given and derived.
  offset_t count_copy_edges(const inclusion_result& r) {
    std::vector<sparse_bitset> from(n_);
    auto pts = [&](vertex_t v) -> const sparse_bitset& { return sets_.get(pts_[std::size_t(find(v))]); };
    for (std::size_t j = 0; j < p_.copy_dst.size(); ++j) from[std::size_t(p_.copy_dst[j])].insert(std::uint32_t(p_.copy_src[j]));
    for (std::size_t j = 0; j < p_.load_dst.size(); ++j) from[std::size_t(p_.load_dst[j])].unite(pts(p_.load_ptr[j]));
    for (std::size_t f = 0; f < p_.stores.size(); ++f) {
      const auto& s = p_.stores[f];
      for (std::size_t j = 0; j < s.ptr.size(); ++j)
        pts(s.ptr[j]).for_each([&](std::uint32_t o) {
          if (field_[f].empty()) from[o].insert(std::uint32_t(s.src[j]));
          else for (vertex_t d : field_[f][o]) from[std::size_t(d)].insert(std::uint32_t(s.src[j]));
        });
    }
    detail::resolved_call_edges(p_, r, [&](vertex_t a, vertex_t b) { from[std::size_t(b)].insert(std::uint32_t(a)); });
    offset_t c = 0;
    for (const sparse_bitset& x : from) c += offset_t(x.count());
    return c;
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

  void merge(vertex_t into, vertex_t v) {  // v's cycle partner: everything of v goes to `into`
    rep_[std::size_t(v)] = into;
    pts_[std::size_t(into)] = sets_.unite(pts_[std::size_t(into)], pts_[std::size_t(v)]);
    auto move_append = [](auto& dst, auto& src) {
      dst.insert(dst.end(), src.begin(), src.end());
      src.clear();
      src.shrink_to_fit();
    };
    move_append(succ_[std::size_t(into)], succ_[std::size_t(v)]);
    has_in_[std::size_t(into)] |= has_in_[std::size_t(v)];
    dirty_[std::size_t(into)] = 1;
    move_append(loads_[std::size_t(into)], loads_[std::size_t(v)]);
    move_append(stores_[std::size_t(into)], stores_[std::size_t(v)]);
    move_append(calls_[std::size_t(into)], calls_[std::size_t(v)]);
    pts_[std::size_t(v)] = set_table::empty_set;
    // the merged node sends and runs its constraints on everything again: its parts had sent
    // different sets to different successors
    sent_[std::size_t(into)] = sent_[std::size_t(v)] = set_table::empty_set;
    ran_[std::size_t(into)] = ran_[std::size_t(v)] = set_table::empty_set;
  }

  // Tarjan's SCCs over the representatives (iterative); merges each cycle and returns the
  // representatives in topological order (Tarjan finds SCCs in reverse topological order).
  std::vector<vertex_t> collapse_cycles() {
    for (std::size_t v = 0; v < n_; ++v)
      if (rep_[v] == vertex_t(v) && dirty_[v]) normalise(vertex_t(v));
    std::vector<std::int32_t> index(n_, -1), low(n_, 0);
    std::vector<char> on_stack(n_, 0);
    std::vector<vertex_t> stack, order;
    struct frame {
      vertex_t v;
      std::size_t next;
    };
    std::vector<frame> call;
    std::int32_t counter = 0;
    std::vector<vertex_t> sources;  // no edge into them: first in the order, their edges never walked
    for (std::size_t root = 0; root < n_; ++root) {
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
          merge(v, w), cycle = true;
        }
        if (cycle) normalise(v);
        order.push_back(v);
      }
    }
    sources.insert(sources.end(), order.rbegin(), order.rend());
    return sources;
  }

  void wave(const std::vector<vertex_t>& order) {
    for (vertex_t v : order) {
      maybe_compact();
      const std::size_t i = std::size_t(v);
      if (sent_[i] == pts_[i]) continue;
      const set_table::id delta = sets_.minus(pts_[i], sent_[i]);
      sent_[i] = pts_[i];
      for (vertex_t w : succ_[i]) {
        const std::size_t x = std::size_t(find(w));
        pts_[x] = sets_.unite(pts_[x], delta);
      }
    }
  }

  // Drops the sets no node holds once the table outgrows its bound (twice what was live at the last
  // compaction, 2^24 words at least). Called only where no set id is held outside pts_, sent_, ran_.
  void maybe_compact() {
    if (sets_.words() < compact_at_) return;
    std::vector<char> live(sets_.size(), 0);
    for (std::size_t v = 0; v < n_; ++v) live[pts_[v]] = live[sent_[v]] = live[ran_[v]] = 1;
    const std::vector<set_table::id> remap = sets_.compact(live);
    for (std::size_t v = 0; v < n_; ++v) pts_[v] = remap[pts_[v]], sent_[v] = remap[sent_[v]], ran_[v] = remap[ran_[v]];
    compact_at_ = std::max(compact_at_, 2 * sets_.words());
  }

  // A load d = *p and a store *p = s with d and s in one cycle (or one node): every object o that
  // p points to closes the cycle o -> d ~> s -> o, so it joins that cycle at once, without its
  // edges (the online form of Hardekopf & Lin's hybrid cycle detection, restricted to cycles it
  // knows are real, so the solution stays exact). `x = *p; *p = x` is everywhere in C.
  vertex_t cycle_through(std::size_t i) {
    if (loads_[i].empty() || stores_[i].empty()) return -1;
    ++stamp_;
    for (const store_use& s : stores_[i])
      if (field_[s.family].empty()) mark_[std::size_t(find(s.src))] = stamp_;
    for (vertex_t d : loads_[i])
      if (mark_[std::size_t(find(d))] == stamp_) return find(d);
    return -1;
  }

  bool run_complex() {
    bool added = false;
    for (std::size_t i = 0; i < n_; ++i) {
      if (rep_[i] != vertex_t(i) || (loads_[i].empty() && stores_[i].empty() && calls_[i].empty())) continue;
      maybe_compact();  // here, before `delta` below refers into the table
      if (ran_[i] == pts_[i]) continue;
      const sparse_bitset& delta = sets_.get(sets_.minus(pts_[i], ran_[i]));  // stable: a deque
      ran_[i] = pts_[i];
      if (const vertex_t c = cycle_through(i); c >= 0) {
        delta.for_each([&](std::uint32_t o) {
          const vertex_t a = find(c), b = find(vertex_t(o));
          if (a != b) merge(a, b), added = true;
        });
        if (rep_[i] != vertex_t(i)) continue;  // i merged too: its constraints run from the representative
      }
      delta.for_each([&](std::uint32_t o) {
        for (vertex_t d : loads_[i]) added |= add_edge(vertex_t(o), d);
        for (const store_use& s : stores_[i]) {
          if (field_[s.family].empty()) {
            added |= add_edge(s.src, vertex_t(o));
          } else {
            for (vertex_t d : field_[s.family][o]) added |= add_edge(s.src, d);
          }
        }
        for (std::uint32_t site : calls_[i])
          detail::call_edges(p_, fn_rows_, site, vertex_t(o), [&](vertex_t a, vertex_t b) { added |= add_edge(a, b); });
      });
    }
    return added;
  }

  const inclusion_problem& p_;
  std::size_t n_;
  std::vector<vertex_t> rep_;                 // union-find over nodes: a cycle's nodes share one
  set_table sets_;
  std::vector<set_table::id> pts_, sent_, ran_;  // pts; what went along the edges; what the loads/stores saw
  std::vector<std::vector<vertex_t>> succ_;   // copy edges out of a representative (may name merged nodes)
  std::vector<char> dirty_;                   // succ_ grew since it was last normalised
  // An edge points into the node. Objects no store or copy reaches (functions, most of a program's
  // objects) are the sources of most load edges (o -> d for every o in pts(p)) and can be on no
  // cycle: the cycle search skips them (on objdump the walk over 40 M such edges was most of a round).
  std::vector<char> has_in_;
  std::vector<std::uint32_t> mark_;           // cycle_through's marks, by stamp
  std::size_t compact_at_ = std::size_t(1) << 24;  // table words that trigger maybe_compact()
  std::uint32_t stamp_ = 0;
  std::vector<std::vector<vertex_t>> loads_;  // loads_[ptr]: dst of dst = *ptr
  std::vector<std::vector<store_use>> stores_;
  std::vector<std::vector<std::uint32_t>> calls_;  // calls_[callee]: indirect call sites through it
  std::vector<std::int32_t> fn_rows_;             // object -> function table row
  std::vector<std::vector<std::vector<vertex_t>>> field_;  // field_[f][o]: nodes a store of family f writes; empty: o
};

}  // namespace

inclusion_result solve_inclusion_wave(const inclusion_problem& p, const inclusion_options& opt) {
  p.check();
  const auto t0 = std::chrono::steady_clock::now();
  wave_solver s(p);
  const int rounds = s.solve(opt.progress);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  inclusion_result r = s.result();
  r.stats.iterations = rounds;
  r.stats.seconds = seconds;
  return r;
}

}  // namespace fg
