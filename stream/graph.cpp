// Engine graph: turns file edges into oriented batches for the store.
#include "stream/graph.hpp"

#include <chrono>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "read/profile.hpp"
#include "loaders/graph_file.hpp"

namespace fg {

template <class V, class S>
graph<V, S>::graph(orientation o, vertex_t vertices, const dcsr_config& cfg) : orient_(o), store_(cfg) {
  store_.resize(vertices, vertices);
}

template <class V, class S>
coo_matrix<V, S> graph<V, S>::oriented(const vertex_t* src, const vertex_t* dst, std::size_t n,
                                       const double* weight) const {
  const vertex_t* rows = orient_ == orientation::out ? src : dst;
  const vertex_t* cols = orient_ == orientation::out ? dst : src;
  // Straight from the caller's arrays into the batch (no host copy first: a stream's batches
  // pass here once each).
  coo_matrix<V, S> c;
  c.nnz = n;
  c.row = to_space<S>(rows, n);
  c.col = to_space<S>(cols, n);
  if constexpr (!is_pattern_v<V>) {
    std::vector<stored_t<V>> w(n, stored_t<V>(1));
    if (weight != nullptr) w.assign(weight, weight + n);
    c.val = to_space<S>(w);
  }
  return c;
}

template <class V, class S>
coo_matrix<V, S> graph<V, S>::batch(const edge_file& f, std::size_t first, std::size_t last) const {
  FG_EXPECTS(first <= last && last <= f.src.size(), "graph: edge range out of bounds");
  return oriented(f.src.data() + first, f.dst.data() + first, last - first,
                  f.weighted() ? f.weight.data() + first : nullptr);
}

template <class V, class S>
coo_matrix<V, S> graph<V, S>::batch(const std::vector<vertex_t>& src, const std::vector<vertex_t>& dst,
                                    const std::vector<double>& weight) const {
  FG_EXPECTS(src.size() == dst.size(), "graph: src and dst differ in length");
  FG_EXPECTS(weight.empty() || weight.size() == src.size(), "graph: weights and edges differ in length");
  return oriented(src.data(), dst.data(), src.size(), weight.empty() ? nullptr : weight.data());
}

template <class V, class S>
void graph<V, S>::insert(const edge_file& f, std::size_t first, std::size_t last) {
  store_.insert_batch(batch(f, first, last));
}

template <class V, class S>
void graph<V, S>::remove(const std::vector<vertex_t>& src, const std::vector<vertex_t>& dst) {
  store_.delete_batch(batch(src, dst));
}

template <class V, class S>
void graph<V, S>::apply(const edge_file& f, std::size_t first, std::size_t last, const std::vector<vertex_t>& del_src,
                        const std::vector<vertex_t>& del_dst) {
  store_.apply_batch(batch(f, first, last), batch(del_src, del_dst));
}

template <class V, class S>
void graph<V, S>::take(const coo_matrix<V, S>& ins, const coo_matrix<V, S>& del, batch_order order, batch_report* times) {
  batch_report ignored;
  batch_report& t = times ? *times : ignored;
  using clock_type = std::chrono::steady_clock;
  auto since = [](clock_type::time_point s) { return std::chrono::duration<double>(clock_type::now() - s).count(); };
  auto start = clock_type::now();
  if (order == batch_order::deletes_first && del.nnz > 0) {
    if (ins.nnz > 0) store_.apply_batch(ins, del);
    else store_.delete_batch(del);
    memory::synchronize();
    t.store_seconds = since(start);
    if (ins.nnz == 0) t.delete_seconds = t.store_seconds;
    return;
  }
  store_.insert_batch(ins);  // an empty insert batch is a no-op the store still counts
  memory::synchronize();
  t.insert_seconds = since(start);
  if (order == batch_order::inserts_then_deletes && del.nnz > 0) {
    start = clock_type::now();
    store_.delete_batch(del);
    memory::synchronize();
    t.delete_seconds = since(start);
  }
  t.store_seconds = t.insert_seconds + t.delete_seconds;
}

template <class V, class S>
defrag_decision graph<V, S>::maybe_defragment(double reads, const defrag_policy& policy) {
  // Nothing reads the store before the next batch: the measured mode keeps it whatever its shape,
  // so it is not profiled (the pass cost a third of a stream's time without per-batch reads).
  if (policy.mode == defrag_mode::measured && reads == 0) {
    defrag_decision d;
    d.reason = "keep: no reads expected before the next batch, so nothing to save";
    return d;
  }
  // The profile (one pass over the rows) gives segments per row and the unused share; none needs neither.
  matrix_profile p;
  if (policy.mode != defrag_mode::none) p = profile(store_);
  defrag_decision d = decide_defragment(policy, p, store_.needs_defragment(), reads);
  if (d.defragmented && d.by_size) store_.defragment(dcsr_layout::size_order);
  else if (d.defragmented) store_.defragment();
  return d;
}

#define FG_INSTANTIATE(V, S) template class graph<V, S>;
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE

}  // namespace fg
