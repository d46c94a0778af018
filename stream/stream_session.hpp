// A streaming session: one graph fed batch by batch, with the analyses that follow each batch
// (warm-started PageRank, the incrementally extended transitive closure), the defragmentation
// policy between batches and the timings. `fluxgraph stream FILE`, `fluxgraph stream -` (live
// input) and library callers all drive this one object; they only differ in where the batches
// come from and how the reports are printed.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/dynamic_pagerank.hpp"
#include "algorithms/pagerank.hpp"
#include "core/types.hpp"
#include "stream/defrag_policy.hpp"
#include "stream/graph.hpp"
#include "stream/journal.hpp"
#include "stream/stream_apps.hpp"
#include "fluxgraph/options.hpp"
#include "fluxgraph/reports.hpp"
#include "fluxgraph/types.hpp"

namespace fluxgraph {
struct edge_file;
}  // namespace fluxgraph

namespace fg {

using edge_file = fluxgraph::edge_file;  // loaders/graph_file.hpp

// What to keep current and how: the public type (include/fluxgraph/options.hpp). The session reads
// pagerank_per_batch, pagerank_at_end, pagerank, closure, the applications, compare, defrag and
// layout (its defragmentation policy), expected_reads and durability; where and ids are the
// facade's (api/stream.cpp).
using fluxgraph::stream_options;

/// The edges of one batch in the file's direction (src -> dst), dense ids >= 0: the public type
/// (include/fluxgraph/types.hpp), so a program's batches reach the session without a copy.
using edge_list = fluxgraph::edge_list;

using fluxgraph::batch_order;  // include/fluxgraph/types.hpp

/// What one batch did and cost: the public type (include/fluxgraph/reports.hpp).
using fluxgraph::batch_report;

/// Where a batch came from, for the journal: the input ids of the dense ids it gave out (in order)
/// and the edge lines it consumed (-1: its inserts + deletes).
struct batch_origin {
  const std::vector<std::int64_t>* new_ids = nullptr;
  std::int64_t lines = -1;
};

/// What a durable session rebuilt on start: the public type (include/fluxgraph/reports.hpp).
using recovery_report = fluxgraph::recovery_info;

/// Sums over the batches so far: the public type (include/fluxgraph/reports.hpp).
using stream_totals = fluxgraph::stream_totals;

/// finish(): the read phase after the last batch.
struct final_report {
  bool defrag_asked = false;   ///< the policy was asked (PageRank from scratch ran)
  defrag_decision defrag;
  double defrag_seconds = 0;   ///< the defragmentation, when the decision was to defragment
  const pagerank_result* pagerank = nullptr;  ///< the last scores (null: no PageRank ran)
};

/// @brief A graph streamed in batches on twin Space (host_space: the sequential reference).
template <class Space>
class stream_session {
 public:
  /// @param vertices  the graph's vertices from the start (a file's); more arrive with the batches
  /// @throws fg::invalid_argument for bad PageRank options or compare without an analysis
  explicit stream_session(const stream_options& opt, vertex_t vertices = 0);
  ~stream_session();
  stream_session(stream_session&&) noexcept;
  stream_session& operator=(stream_session&&) noexcept;

  /// @brief One batch: the store update in `order`, then the defragmentation policy, then the
  ///        per-batch analyses. `vertices`: the graph has at least this many vertices afterwards
  ///        (ids that arrived in the batch with no stored edge, e.g. inserted and deleted again);
  ///        larger ids among the inserts grow it too.
  /// @throws fg::batch_error for a negative id / fg::out_of_memory (the store is then unchanged:
  ///         a failed inserts_then_deletes delete leaves its insert batch applied), fg::error when
  ///         compare finds the closures differ.
  ///        A durable session appends the batch to its journal after the store update (before the
  ///        analyses) and writes a snapshot when one is due; a journal failure throws fg::error
  ///        with the batch applied but not durable (the caller must not acknowledge it).
  batch_report apply(const edge_list& inserts, const edge_list& deletes, vertex_t vertices = 0,
                     batch_order order = batch_order::deletes_first, const batch_origin& origin = {});
  /// @brief Runs the store's batch kernels once on a throwaway store of the same configuration, so
  ///        that the first batch does not pay for starting the device and loading its code (a few
  ///        hundred ms on a GPU: every batch queued behind the first would wait for it). Live input
  ///        calls it before reading. The session is unchanged.
  void warm_up();
  /// @brief The read phase after the last batch: with per-batch PageRank its last scores; else
  ///        (pagerank_at_end) the policy asked for a cold PageRank's reads, then PageRank from
  ///        scratch. Call once; batches may still follow (finish() again reruns the phase).
  final_report finish();

  /// @brief A durable session: writes a snapshot now (nothing when the last one is current).
  void checkpoint();
  /// @brief The graph as a snapshot in the file's direction, with ids() when every vertex has one
  ///        and the stream's position.
  snapshot to_snapshot() const;
  /// @brief Starts from a snapshot's graph and ids, before any batch (a durable session writes it
  ///        to the journal as its first snapshot). @throws fg::error when batches came already
  void seed(const snapshot& s);
  const recovery_report& recovery() const noexcept;
  /// Input ids of the dense ids, as the batches' origins gave them (and recovery restored).
  const std::vector<std::int64_t>& ids() const noexcept;
  /// Edge lines consumed so far, recovered ones included.
  std::int64_t lines() const noexcept;

  const fg::graph<pattern, Space>& current_graph() const noexcept;
  vertex_t num_vertices() const noexcept { return current_graph().num_vertices(); }
  offset_t num_edges() const noexcept { return current_graph().num_edges(); }
  const stream_totals& totals() const noexcept;
  /// Where the session's memory goes: its store, the other orientation, the kept PageRank, the
  /// closure (the applications' state is not itemized: in_use - total()).
  fluxgraph::memory_report memory() const;
  /// The latest PageRank (per batch or finish()); empty scores before the first. Per batch the
  /// scores are gathered to the host at the first call after a batch.
  const pagerank_result& scores() const;
  /// The k best (dense id, score) of the latest PageRank, best first, ties to the smaller id, then
  /// any tied with the k-th; per batch found where the scores are (the device), without gathering
  /// them all.
  std::vector<std::pair<vertex_t, double>> top(std::size_t k) const;
  /// The closure's pairs (stream_options::closure; in the store's orientation: with PageRank the
  /// store holds in-edges, so these are the reversed pairs — the same number).
  const dcsr_matrix<pattern, Space>& closure() const;
  /// The edges in the store, in the file's direction, sorted by (src, dst).
  std::vector<std::pair<vertex_t, vertex_t>> edges() const;

 private:
  struct state;
  std::unique_ptr<state> s_;
};

/// @brief `fluxgraph stream FILE`: the file's edges in batches of `batch`, in file order. With
///        delete_fraction F > 0 each insert batch is followed by the deletion of a random F
///        (rounded) of the edges it inserted (positions in the file, seeded by `seed`), as
///        batch_order::inserts_then_deletes. `on_batch` gets every report.
template <class Space>
void stream_file(stream_session<Space>& session, const edge_file& f, std::size_t batch, double delete_fraction,
                 std::uint64_t seed, const std::function<void(const batch_report&)>& on_batch);

}  // namespace fg
