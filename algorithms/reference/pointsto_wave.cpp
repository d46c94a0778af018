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

#include "algorithms/detail/copy_graph.hpp"
#include "algorithms/detail/indirect_calls.hpp"
#include "algorithms/pointsto.hpp"
#include "core/set_table.hpp"

namespace fg {

namespace {

class wave_solver {
 public:
  explicit wave_solver(const inclusion_problem& p)
      : p_(p), n_(std::size_t(p.nodes)), g_(n_), pts_(n_, 0), sent_(n_, 0), ran_(n_, 0), loads_(n_), stores_(n_),
        calls_(detail::sites_by_callee(p)), fn_rows_(detail::function_rows(p)),
        call_tab_(detail::host_call_table(p, fn_rows_)) {
    fields_ = detail::field_rows(p);
    fv_ = detail::host_field_view(fields_, p.objects);
    for (std::size_t f = 0; f < p.stores.size(); ++f) {
      const auto& s = p.stores[f];
      for (std::size_t j = 0; j < s.ptr.size(); ++j) stores_[std::size_t(s.ptr[j])].push_back({s.src[j], std::uint32_t(f)});
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
    return detail::solve_rounds(
        [&] {
          wave(g_.collapse([&](vertex_t into, vertex_t v) { absorb(into, v); }));
          return run_complex();
        },
        [&] { return count_facts(); }, progress);
  }

  inclusion_result result() {
    inclusion_result r;
    r.row_ptr.assign(n_ + 1, 0);
    for (std::size_t v = 0; v < n_; ++v) {
      sets_.get(pts_[std::size_t(g_.find(vertex_t(v)))]).for_each([&](std::uint32_t o) { r.col.push_back(vertex_t(o)); });
      r.row_ptr[v + 1] = offset_t(r.col.size());
    }
    r.stats.facts = offset_t(r.col.size());
    r.stats.copy_edges = count_copy_edges(p_, r);
    return r;
  }

 private:
  struct store_use {
    vertex_t src;
    std::uint32_t family;
  };

  offset_t count_facts() {  // every node's set, a cycle's once per member
    offset_t c = 0;
    for (std::size_t v = 0; v < n_; ++v) c += offset_t(sets_.count(pts_[std::size_t(g_.find(vertex_t(v)))]));
    return c;
  }

  // pts(b) ⊇ pts(a) for nodes a, b; false inside a collapsed cycle. It carries what a has sent so
  // far: the rest of pts(a) is a's next difference, which the next wave sends along every edge of a.
  // An edge may come again (a merged node runs its constraints on its whole set): normalise()
  // drops the repeat, and its union is a memo hit.
  bool add_edge(vertex_t a, vertex_t b) {
    a = g_.find(a), b = g_.find(b);
    if (!g_.add_edge(a, b)) return false;
    pts_[std::size_t(b)] = sets_.unite(pts_[std::size_t(b)], sent_[std::size_t(a)]);
    return true;
  }

  void merge(vertex_t into, vertex_t v) {  // v's cycle partner: everything of v goes to `into`
    g_.merge(into, v);
    absorb(into, v);
  }

  void absorb(vertex_t into, vertex_t v) {  // the sets and constraints of v, just merged into `into`
    pts_[std::size_t(into)] = sets_.unite(pts_[std::size_t(into)], pts_[std::size_t(v)]);
    auto move_append = [](auto& dst, auto& src) {
      dst.insert(dst.end(), src.begin(), src.end());
      src.clear();
      src.shrink_to_fit();
    };
    move_append(loads_[std::size_t(into)], loads_[std::size_t(v)]);
    move_append(stores_[std::size_t(into)], stores_[std::size_t(v)]);
    move_append(calls_[std::size_t(into)], calls_[std::size_t(v)]);
    pts_[std::size_t(v)] = set_table::empty_set;
    // the merged node sends and runs its constraints on everything again: its parts had sent
    // different sets to different successors
    sent_[std::size_t(into)] = sent_[std::size_t(v)] = set_table::empty_set;
    ran_[std::size_t(into)] = ran_[std::size_t(v)] = set_table::empty_set;
  }

  void wave(const std::vector<vertex_t>& order) {
    for (vertex_t v : order) {
      maybe_compact();
      const std::size_t i = std::size_t(v);
      if (sent_[i] == pts_[i]) continue;
      const set_table::id delta = sets_.minus(pts_[i], sent_[i]);
      sent_[i] = pts_[i];
      for (vertex_t w : g_.succ(v)) {
        const std::size_t x = std::size_t(g_.find(w));
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
    g_.new_marks();
    for (const store_use& s : stores_[i])
      if (fv_.identity[s.family]) g_.mark(s.src);
    for (vertex_t d : loads_[i])
      if (g_.marked(d)) return g_.find(d);
    return -1;
  }

  bool run_complex() {
    bool added = false;
    for (std::size_t i = 0; i < n_; ++i) {
      if (!g_.is_rep(vertex_t(i)) || (loads_[i].empty() && stores_[i].empty() && calls_[i].empty())) continue;
      maybe_compact();  // here, before `delta` below refers into the table
      if (ran_[i] == pts_[i]) continue;
      const sparse_bitset& delta = sets_.get(sets_.minus(pts_[i], ran_[i]));  // stable: a deque
      ran_[i] = pts_[i];
      if (const vertex_t c = cycle_through(i); c >= 0) {
        delta.for_each([&](std::uint32_t o) {
          const vertex_t a = g_.find(c), b = g_.find(vertex_t(o));
          if (a != b) merge(a, b), added = true;
        });
        if (!g_.is_rep(vertex_t(i))) continue;  // i merged too: its constraints run from the representative
      }
      delta.for_each([&](std::uint32_t o) {
        for (vertex_t d : loads_[i]) added |= add_edge(vertex_t(o), d);
        auto edge = [&](vertex_t a, vertex_t b) { added |= add_edge(a, b); };
        for (const store_use& s : stores_[i]) detail::store_edges(fv_, s.family, s.src, vertex_t(o), edge);
        for (std::uint32_t site : calls_[i]) detail::call_edges(call_tab_, site, vertex_t(o), edge);
      });
    }
    return added;
  }

  const inclusion_problem& p_;
  std::size_t n_;
  detail::copy_graph g_;                      // union-find over nodes and the edges between representatives
  set_table sets_;
  std::vector<set_table::id> pts_, sent_, ran_;  // pts; what went along the edges; what the loads/stores saw
  std::size_t compact_at_ = std::size_t(1) << 24;  // table words that trigger maybe_compact()
  std::vector<std::vector<vertex_t>> loads_;  // loads_[ptr]: dst of dst = *ptr
  std::vector<std::vector<store_use>> stores_;
  std::vector<std::vector<std::uint32_t>> calls_;  // calls_[callee]: indirect call sites through it
  std::vector<std::int32_t> fn_rows_;             // object -> function table row
  detail::call_table call_tab_;                   // the call tables, fn_rows_ among them
  detail::field_table fields_;                    // the stores' field maps
  detail::field_view fv_;
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
