// Engine graph: turns file edges into oriented batches for the store.
#include "engine/graph.hpp"

#include "core/error.hpp"
#include "loaders/graph_file.hpp"

namespace fg {

template <class V, class S>
graph<V, S>::graph(orientation o, vertex_t vertices, const dcsr_config& cfg) : orient_(o), store_(cfg) {
  store_.resize(vertices, vertices);
}

template <class V, class S>
void graph<V, S>::insert(const edge_file& f, std::size_t first, std::size_t last) {
  FG_EXPECTS(first <= last && last <= f.src.size(), "graph::insert: edge range out of bounds");
  const auto& rows = orient_ == orientation::out ? f.src : f.dst;
  const auto& cols = orient_ == orientation::out ? f.dst : f.src;
  std::vector<vertex_t> r(rows.begin() + first, rows.begin() + last), c(cols.begin() + first, cols.begin() + last);
  std::vector<stored_t<V>> w;
  if constexpr (!is_pattern_v<V>) {
    if (f.weighted()) w.assign(f.weight.begin() + first, f.weight.begin() + last);
    else w.assign(last - first, 1.0);
  }
  store_.insert_batch(make_coo<V, S>(r, c, w));
}

#define FG_INSTANTIATE(V, S) template class graph<V, S>;
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE

}  // namespace fg
