// Engine graph: turns file edges into oriented batches for the store.
#include "engine/graph.hpp"

#include <cmath>

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

template <class V, class S>
degree_profile profile(const dcsr_matrix<V, S>& A) {
  degree_profile p;
  p.vertices = A.rows();
  p.edges = A.nnz();
  if (A.rows() == 0) return p;
  const auto row_ptr = to_vector(A.to_csr().row_ptr);
  double sum2 = 0;
  for (vertex_t v = 0; v < A.rows(); ++v) {
    const auto d = vertex_t(row_ptr[v + 1] - row_ptr[v]);
    if (d == 0) ++p.empty_rows;
    if (d > p.max_degree) {
      p.max_degree = d;
      p.max_vertex = v;
    }
    sum2 += double(d) * d;
  }
  p.mean = double(p.edges) / p.vertices;
  p.stddev = std::sqrt(std::max(0.0, sum2 / p.vertices - p.mean * p.mean));
  return p;
}

#define FG_INSTANTIATE(V, S) \
  template class graph<V, S>; \
  template degree_profile profile(const dcsr_matrix<V, S>&);
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE

}  // namespace fg
