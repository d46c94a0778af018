// Boost.Graph adapter: a fluxgraph::graph whose store is in host memory (the CPU build, or
// device::cpu in the CUDA build) models VertexListGraph, IncidenceGraph and AdjacencyGraph as it
// is, with no copy; fluxgraph::bgl::view does the same for any graph, reading a host store in
// place and taking a host snapshot (one segment per row) of a store in GPU memory. Both give the
// vertex_index and edge_weight property maps (an unweighted edge weighs 1), so BGL's algorithms
// run with their defaults:
//
//   fluxgraph::bgl::view v(g);
//   std::vector<double> dist(boost::num_vertices(v));
//   boost::dijkstra_shortest_paths(v, 0, boost::distance_map(dist.data()));
//
// Vertices are the graph's vertex numbers 0..n-1 (BGL indexes by them; a renumbering graph's
// ids()[v] names vertex v, docs/api.md "Vertex ids"); an edge is (source, target, position in the store). Out-edges come
// in the store's order (arrival order, not sorted), parallel edges apiece for a weighted graph.
// As with a container's iterators, a batch, resize or defragmentation of the graph invalidates
// the descriptors and iterators of a graph read in place (a snapshot stays as it was taken).
// Header-only: the program needs the Boost headers (Boost.Graph), fluxgraph does not.
#pragma once
#include <boost/graph/adjacency_iterator.hpp>
#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>
#include <cstdint>
#include <utility>
#include <vector>

#include "fluxgraph/graph.hpp"

namespace fluxgraph {
namespace bgl {

/// An edge: its ends and its position in the store's column / value arrays.
struct edge {
  vertex_id src = -1, dst = -1;
  std::int64_t pos = -1;
  friend bool operator==(const edge& a, const edge& b) noexcept { return a.pos == b.pos && a.src == b.src; }
  friend bool operator!=(const edge& a, const edge& b) noexcept { return !(a == b); }
};

/// The out-edges of one row, walking its segments in order (host_rows' layout).
class out_edge_iterator
    : public boost::iterator_facade<out_edge_iterator, edge, std::forward_iterator_tag, edge> {
 public:
  out_edge_iterator() = default;
  /// begin (at_end false) or end of row r.
  out_edge_iterator(const host_rows& R, vertex_id r, bool at_end)
      : seg_(R.seg), col_(R.col), pitch_(R.pitch), r_(r), nseg_(R.nseg[r]), left_(at_end ? 0 : R.size[r]) {
    if (left_ == 0) return;
    p_ = seg_[2 * r_];
    end_ = seg_[2 * r_ + 1];
    skip_full_segments();
  }

 private:
  friend class boost::iterator_core_access;
  edge dereference() const { return {r_, vertex_id(col_[p_]), p_}; }
  bool equal(const out_edge_iterator& o) const { return left_ == o.left_ && r_ == o.r_; }
  void increment() {
    ++p_;
    if (--left_ > 0) skip_full_segments();
  }
  // Moves to the next segment while the current one has no entry left (segments may be empty).
  void skip_full_segments() {
    while (p_ == end_ && s_ + 1 < nseg_) {
      ++s_;
      p_ = seg_[s_ * pitch_ + 2 * r_];
      end_ = seg_[s_ * pitch_ + 2 * r_ + 1];
    }
  }
  const std::int64_t* seg_ = nullptr;
  const std::int32_t* col_ = nullptr;
  std::int64_t pitch_ = 0;
  vertex_id r_ = 0;
  int nseg_ = 0, s_ = 0;
  std::int64_t left_ = 0, p_ = 0, end_ = 0;
};

/// edge_weight: the edge's value, 1 for an unweighted graph.
struct weight_map {
  using key_type = edge;
  using value_type = double;
  using reference = double;
  using category = boost::readable_property_map_tag;
  const double* val = nullptr;
  friend double get(const weight_map& m, const edge& e) { return m.val ? m.val[e.pos] : 1.0; }
};

/// @brief A graph for Boost.Graph: the graph's host store in place, or a host snapshot of a store
///        in GPU memory (taken once, here).
class view {
 public:
  explicit view(const graph& g) {
    // The CPU build keeps every store in host memory; the CUDA build only device::cpu's.
    if (g.where() == device::cpu || build_backend() != "cuda") rows_ = g.host_view();
    else snapshot(g.to_csr());
  }
  // rows_ points into this view's own arrays (a snapshot): moving keeps them, copying would not.
  view(const view&) = delete;
  view& operator=(const view&) = delete;
  view(view&&) noexcept = default;
  view& operator=(view&&) noexcept = default;
  const host_rows& rows() const noexcept { return rows_; }
  /// True when the view holds its own copy (the graph's store is in GPU memory).
  bool is_snapshot() const noexcept { return snapshot_; }

 private:
  // CSR as host_rows with one segment per row.
  void snapshot(csr c) {
    snapshot_ = true;
    const std::size_t n = std::size_t(c.rows);
    size_.resize(n);
    nseg_.assign(n, 1);
    seg_.resize(2 * n);
    for (std::size_t r = 0; r < n; ++r) {
      size_[r] = std::int32_t(c.row_ptr[r + 1] - c.row_ptr[r]);
      seg_[2 * r] = c.row_ptr[r];
      seg_[2 * r + 1] = c.row_ptr[r + 1];
    }
    col_ = std::move(c.col);
    val_ = std::move(c.val);
    rows_ = {c.rows, std::int64_t(2 * n), size_.data(), nseg_.data(), seg_.data(), col_.data(),
             val_.empty() ? nullptr : val_.data()};
  }
  host_rows rows_;
  bool snapshot_ = false;
  std::vector<std::int32_t> size_;
  std::vector<std::uint8_t> nseg_;
  std::vector<std::int64_t> seg_;
  std::vector<std::int32_t> col_;
  std::vector<double> val_;
};

/// The rows a BGL call reads: a view's, or a host graph's own.
inline host_rows rows_of(const view& v) { return v.rows(); }
inline host_rows rows_of(const graph& g) { return g.host_view(); }

struct traversal_tag : boost::vertex_list_graph_tag, boost::incidence_graph_tag, boost::adjacency_graph_tag {};

}  // namespace bgl

// The BGL free functions, for fluxgraph::graph (namespace fluxgraph) and bgl::view (namespace
// fluxgraph::bgl), found by argument-dependent lookup.
#define FLUXGRAPH_BGL_FUNCTIONS(G)                                                                        \
  inline std::pair<boost::counting_iterator<vertex_id>, boost::counting_iterator<vertex_id>> vertices(    \
      const G& g) {                                                                                       \
    return {boost::counting_iterator<vertex_id>(0), boost::counting_iterator<vertex_id>(num_vertices(g))}; \
  }                                                                                                       \
  inline std::pair<::fluxgraph::bgl::out_edge_iterator, ::fluxgraph::bgl::out_edge_iterator> out_edges(   \
      vertex_id u, const G& g) {                                                                          \
    const host_rows R = ::fluxgraph::bgl::rows_of(g);                                                     \
    return {::fluxgraph::bgl::out_edge_iterator(R, u, false), ::fluxgraph::bgl::out_edge_iterator(R, u, true)}; \
  }                                                                                                       \
  inline vertex_id vertex(vertex_id i, const G&) { return i; }                                         \
  inline std::int64_t out_degree(vertex_id u, const G& g) { return ::fluxgraph::bgl::rows_of(g).size[u]; } \
  inline vertex_id source(const ::fluxgraph::bgl::edge& e, const G&) { return e.src; }                    \
  inline vertex_id target(const ::fluxgraph::bgl::edge& e, const G&) { return e.dst; }                    \
  inline std::pair<boost::graph_traits<G>::adjacency_iterator, boost::graph_traits<G>::adjacency_iterator> \
  adjacent_vertices(vertex_id u, const G& g) {                                                            \
    const auto e = out_edges(u, g);                                                                       \
    using it = boost::graph_traits<G>::adjacency_iterator;                                                \
    return {it(e.first, &g), it(e.second, &g)};                                                           \
  }                                                                                                       \
  inline boost::typed_identity_property_map<vertex_id> get(boost::vertex_index_t, const G&) { return {}; } \
  inline ::fluxgraph::bgl::weight_map get(boost::edge_weight_t, const G& g) {                             \
    return {::fluxgraph::bgl::rows_of(g).val};                                                            \
  }

namespace bgl {
inline vertex_id num_vertices(const view& v) { return v.rows().rows; }
}  // namespace bgl
inline vertex_id num_vertices(const graph& g) { return g.num_vertices(); }

}  // namespace fluxgraph

namespace boost {

#define FLUXGRAPH_BGL_TRAITS(G)                                                                        \
  template <>                                                                                          \
  struct graph_traits<G> {                                                                             \
    using vertex_descriptor = ::fluxgraph::vertex_id;                                                  \
    using edge_descriptor = ::fluxgraph::bgl::edge;                                                    \
    using directed_category = directed_tag;                                                            \
    using edge_parallel_category = allow_parallel_edge_tag;                                            \
    using traversal_category = ::fluxgraph::bgl::traversal_tag;                                        \
    using vertex_iterator = counting_iterator<::fluxgraph::vertex_id>;                                 \
    using out_edge_iterator = ::fluxgraph::bgl::out_edge_iterator;                                     \
    using adjacency_iterator = adjacency_iterator_generator<G, vertex_descriptor, out_edge_iterator>::type; \
    using vertices_size_type = ::fluxgraph::vertex_id;                                                 \
    using degree_size_type = std::int64_t;                                                             \
    using edges_size_type = std::int64_t;                                                              \
    static vertex_descriptor null_vertex() { return -1; }                                              \
  };                                                                                                   \
  template <>                                                                                          \
  struct property_map<G, vertex_index_t> {                                                             \
    using type = typed_identity_property_map<::fluxgraph::vertex_id>;                                  \
    using const_type = type;                                                                           \
  };                                                                                                   \
  template <>                                                                                          \
  struct property_map<G, edge_weight_t> {                                                              \
    using type = ::fluxgraph::bgl::weight_map;                                                         \
    using const_type = type;                                                                           \
  };

FLUXGRAPH_BGL_TRAITS(::fluxgraph::graph)
FLUXGRAPH_BGL_TRAITS(::fluxgraph::bgl::view)
#undef FLUXGRAPH_BGL_TRAITS

}  // namespace boost

namespace fluxgraph {
FLUXGRAPH_BGL_FUNCTIONS(graph)
namespace bgl {
FLUXGRAPH_BGL_FUNCTIONS(view)
}  // namespace bgl
}  // namespace fluxgraph
#undef FLUXGRAPH_BGL_FUNCTIONS
