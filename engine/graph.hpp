// The engine's graph: a DCSR store fed by edge batches, oriented for the algorithms that read it.
#pragma once
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "storage/dcsr.hpp"

namespace fg {
struct edge_file;

/// Rows of the store are sources (out: row u lists u's successors) or targets (in: row v lists
/// v's predecessors, what pull-style PageRank reads).
enum class orientation { out, in };

/// @brief A graph as a DCSR store in memory space Space; V = pattern (edges count once) or double.
template <class V, class Space>
class graph {
 public:
  graph(orientation o, vertex_t vertices, const dcsr_config& cfg = {});

  /// @brief Insert edges [first, last) of `file` as one batch (weights used when V is double).
  /// @throws fg::batch_error / fg::out_of_memory; the store is then unchanged.
  void insert(const edge_file& file, std::size_t first, std::size_t last);
  void defragment() { store_.defragment(); }

  orientation oriented() const noexcept { return orient_; }
  vertex_t num_vertices() const noexcept { return store_.rows(); }
  offset_t num_edges() const noexcept { return store_.nnz(); }
  const dcsr_matrix<V, Space>& store() const noexcept { return store_; }

 private:
  orientation orient_;
  dcsr_matrix<V, Space> store_;
};

}  // namespace fg
