// The engine's graph: a DCSR store fed by edge batches, oriented for the algorithms that read it.
#pragma once
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/memory.hpp"
#include "core/types.hpp"
#include "fluxgraph/error.hpp"
#include "fluxgraph/reports.hpp"
#include "fluxgraph/types.hpp"
#include "stream/defrag_policy.hpp"
#include "storage/dcsr.hpp"

namespace fg {
using edge_file = fluxgraph::edge_file;  // loaders/graph_file.hpp
using fluxgraph::batch_order;
using fluxgraph::batch_report;

/// Rows of the store are sources (out: row u lists u's successors) or targets (in: row v lists
/// v's predecessors, what pull-style PageRank reads).
enum class orientation { out, in };

/// @brief The configuration `c` of a store kept in orientation `o` beside its twin in the other (PageRank
///        kept current: the stream's store and mirror, a graph's in-edge copy). The two hold the same
///        pairs transposed, so one pair index serves: the out-edge store's, which the kept PageRank
///        probes for the pairs a batch changed (algorithms/dynamic_pagerank.hpp). The in-edge store's
///        duplicate check walks the rows a batch touches instead of a second index of 16-64 bytes a
///        pair (docs/performance.md, "Memory"). The CPU build keeps its own choice (edge_index::
///        automatic builds an index there only when probing the rows costs more).
inline dcsr_config paired_config(dcsr_config c, orientation o) {
#if defined(FG_WITH_CUDA)
  c.index = o == orientation::in ? edge_index::never : dcsr_config{}.index;
#else
  c.index = dcsr_config{}.index;
  (void)o;
#endif
  return c;
}

/// @brief The configuration of a store kept alone, in the compact footprint (fluxgraph::footprint::
///        compact: the out-edges, PageRank reading them both ways): no pair index (a batch's
///        duplicate check and the kept PageRank's probe walk the rows they touch); two segment pairs
///        a row (37 bytes a row, not 133: a row past them is moved whole, with its slack); slack of
///        a quarter of the row's size (no constant: R-MAT's rows of a few entries each kept a mean
///        row's worth); a full buffer compacted while fewer than 60% of its used entries are stored,
///        else grown by a quarter; compactions sized to the entries, not the old capacity
///        (docs/performance.md, "The compact footprint", has the figures).
inline dcsr_config compact_config() {
  dcsr_config c;
  c.index = edge_index::never;
  c.max_segments = 2;
  c.alpha = 1;
  c.row_growth = 0.25;
  c.growth = 1.25;
  c.compact_fill = 0.6;
  c.in_place = true;
  c.shrink = true;
  return c;
}

/// @brief A graph as a DCSR store in memory space Space; V = pattern (edges count once) or double.
template <class V, class Space>
class graph {
 public:
  graph(orientation o, vertex_t vertices, const dcsr_config& cfg = {});
  /// @brief Adopts a store already in orientation o (e.g. a closure's R⁺).
  graph(orientation o, dcsr_matrix<V, Space>&& store) : orient_(o), store_(std::move(store)) {}

  /// @brief Insert edges [first, last) of `file` as one batch (weights used when V is double).
  /// @throws fg::batch_error / fg::out_of_memory; the store is then unchanged.
  void insert(const edge_file& file, std::size_t first, std::size_t last);
  /// @brief Insert a batch already in this graph's orientation (what batch() returns).
  void insert(const coo_matrix<V, Space>& oriented_batch) { store_.insert_batch(oriented_batch); }
  /// @brief The store's batch scratch freed until the next batch (dcsr_matrix::release_scratch).
  void release_scratch() noexcept { store_.release_scratch(); }
  /// @brief Edges [first, last) of `file` as a batch in this graph's orientation: what insert(file,
  ///        first, last) stores, for a caller that also needs the batch (incremental closure).
  coo_matrix<V, Space> batch(const edge_file& file, std::size_t first, std::size_t last) const;
  /// @brief Delete the edges src[i] -> dst[i] (file direction; stored in this graph's orientation)
  ///        as one batch: every copy of an edge goes, an absent edge is a no-op.
  /// @throws fg::batch_error for a negative id / fg::out_of_memory; the store is then unchanged.
  void remove(const std::vector<vertex_t>& src, const std::vector<vertex_t>& dst);
  /// @brief One mixed batch (dcsr_matrix::apply_batch): the edges del_src[i] -> del_dst[i] go
  ///        first, then edges [first, last) of `file` go in, so an edge in both is present after.
  /// @throws as insert and remove; the store is then unchanged.
  void apply(const edge_file& file, std::size_t first, std::size_t last, const std::vector<vertex_t>& del_src,
             const std::vector<vertex_t>& del_dst);
  /// @brief Edges src[i] -> dst[i] (file direction) as a batch in this graph's orientation; weight
  ///        is empty (every edge 1) or one per edge, and used only when V is double.
  /// @throws fg::invalid_argument when the lengths differ.
  coo_matrix<V, Space> batch(const std::vector<vertex_t>& src, const std::vector<vertex_t>& dst,
                             const std::vector<double>& weight = {}) const;
  /// @brief A batch of oriented inserts and deletes in `order`, the one way a store takes a batch
  ///        (the API's graph, the stream session and the copies they keep in the other orientation):
  ///        deletes_first with both: one mixed store batch (atomic); else the deletes alone, or the
  ///        inserts (an empty insert batch is still counted) and then, inserts_then_deletes, the
  ///        deletes as a second store batch. `times`, when given, gets store/insert/delete seconds.
  /// @throws as insert and remove; the store is then unchanged (a failed second batch leaves the
  ///         first applied)
  void take(const coo_matrix<V, Space>& inserts, const coo_matrix<V, Space>& deletes, batch_order order,
            batch_report* times = nullptr);
  /// @brief At least n vertices: ids that arrived before any edge of theirs was stored (a live
  ///        stream names a vertex first, or its only edges were deleted) are vertices too, with no
  ///        edges. Never shrinks; the content and version() are unchanged.
  void grow(vertex_t n) { store_.resize(n, n); }
  void defragment() { store_.defragment(); }
  /// @brief Run between batches: asks `policy` whether defragmenting pays off for the SpMVs the
  ///        caller expects before the next batch (`expected_reads`; 0 when nothing reads the store
  ///        in between) and defragments if so. The measured mode profiles the store (one pass over
  ///        the rows) unless no reads are expected (then it keeps the store: nothing to save).
  ///        Content and version() are unchanged either way.
  /// @return the decision, with its reason
  defrag_decision maybe_defragment(double expected_reads, const defrag_policy& policy);

  orientation oriented() const noexcept { return orient_; }
  /// Adds the store's parts to r, named "out-edge store ..." or "in-edge store ..." (dcsr_matrix::account).
  void account(fluxgraph::memory_report& r) const {
    store_.account(r, orient_ == orientation::out ? "out-edge store" : "in-edge store");
  }
  /// A report of this graph: its counts, its store's parts and CSR floor, the allocator's totals;
  /// the owner adds what it keeps beside (the other orientation, the analyses' state).
  fluxgraph::memory_report memory_report() const {
    fluxgraph::memory_report r;
    r.vertices = num_vertices(), r.edges = num_edges(), r.packed = store_.packed_bytes();
    r.in_use = memory::bytes_in_use(), r.peak = memory::peak_bytes();
    account(r);
    return r;
  }
  vertex_t num_vertices() const noexcept { return store_.rows(); }
  offset_t num_edges() const noexcept { return store_.nnz(); }
  const dcsr_matrix<V, Space>& store() const noexcept { return store_; }

 private:
  coo_matrix<V, Space> oriented(const vertex_t* src, const vertex_t* dst, std::size_t n, const double* weight) const;

  orientation orient_;
  dcsr_matrix<V, Space> store_;
};

/// @brief The batch as the store in the other orientation takes it: rows and columns swapped, as W
///        (values kept when W = V, dropped for a pattern). Moves c's arrays.
template <class W, class V, class Space>
coo_matrix<W, Space> reversed(coo_matrix<V, Space>&& c) {
  coo_matrix<W, Space> r;
  r.nnz = c.nnz;
  r.row = std::move(c.col);
  r.col = std::move(c.row);
  if constexpr (std::is_same_v<W, V>) r.val = std::move(c.val);
  return r;
}

/// @brief Brings `copy`, a store of the same graph in the other orientation, up to a batch its
///        original took: ins and del in the copy's orientation (null: none), in `order`; then at
///        least n vertices. A copy that fails to follow is dropped (its owner rebuilds it from the
///        original when next needed). @return whether it followed
template <class W, class Space>
bool follow(std::unique_ptr<graph<W, Space>>& copy, const coo_matrix<W, Space>* ins, const coo_matrix<W, Space>* del,
            vertex_t n, batch_order order) {
  if (!copy) return false;
  const coo_matrix<W, Space> none;
  try {
    copy->take(ins ? *ins : none, del ? *del : none, order);
    copy->grow(n);
    return true;
  } catch (const fluxgraph::error&) {
    copy.reset();
    return false;
  }
}

}  // namespace fg
