// The CPU solver of inclusion constraints: wave propagation (Pereira & Berlin, CGO'09) with
// difference propagation over sparse bitmaps. Each round
//   1. collapses the copy graph's cycles (Tarjan; every node of a cycle ends with the same pts, so
//      one representative holds it: the collapse of Hardekopf & Lin's LCD/HCD, done for all cycles
//      at once) and orders the representatives topologically;
//   2. sends every node's new facts (pts minus what it sent before) to its successors, in that
//      order: one pass settles the whole acyclic graph;
//   3. runs the loads, stores and indirect calls on the facts their pointer gained since they last
//      ran, adding copy edges (a call's: actuals to the formals of each function it may reach); a new edge a -> b carries what a sent already, the rest goes with the next wave.
// It stops when a round adds no edge. Objects in the sets keep their ids; only nodes merge.
#include <algorithm>
#include <chrono>

#include "algorithms/detail/indirect_calls.hpp"
#include "algorithms/pointsto.hpp"
#include "core/sparse_bitset.hpp"
#include "storage/edge_set.hpp"

namespace fg {

namespace {

class wave_solver {
 public:
  explicit wave_solver(const inclusion_problem& p)
      : p_(p), n_(std::size_t(p.nodes)), rep_(n_), pts_(n_), sent_(n_), ran_(n_), succ_(n_), loads_(n_), stores_(n_),
        calls_(detail::sites_by_callee(p)), fn_rows_(detail::function_rows(p)) {
    for (std::size_t v = 0; v < n_; ++v) rep_[v] = vertex_t(v);
    field_.resize(p.stores.size());
    for (std::size_t f = 0; f < p.stores.size(); ++f) {
      const auto& s = p.stores[f];
      for (std::size_t j = 0; j < s.ptr.size(); ++j) stores_[std::size_t(s.ptr[j])].push_back({s.src[j], std::uint32_t(f)});
      if (s.field_node.empty()) continue;
      field_[f].resize(std::size_t(p.objects));
      for (std::size_t j = 0; j < s.field_node.size(); ++j) field_[f][std::size_t(s.field_obj[j])].push_back(s.field_node[j]);
    }
    for (std::size_t j = 0; j < p.load_dst.size(); ++j) loads_[std::size_t(p.load_ptr[j])].push_back(p.load_dst[j]);
    for (std::size_t j = 0; j < p.base_node.size(); ++j) pts_[std::size_t(p.base_node[j])].insert(std::uint32_t(p.base_obj[j]));
    for (std::size_t j = 0; j < p.copy_dst.size(); ++j) add_edge(p.copy_src[j], p.copy_dst[j]);
  }

  int solve(const std::function<void(int, offset_t, offset_t)>& progress) {
    int rounds = 0;
    bool more = true;
    offset_t facts = 0;
    while (more) {
      ++rounds;
      const std::vector<vertex_t> order = collapse_cycles();
      wave(order);
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
      const sparse_bitset& s = pts_[std::size_t(find(vertex_t(v)))];
      s.for_each([&](std::uint32_t o) { r.col.push_back(vertex_t(o)); });
      r.row_ptr[v + 1] = offset_t(r.col.size());
    }
    r.stats.facts = offset_t(r.col.size());
    r.stats.copy_edges = offset_t(edges_.size());
    return r;
  }

 private:
  struct store_use {
    vertex_t src;
    std::uint32_t family;
  };

  offset_t count_facts() {  // every node's set, a cycle's once per member
    offset_t c = 0;
    for (std::size_t v = 0; v < n_; ++v) c += offset_t(pts_[std::size_t(find(vertex_t(v)))].count());
    return c;
  }

  vertex_t find(vertex_t v) {
    while (rep_[std::size_t(v)] != v) {
      rep_[std::size_t(v)] = rep_[std::size_t(rep_[std::size_t(v)])];  // path halving
      v = rep_[std::size_t(v)];
    }
    return v;
  }

  // pts(b) ⊇ pts(a) for nodes a, b (as the constraints name them: the set counts the copy relation
  // the matrix solvers build); true when the edge is new. Between representatives it carries what
  // a has sent so far: the rest of pts(a) is a's next difference, which the next wave sends along
  // every edge of a.
  bool add_edge(vertex_t a, vertex_t b) {
    if (!edges_.insert(a, b)) return false;
    a = find(a), b = find(b);
    if (a == b) return true;
    succ_[std::size_t(a)].push_back(b);
    pts_[std::size_t(b)].unite(sent_[std::size_t(a)]);
    return true;
  }

  // Successors as representatives, without repeats or self-loops.
  void normalise(vertex_t v) {
    auto& s = succ_[std::size_t(v)];
    for (vertex_t& w : s) w = find(w);
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    s.erase(std::remove(s.begin(), s.end(), v), s.end());
  }

  void merge(vertex_t into, vertex_t v) {  // v's cycle partner: everything of v goes to `into`
    rep_[std::size_t(v)] = into;
    pts_[std::size_t(into)].unite(pts_[std::size_t(v)]);
    auto move_append = [](auto& dst, auto& src) {
      dst.insert(dst.end(), src.begin(), src.end());
      src.clear();
      src.shrink_to_fit();
    };
    move_append(succ_[std::size_t(into)], succ_[std::size_t(v)]);
    move_append(loads_[std::size_t(into)], loads_[std::size_t(v)]);
    move_append(stores_[std::size_t(into)], stores_[std::size_t(v)]);
    move_append(calls_[std::size_t(into)], calls_[std::size_t(v)]);
    pts_[std::size_t(v)].clear();
    // the merged node sends and runs its constraints on everything again: its parts had sent
    // different sets to different successors
    sent_[std::size_t(into)].clear(), sent_[std::size_t(v)].clear();
    ran_[std::size_t(into)].clear(), ran_[std::size_t(v)].clear();
  }

  // Tarjan's SCCs over the representatives (iterative); merges each cycle and returns the
  // representatives in topological order (Tarjan finds SCCs in reverse topological order).
  std::vector<vertex_t> collapse_cycles() {
    for (std::size_t v = 0; v < n_; ++v)
      if (rep_[v] == vertex_t(v)) normalise(vertex_t(v));
    std::vector<std::int32_t> index(n_, -1), low(n_, 0);
    std::vector<char> on_stack(n_, 0);
    std::vector<vertex_t> stack, order;
    struct frame {
      vertex_t v;
      std::size_t next;
    };
    std::vector<frame> call;
    std::int32_t counter = 0;
    for (std::size_t root = 0; root < n_; ++root) {
      if (rep_[root] != vertex_t(root) || index[root] >= 0) continue;
      call.push_back({vertex_t(root), 0});
      index[root] = low[root] = counter++;
      stack.push_back(vertex_t(root)), on_stack[root] = 1;
      while (!call.empty()) {
        frame& f = call.back();
        const auto& s = succ_[std::size_t(f.v)];
        if (f.next < s.size()) {
          const vertex_t w = s[f.next++];
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
    std::reverse(order.begin(), order.end());
    return order;
  }

  void wave(const std::vector<vertex_t>& order) {
    for (vertex_t v : order) {
      const std::size_t i = std::size_t(v);
      if (sent_[i].words() == pts_[i].words() && sent_[i] == pts_[i]) continue;
      const sparse_bitset delta = sparse_bitset::minus(pts_[i], sent_[i]);
      sent_[i] = pts_[i];
      for (vertex_t w : succ_[i]) pts_[std::size_t(find(w))].unite(delta);
    }
  }

  bool run_complex() {
    bool added = false;
    for (std::size_t i = 0; i < n_; ++i) {
      if (rep_[i] != vertex_t(i) || (loads_[i].empty() && stores_[i].empty() && calls_[i].empty())) continue;
      if (ran_[i].words() == pts_[i].words() && ran_[i] == pts_[i]) continue;
      const sparse_bitset delta = sparse_bitset::minus(pts_[i], ran_[i]);
      ran_[i] = pts_[i];
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
  std::vector<sparse_bitset> pts_, sent_, ran_;  // pts; what went along the edges; what the loads/stores saw
  std::vector<std::vector<vertex_t>> succ_;   // copy edges out of a representative (may name merged nodes)
  std::vector<std::vector<vertex_t>> loads_;  // loads_[ptr]: dst of dst = *ptr
  std::vector<std::vector<store_use>> stores_;
  std::vector<std::vector<std::uint32_t>> calls_;  // calls_[callee]: indirect call sites through it
  std::vector<std::int32_t> fn_rows_;             // object -> function table row
  std::vector<std::vector<std::vector<vertex_t>>> field_;  // field_[f][o]: nodes a store of family f writes; empty: o
  pair_hash_set edges_;                            // (a, b) of every copy edge, given or derived
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
