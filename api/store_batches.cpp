// fluxgraph::graph's batches: caller arrays (host or device, 32- or 64-bit ids) to store batches.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "api/store.hpp"
#include "core/memory.hpp"
#include "read/profile.hpp"

namespace fluxgraph::api {

using fg::device_space;
using fg::host_space;
using fg::pattern;

namespace {

constexpr bool device_is_host = !cuda_build;  // the CPU build's device memory is host memory

// n elements at p (in `where` memory) copied into a new array of space S.
template <class S, class T>
fg::array<T, S> copied(const T* p, std::size_t n, memory where) {
  if (where == memory::host || device_is_host) return fg::to_space<S>(p, n);
  fg::array<T, S> a(n);
  if constexpr (std::is_same_v<S, device_space>) fg::memory::copy_on_device(a.data(), p, n * sizeof(T));
  else fg::memory::copy_to_host(a.data(), p, n * sizeof(T));
  return a;
}

// Ids as the store's 32-bit ids, in space S. 64-bit ids are narrowed where they are (so device ids
// never visit the host); an id outside [0, max_id] is an error naming the batch and edge. Negative
// 32-bit ids pass: the store rejects them with the same message.
template <class S, class I>
fg::array<std::int32_t, S> ids(const I* p, std::size_t n, memory where, std::int64_t batch) {
  if constexpr (std::is_same_v<I, std::int32_t>) {
    return copied<S>(p, n, where);
  } else {
    auto bad = [batch](std::int64_t i, std::int64_t v) { return bad_id(batch, i, v); };
    if (where == memory::device && !device_is_host) {
      fg::array<std::int32_t, device_space> d(n);
      const std::int64_t first = narrow_ids_on_device(p, d.data(), n);
      if (first >= 0) {
        std::int64_t v = 0;
        fg::memory::copy_to_host(&v, p + first, sizeof v);
        throw bad(first, v);
      }
      if constexpr (std::is_same_v<S, device_space>) return d;
      else return fg::clone<host_space>(d);
    }
    std::vector<std::int32_t> h(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (p[i] < 0 || p[i] > max_id) throw bad(std::int64_t(i), p[i]);
      h[i] = std::int32_t(p[i]);
    }
    return fg::to_space<S>(h);
  }
}

// An insert that would make many more vertices than it has edges (one edge to id 2e8 made 2e8
// vertices, 25.6 GB of row table) is refused, naming its largest id: such ids want renumbering.
// Host ids only (a device batch's ids are not read on the host); below 2^20 vertices, or within
// 64 a new edge, a graph grows as asked.
template <class I>
void refuse_sparse_growth(const edge_span<I>& e, vertex_id n, std::int64_t batch) {
  constexpr std::int64_t floor = std::int64_t(1) << 20, per_edge = 64;
  std::int64_t top = -1, at = 0;
  for (std::size_t i = 0; i < e.size; ++i) {
    const std::int64_t v = std::max<std::int64_t>(e.src[i], e.dst[i]);
    if (v > top) top = v, at = std::int64_t(i);
  }
  const std::int64_t grown = top + 1;
  if (grown <= std::max<std::int64_t>(floor, n + per_edge * std::int64_t(e.size))) return;
  throw batch_error(batch, at, "vertex id " + std::to_string(top) + " would make " + std::to_string(grown) + " vertices for " +
                                   std::to_string(e.size) + " edge(s) (" + std::to_string(n) + " now): ids this sparse want "
                                   "renumbering (the default: graph_options::ids, Python Graph(renumber=True)), or resize(" +
                                   std::to_string(grown) + ") first if that many vertices are meant");
}
}  // namespace

template <class V, class S>
template <class I>
fg::coo_matrix<V, S> store<V, S>::batch(const edge_span<I>& e, bool values) const {
  if (e.size > 0 && (e.src == nullptr || e.dst == nullptr)) throw invalid_argument("a batch's src or dst is null");
  if (values && e.weight != nullptr && fg::is_pattern_v<V>)
    throw invalid_argument("weights given to an unweighted graph (make it with graph_options::weighted)");
  const std::int64_t number = g_.store().stats().batches + 1;
  fg::coo_matrix<V, S> c;
  c.nnz = e.size;
  c.row = ids<S>(e.src, e.size, e.where, number);
  c.col = ids<S>(e.dst, e.size, e.where, number);
  if (values && e.where == memory::host) refuse_sparse_growth(e, g_.num_vertices(), number);
  if constexpr (!fg::is_pattern_v<V>) {
    if (e.weight != nullptr && values) {
      c.val = copied<S>(e.weight, e.size, e.where);
    } else {
      c.val = fg::to_space<S>(std::vector<double>(e.size, 1.0));
    }
  }
  return c;
}

template <class V, class S>
template <class I>
batch_result store<V, S>::apply_ids(const edge_span<I>* ins, const edge_span<I>* del) {
  const fg::dcsr_stats before = g_.store().stats();
  std::optional<fg::coo_matrix<V, S>> in, out;
  if (ins) in = batch(*ins, true);
  if (del) out = batch(*del, false);
  if constexpr (fg::is_pattern_v<V>) {
    if (keep_last_) {  // a one-off PageRank pays nothing for keeping: the first batch after it does
      kept_ = std::make_unique<fg::dynamic_pagerank<S>>(kept_opt_);
      kept_->adopt(g_.store(), &in_pattern(), last_.score);
      keep_last_ = false;
    }
    if (kept_) kept_->before(g_.store(), in ? &*in : nullptr, out ? &*out : nullptr);
  }
  const fg::coo_matrix<V, S> none;
  g_.take(in ? *in : none, out ? *out : none, batch_order::deletes_first);
  follow(in ? &*in : nullptr, out ? &*out : nullptr);
  if constexpr (fg::is_pattern_v<V>) {
    try {
      if (kept_) kept_->after(g_.store());
    } catch (...) {
      kept_->invalidate();  // the store has the batch: the next PageRank starts over
      throw;
    }
  }
  const fg::dcsr_stats& after = g_.store().stats();
  batch_result r;
  r.batch = after.batches;
  r.inserted = after.entries_inserted - before.entries_inserted;
  r.deleted = after.entries_deleted - before.entries_deleted;
  r.vertices = g_.num_vertices();
  r.edges = g_.num_edges();
  return r;
}

// The in-edge copies take the batch the out-edge store just took: its arrays, reversed (the
// weighted copy's a copy of them, taken first).
template <class V, class S>
void store<V, S>::follow(fg::coo_matrix<V, S>* ins, fg::coo_matrix<V, S>* del) {
  if (!in_pattern_ && !in_weighted_) return;
  const fg::vertex_t n = g_.num_vertices();
  constexpr auto order = batch_order::deletes_first;
  if constexpr (!fg::is_pattern_v<V>) {
    if (in_weighted_) {
      auto wi = ins ? std::optional(fg::reversed<V>(fg::clone_coo<S>(*ins))) : std::nullopt;
      auto wd = del ? std::optional(fg::reversed<V>(fg::clone_coo<S>(*del))) : std::nullopt;
      fg::follow(in_weighted_, wi ? &*wi : nullptr, wd ? &*wd : nullptr, n, order);
    }
  }
  auto pi = ins ? std::optional(fg::reversed<pattern>(std::move(*ins))) : std::nullopt;
  auto pd = del ? std::optional(fg::reversed<pattern>(std::move(*del))) : std::nullopt;
  fg::follow(in_pattern_, pi ? &*pi : nullptr, pd ? &*pd : nullptr, n, order);
}

template <class V, class S>
void store<V, S>::resize(vertex_id n) {
  if (n < 0 || n > max_id + 1) throw invalid_argument("resize: " + std::to_string(n) + " vertices is out of range");
  if (n > g_.num_vertices()) keep_last_ = false;  // the last scores are of fewer vertices
  g_.grow(fg::vertex_t(n));
  if (in_pattern_) in_pattern_->grow(fg::vertex_t(n));
  if (in_weighted_) in_weighted_->grow(fg::vertex_t(n));
}

template <class V, class S>
defrag_decision store<V, S>::maybe_defragment(double reads) {
  return g_.maybe_defragment(reads, policy_);
}

#define FG_INSTANTIATE(V, S)                                                                        \
  template void store<V, S>::resize(vertex_id);                                                      \
  template defrag_decision store<V, S>::maybe_defragment(double);                                    \
  template batch_result store<V, S>::apply_ids(const edge_span<std::int32_t>*, const edge_span<std::int32_t>*); \
  template batch_result store<V, S>::apply_ids(const edge_span<std::int64_t>*, const edge_span<std::int64_t>*);
FG_API_FOR_EACH_STORE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fluxgraph::api
