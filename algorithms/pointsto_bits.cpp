// The bit-row inclusion solver (pointsto.hpp: solve_inclusion_bits; what exec::device runs in the
// CUDA build): the wave solver's rounds (algorithms/reference/pointsto_wave.cpp) split between the
// host, which keeps the copy graph and its cycles, and the device, which keeps the sets as a dense
// bit matrix (algorithms/detail/pointsto_bits.hpp). Each round
//   1. host: collapses the copy graph's cycles (their rows are OR-ed into the representative's on
//      the device), giving each node its height (longest path to a sink) as Tarjan finishes it.
//      The first round walks the whole graph; later ones only what the new edges' heads and the
//      grown cycles reach (copy_graph::collapse_from): the rest has nothing new to carry;
//   2. device: one pass down the DAG, one launch per height, each node OR-ing its row into its
//      successors': the whole DAG settles in one wave (Su et al.'s CPU+GPU split, with Pereira &
//      Berlin's wave order in place of their worklist);
//   3. device: the loads, stores and indirect calls run on the objects their pointer gained since
//      they last ran. Objects that close a cycle the host knows (a load d = *p and a store *p = s
//      with d and s in one cycle) join it at once, on the host; the rest make candidate edges
//      between representatives, which go to the host sorted, without repeats and without the
//      edges made before.
// It stops when a round makes no new edge. binutils objdump (1.6e5 constraints, 2.2e8 facts): 43 M
// candidate edges over the run, 1.7e7 of them new, 8e5 once objects join their cycles at once;
// 0.16 s on the H200 (the matrix fixed point took 31.7 s). What is left is mostly the host's
// Tarjan over the ~7e4 nodes that each late round reaches (~6 ms a round, 15 rounds).
#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>

#include "algorithms/detail/copy_graph.hpp"
#include "algorithms/detail/pointsto_bits.hpp"
#include "algorithms/pointsto.hpp"
#include "core/memory.hpp"

namespace fg {

namespace {
using detail::bits::word;
template <class T>
using dev = array<T, device_space>;

// The problem's complex constraints as device units, and the tables their edges read.
struct unit_tables {
  std::vector<vertex_t> slot_node;  // slot -> the pointer node whose pts it runs on
  std::vector<std::vector<vertex_t>> slot_loads, slot_stores;  // per slot: d of d = *p, s of *p = s (no field map)
  dev<std::int32_t> slot, family;
  dev<std::uint8_t> kind, identity;
  dev<vertex_t> arg, object_of, field_node, c_result, c_args, f_ret, f_formals;
  dev<offset_t> field_ptr, c_arg_ptr, f_formal_ptr;
  dev<std::int32_t> fn_row;
  dev<offset_t> m_ptr;  // matched calls by callee node b
  dev<vertex_t> m_src, m_idx;

  unit_tables(const inclusion_problem& p, const std::vector<vertex_t>& objects, const detail::bits::matched_edges* m) {
    const detail::field_table fields = detail::field_rows(p);
    std::vector<std::int32_t> slot_of(std::size_t(p.nodes), -1), h_slot, h_family;
    std::vector<std::uint8_t> h_kind;
    std::vector<vertex_t> h_arg;
    auto unit = [&](vertex_t ptr, detail::bits::unit_kind k, vertex_t a, std::int32_t f) {
      std::int32_t& s = slot_of[std::size_t(ptr)];
      if (s < 0) s = std::int32_t(slot_node.size()), slot_node.push_back(ptr), slot_loads.emplace_back(), slot_stores.emplace_back();
      if (k == detail::bits::load) slot_loads[std::size_t(s)].push_back(a);
      if (k == detail::bits::store && fields.identity[std::size_t(f)]) slot_stores[std::size_t(s)].push_back(a);
      h_slot.push_back(s), h_kind.push_back(k), h_arg.push_back(a), h_family.push_back(f);
    };
    for (std::size_t j = 0; j < p.load_dst.size(); ++j) unit(p.load_ptr[j], detail::bits::load, p.load_dst[j], -1);
    for (std::size_t f = 0; f < p.stores.size(); ++f)
      for (std::size_t j = 0; j < p.stores[f].ptr.size(); ++j) unit(p.stores[f].ptr[j], detail::bits::store, p.stores[f].src[j], std::int32_t(f));
    for (std::size_t j = 0; j < p.icalls.callee.size(); ++j) unit(p.icalls.callee[j], detail::bits::call, vertex_t(j), -1);
    if (m != nullptr) {
      for (std::size_t j = 0; j < m->ret_src.size(); ++j) unit(m->ret_src[j], detail::bits::ret, m->ret_dst[j], m->ret_idx[j]);
      std::vector<offset_t> ptr(std::size_t(p.nodes) + 1, 0);  // the call edges by b, counting sort
      for (vertex_t b : m->call_dst) ++ptr[std::size_t(b) + 1];
      for (std::size_t v = 1; v < ptr.size(); ++v) ptr[v] += ptr[v - 1];
      std::vector<vertex_t> src(m->call_src.size()), idx(src.size());
      std::vector<offset_t> at(ptr.begin(), ptr.end() - 1);
      for (std::size_t j = 0; j < src.size(); ++j) {
        const auto k = std::size_t(at[std::size_t(m->call_dst[j])]++);
        src[k] = m->call_src[j], idx[k] = m->call_idx[j];
      }
      m_ptr = to_space<device_space>(ptr), m_src = to_space<device_space>(src), m_idx = to_space<device_space>(idx);
    }
    slot = to_space<device_space>(h_slot), family = to_space<device_space>(h_family);
    kind = to_space<device_space>(h_kind), arg = to_space<device_space>(h_arg);
    object_of = to_space<device_space>(objects);
    field_ptr = to_space<device_space>(fields.ptr), field_node = to_space<device_space>(fields.node);
    identity = to_space<device_space>(fields.identity);
    c_result = to_space<device_space>(p.icalls.result), c_args = to_space<device_space>(p.icalls.args);
    c_arg_ptr = to_space<device_space>(p.icalls.arg_ptr), f_ret = to_space<device_space>(p.functions.ret);
    f_formals = to_space<device_space>(p.functions.formals), f_formal_ptr = to_space<device_space>(p.functions.formal_ptr);
    fn_row = to_space<device_space>(detail::function_rows(p));
  }

  detail::bits::units_view units() const {
    return {slot.data(), kind.data(), arg.data(), family.data(), slot.size()};
  }
  detail::bits::tables_view tables(const vertex_t* rep, vertex_t objects) const {
    detail::call_table c{c_result.data(), c_args.data(), f_ret.data(), f_formals.data(), c_arg_ptr.data(), f_formal_ptr.data(),
                         fn_row.empty() ? nullptr : fn_row.data()};
    return {object_of.data(), rep, {field_ptr.data(), field_node.data(), identity.data(), objects}, c,
            {m_ptr.data(), m_src.data(), m_idx.data()}};
  }
};

class bit_solver {
 public:
  bit_solver(const inclusion_problem& p, const detail::bits::matched_edges* m) : p_(p), n_(std::size_t(p.nodes)), g_(n_), rep_(n_) {
    std::vector<std::int32_t> bit_of(std::size_t(p.objects), -1);
    for (vertex_t o : p.base_obj) bit_of[std::size_t(o)] = 0;
    for (std::size_t o = 0; o < bit_of.size(); ++o)
      if (bit_of[o] == 0) bit_of[o] = std::int32_t(objects_.size()), objects_.push_back(vertex_t(o));
    words_ = std::max<std::size_t>(1, (objects_.size() + 31) / 32);
    rows_ = dev<word>(n_ * words_);
    zero(rows_);
    std::vector<vertex_t> bits(p.base_obj.size());
    for (std::size_t j = 0; j < bits.size(); ++j) bits[j] = vertex_t(bit_of[std::size_t(p.base_obj[j])]);
    detail::bits::set_bits(rows_.data(), words_, to_space<device_space>(p.base_node).data(), to_space<device_space>(bits).data(),
                           bits.size());
    units_.emplace(p, objects_, m);
    ran_ = dev<word>(units_->slot_node.size() * words_);
    delta_ = dev<word>(ran_.size());
    zero(ran_);
    for (std::size_t j = 0; j < p.copy_dst.size(); ++j) g_.add_edge(p.copy_src[j], p.copy_dst[j]);
  }

  int solve(const std::function<void(int, offset_t, offset_t)>& progress) {
    return detail::solve_rounds(
        [&] {
          wave();
          return run_complex();
        },
        [&] { return count_facts(); }, progress);
  }

  inclusion_result result() {
    inclusion_result r;
    dev<offset_t> sizes(n_);
    detail::bits::row_sizes(rows_.data(), words_, rep_dev_.data(), vertex_t(n_), sizes.data());
    const std::vector<offset_t> s = to_vector(sizes);
    r.row_ptr.assign(n_ + 1, 0);
    for (std::size_t v = 0; v < n_; ++v) r.row_ptr[v + 1] = r.row_ptr[v] + s[v];
    const dev<offset_t> ptr = to_space<device_space>(r.row_ptr);
    dev<vertex_t> col(std::size_t(r.row_ptr.back()));
    detail::bits::row_objects(rows_.data(), words_, rep_dev_.data(), units_->object_of.data(), vertex_t(n_), ptr.data(), col.data());
    r.col = to_vector(col);
    r.stats.facts = r.row_ptr.back();
    r.stats.copy_edges = count_copy_edges(p_, r);
    return r;
  }

 private:
  // Steps 1 and 2: collapse, then one pass down the DAG. Each node collapse reaches gets its height
  // (longest path to a sink) as Tarjan finishes it, and its out-edges go into that height's
  // launch: a node pushes its row to its successors only after every node above it did.
  void wave() {
    std::vector<vertex_t> into, from;
    std::vector<std::vector<std::pair<vertex_t, vertex_t>>> by_height;  // edges by their source's height - 1
    std::vector<char> reached(n_, 0);
    std::vector<vertex_t> out;
    auto on_merge = [&](vertex_t a, vertex_t b) { into.push_back(a), from.push_back(b); };
    auto on_done = [&](vertex_t v) {
      std::int32_t h = 0;
      for (vertex_t w : g_.succ(v))
        if (const vertex_t x = g_.find(w); x != v) h = std::max(h, height_[std::size_t(x)] + 1), out.push_back(x);
      height_[std::size_t(v)] = h, reached[std::size_t(v)] = 1;
      if (h > 0 && by_height.size() < std::size_t(h)) by_height.resize(std::size_t(h));
      for (vertex_t x : out) by_height[std::size_t(h) - 1].push_back({v, x});
      out.clear();
    };
    if (waved_) g_.collapse_from(seeds_, on_merge, on_done);
    else g_.collapse(on_merge, on_done);
    waved_ = true;
    apply_merges(into, from);
    std::vector<vertex_t> src, dst;  // first the new edges from settled nodes, then by height, highest first
    std::vector<std::size_t> begin{0};
    for (auto [a, b] : new_edges_)
      if (a = rep_[std::size_t(a)], b = rep_[std::size_t(b)]; a != b && !reached[std::size_t(a)]) src.push_back(a), dst.push_back(b);
    seeds_.clear(), new_edges_.clear();
    for (std::size_t h = by_height.size(); h-- > 0;) {
      if (src.size() > begin.back()) begin.push_back(src.size());
      for (auto [a, b] : by_height[h]) src.push_back(a), dst.push_back(b);
    }
    if (src.size() > begin.back()) begin.push_back(src.size());
    const dev<vertex_t> s = to_space<device_space>(src), d = to_space<device_space>(dst);
    for (std::size_t l = 0; l + 1 < begin.size(); ++l)
      detail::bits::push_edges(rows_.data(), words_, s.data() + begin[l], d.data() + begin[l], begin[l + 1] - begin[l]);
  }

  // Each node folded into another (from[i] into into[i], in order) gives its row to its final
  // representative: a chain a <- b <- c reads no row that this call writes.
  void apply_merges(std::vector<vertex_t>& into, const std::vector<vertex_t>& from) {
    if (!into.empty()) {
      for (vertex_t& v : into) v = g_.find(v);
      detail::bits::or_rows(rows_.data(), words_, to_space<device_space>(into).data(), to_space<device_space>(from).data(),
                            into.size());
    }
    if (!into.empty() || rep_dev_.empty()) {
      for (std::size_t v = 0; v < n_; ++v) rep_[v] = g_.find(vertex_t(v));
      rep_dev_ = to_space<device_space>(rep_);
    }
  }

  // Objects that close a known cycle join it at once (pointsto_wave.cpp's cycle_through, for the
  // slots of one representative together): a load d = *p and a store *p = s with d and s in one
  // cycle c make o -> d ~> s -> o a cycle for every o in pts(p), so o merges into c and its edges
  // are never made (on objdump they were most of the 1.7e7 edges the host saw).
  // True when an object merged: the cycle's row grew, which the next wave must carry on even when
  // no edge is new (every edge of the merged objects became a self-loop).
  // active: the slots whose delta is not empty (only their representatives' groups are tested).
  bool cycle_objects(const std::vector<std::uint8_t>& active) {
    const unit_tables& u = *units_;
    g_.new_marks();
    for (std::size_t s = 0; s < u.slot_node.size(); ++s)
      if (active[s]) g_.mark(u.slot_node[s]);
    std::vector<std::pair<vertex_t, std::int32_t>> by;  // (representative, slot) of those groups' slots with loads or stores
    for (std::size_t s = 0; s < u.slot_node.size(); ++s)
      if ((!u.slot_loads[s].empty() || !u.slot_stores[s].empty()) && g_.marked(u.slot_node[s]))
        by.push_back({rep_[std::size_t(u.slot_node[s])], std::int32_t(s)});
    std::sort(by.begin(), by.end());
    std::vector<vertex_t> slots, cycle;  // slots whose delta objects join `cycle`
    for (std::size_t i = 0, j; i < by.size(); i = j) {
      for (j = i; j < by.size() && by[j].first == by[i].first;) ++j;
      g_.new_marks();
      for (std::size_t k = i; k < j; ++k)
        for (vertex_t src : u.slot_stores[std::size_t(by[k].second)]) g_.mark(src);
      vertex_t c = -1;
      for (std::size_t k = i; k < j && c < 0; ++k)
        for (vertex_t d : u.slot_loads[std::size_t(by[k].second)])
          if (g_.marked(d)) c = g_.find(d);
      if (c >= 0)
        for (std::size_t k = i; k < j; ++k)
          if (active[std::size_t(by[k].second)]) slots.push_back(by[k].second), cycle.push_back(c);
    }
    if (slots.empty()) return false;
    dev<word> rows(slots.size() * words_);
    detail::bits::gather_rows(delta_.data(), words_, to_space<device_space>(slots).data(), slots.size(), rows.data());
    const std::vector<word> h = to_vector(rows);
    std::vector<vertex_t> into, from;
    for (std::size_t i = 0; i < slots.size(); ++i)
      for (std::size_t w = 0; w < words_; ++w)
        for (word x = h[i * words_ + w]; x != 0; x &= x - 1) {
          const vertex_t a = g_.find(cycle[i]), b = g_.find(objects_[w * 32 + std::size_t(detail::bits::lowest_bit(x))]);
          if (a != b) g_.merge(a, b), into.push_back(a), from.push_back(b), seeds_.push_back(a);
        }
    apply_merges(into, from);
    return !into.empty();
  }

  // Step 3: the complex constraints; true when they made an edge the graph did not have or merged
  // an object into a cycle.
  bool run_complex() {
    const std::vector<vertex_t>& slots = units_->slot_node;
    std::vector<vertex_t> slot_row(slots.size());
    for (std::size_t s = 0; s < slots.size(); ++s) slot_row[s] = rep_[std::size_t(slots[s])];
    dev<std::uint8_t> active(slots.size());
    zero(active);
    if (!detail::bits::take_deltas(rows_.data(), words_, to_space<device_space>(slot_row).data(), slots.size(), ran_.data(),
                                   delta_.data(), active.data()))
      return false;
    const bool merged = cycle_objects(to_vector(active));
    const detail::bits::units_view u = units_->units();
    const detail::bits::tables_view t = units_->tables(rep_dev_.data(), p_.objects);
    const auto most = std::size_t(detail::bits::count_edges(u, t, delta_.data(), words_));
    if (most == 0) return merged;
    if (keys_.size() < most) keys_ = dev<std::uint64_t>(std::max(most, 2 * keys_.size()));
    const std::size_t m = detail::bits::emit_edges(u, t, delta_.data(), words_, keys_.data());
    bool added = merged;
    for (std::uint64_t k : detail::bits::fresh_edges(keys_, m, known_)) {
      const vertex_t a = vertex_t(k >> 32), b = vertex_t(k & 0xffffffffu);
      if (g_.add_edge(a, b)) added = true, seeds_.push_back(b), new_edges_.push_back({a, b});
    }
    return added;
  }

  offset_t count_facts() {
    dev<offset_t> sizes(n_);
    detail::bits::row_sizes(rows_.data(), words_, rep_dev_.data(), vertex_t(n_), sizes.data());
    offset_t c = 0;
    for (offset_t x : to_vector(sizes)) c += x;
    return c;
  }

  const inclusion_problem& p_;
  std::size_t n_;
  detail::copy_graph g_;
  std::vector<vertex_t> objects_;     // bit -> object id (the objects some base fact names, in order)
  std::size_t words_ = 1;             // per row
  dev<word> rows_, ran_, delta_;      // pts per node (a representative's row is its cycle's); per slot
  std::vector<vertex_t> rep_;         // find() of every node, as of the last collapse
  dev<vertex_t> rep_dev_;
  std::optional<unit_tables> units_;
  dev<std::uint64_t> keys_, known_;   // candidate edges; every edge made so far (sorted)
  // What changed since the last wave: the first wave runs over the whole graph, the later ones
  // over what the new edges' heads and the grown cycles reach (the rest is settled).
  bool waved_ = false;
  std::vector<std::int32_t> height_ = std::vector<std::int32_t>(n_, 0);  // as of the wave that last reached the node
  std::vector<vertex_t> seeds_;
  std::vector<std::pair<vertex_t, vertex_t>> new_edges_;
};

}  // namespace

namespace {
inclusion_result solve_bits(const inclusion_problem& p, const detail::bits::matched_edges* m, const inclusion_options& opt) {
  p.check();
  memory::reset_peak();
  const auto t0 = std::chrono::steady_clock::now();
  bit_solver s(p, m);
  const int rounds = s.solve(opt.progress);
  memory::synchronize();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  inclusion_result r = s.result();
  r.stats.iterations = rounds;
  r.stats.seconds = seconds;
  r.stats.peak_bytes = memory::peak_bytes();
  return r;
}
}  // namespace

inclusion_result solve_inclusion_bits(const inclusion_problem& p, const inclusion_options& opt) { return solve_bits(p, nullptr, opt); }

inclusion_result detail::bits::solve_matched(const inclusion_problem& p, const matched_edges& m, const inclusion_options& opt) {
  FG_EXPECTS(p.objects == p.nodes, "solve_matched: objects must be the nodes");
  const auto in = [&](const std::vector<vertex_t>& v) {
    return std::all_of(v.begin(), v.end(), [&](vertex_t x) { return x >= 0 && x < p.nodes; });
  };
  FG_EXPECTS(m.ret_src.size() == m.ret_dst.size() && m.ret_src.size() == m.ret_idx.size() &&
                 m.call_src.size() == m.call_dst.size() && m.call_src.size() == m.call_idx.size() && in(m.ret_src) &&
                 in(m.ret_dst) && in(m.call_src) && in(m.call_dst),
             "solve_matched: edge lists of different lengths or a node out of range");
  return solve_bits(p, &m, opt);
}

}  // namespace fg
