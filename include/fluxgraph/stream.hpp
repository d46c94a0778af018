// fluxgraph::stream: a graph fed batch by batch with the analyses that follow each batch
// (warm-started PageRank, the transitive closure extended from the batch), the defragmentation
// policy between batches and the timings. The `fluxgraph stream` command (a file, or standard
// input), C++ programs and Python drive this one object. And the graph files it reads.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fluxgraph/graph.hpp"

namespace fluxgraph {

/// @brief Matrix Market (.mtx) or a SNAP / whitespace edge list ('#' and '%' comments, an optional
///        weight column); .gz is read transparently.
/// @throws fluxgraph::input_error naming the file and line
edge_file read_edges(const std::string& path);
/// @brief Every edge also the other way, with its weight (self-loops once): an undirected edge file
///        (LDBC Graphalytics lists each undirected edge once) as the directed graph both ways.
void add_reverse_edges(edge_file& f);

class stream {
 public:
  /// @param vertices  vertices from the start (a file's); more arrive with the batches
  /// @throws fluxgraph::invalid_argument (bad PageRank options, compare without an analysis,
  ///         device::cuda in the CPU build)
  explicit stream(const stream_options& opt = {}, vertex_id vertices = 0);
  ~stream();
  stream(stream&&) noexcept;
  stream& operator=(stream&&) noexcept;
  /// The options it was made with (which analyses a batch report carries).
  const stream_options& options() const noexcept;

  /// @brief One batch in host memory (ids >= 0: the caller's when renumbering, else dense vertex
  ///        numbers): the store update in `order`, the defragmentation policy, the per-batch
  ///        analyses. The graph has at least `vertices` vertices afterwards (renumbering: ids
  ///        0..vertices-1 are vertices). Renumbering, a delete naming an id the stream has not had
  ///        is dropped, and the batch's new ids are numbered in increasing order (either order).
  ///        The store update is all or nothing: when it throws (a bad id, out of memory) the graph
  ///        and its ids are as before (an inserts_then_deletes batch whose delete fails
  ///        keeps its inserts). An analysis that throws after it (out of memory, or compare finding
  ///        the closures differ) leaves the batch applied and that analysis stale.
  ///        A durable stream logs the batch after the store update: when apply() returns, the
  ///        batch is in the journal (fluxgraph::error otherwise, with the batch applied in memory
  ///        but not durable: do not acknowledge it, stop).
  batch_report apply(const edge_list& inserts, const edge_list& deletes, vertex_id vertices = 0,
                     batch_order order = batch_order::deletes_first);
  /// @brief The same with 64-bit ids in host memory (weights are not read): any id >= 0 when
  ///        renumbering, else ids up to 2^31 - 2.
  batch_report apply(const edge_span<std::int64_t>& inserts, const edge_span<std::int64_t>& deletes,
                     vertex_id vertices = 0);
  /// @brief A live reader's batch: as apply(b.inserts, b.deletes, b.vertices) in the reader's
  ///        vertex numbers (also in a renumbering stream), and its new ids and edge lines are kept
  ///        (ids(), lines(); a durable stream logs them). Renumbering, the reader's numbers must be
  ///        the stream's: make it with live_options::known_ids = ids() (fluxgraph::invalid_argument
  ///        when the batch numbers its new ids from another count, or names a known id as new).
  batch_report apply(const live_batch& b);
  /// @brief A file's edges (its vertex numbers: stream_options::ids must be dense) in batches of `batch`, in file order; with delete_fraction F > 0 each
  ///        insert batch is followed by the deletion of a random F (rounded) of the edges it
  ///        inserted (seeded), as batch_order::inserts_then_deletes. on_batch hears every report.
  void stream_file(const edge_file& f, std::size_t batch, double delete_fraction = 0, std::uint64_t seed = 1,
                   const std::function<void(const batch_report&)>& on_batch = {});
  /// @brief Starts the device and loads its code on a throwaway store, so the first batch does not
  ///        pay for it (a few hundred ms on a GPU). The stream is unchanged.
  void warm_up();
  /// @brief The read phase: with per-batch PageRank its last scores; else the policy asked for a
  ///        cold PageRank's reads, then PageRank from scratch. Batches may follow.
  stream_end finish();

  vertex_id num_vertices() const noexcept;
  std::int64_t num_edges() const noexcept;
  const stream_totals& totals() const noexcept;
  store_stats stats() const;
  /// @brief Where the stream's memory goes, part by part: its store, the other orientation and the
  ///        kept PageRank where it keeps them, the closure; the allocator's totals (memory_report).
  memory_report memory_use() const;
  /// The latest PageRank (per batch or finish()), by dense id; empty before the first.
  pagerank_result scores() const;
  /// The k best (id, score) of the latest PageRank (renumbering: the caller's ids; else vertex
  /// numbers), best first, ties to the smaller vertex number, and
  /// past the k-th any tied with it (a caller that breaks ties its own way picks from them). Per
  /// batch they are selected where the scores live (the GPU), so a caller that prints the top of
  /// every batch moves k scores, not all of them.
  std::vector<std::pair<vertex_id, double>> top(std::size_t k) const;
  /// The transitive closure's pairs (stream_options::closure).
  std::int64_t closure_pairs() const;
  /// The edges in the store by vertex number (ids() names them), sorted by (src, dst).
  coo edges() const;
  std::string backend() const;
  /// Input ids of the dense vertices: renumbering, every vertex's; else as live batches gave them
  /// (a recovered stream's included).
  const std::vector<std::int64_t>& ids() const noexcept;
  /// Edge lines consumed (live batches' lines; else inserts + deletes), recovered ones included.
  std::int64_t lines() const noexcept;
  /// What a durable stream rebuilt when it was opened (durable false otherwise).
  recovery_info recovery() const;
  /// @brief A durable stream: a snapshot now (and the log trimmed). @throws fluxgraph::error
  void checkpoint();
  /// @brief Writes the stream's graph as a snapshot (graph::save's format; with ids() when every
  ///        vertex has one, and the stream's position), atomically; `ids` in place of ids() (one
  ///        per vertex: a file's original_id, say). @throws fluxgraph::error
  void save(const std::string& path, const std::vector<std::int64_t>& ids = {}) const;
  /// @brief Starts the stream from a snapshot (graph::save, stream::save, `--snapshot-out`): its
  ///        edges, and its ids as ids(). Only before the first batch; a durable stream writes it
  ///        to its journal at once.
  /// @throws fluxgraph::input_error for a bad file (the stream is unchanged), fluxgraph::error
  ///         when the stream holds batches already
  void load(const std::string& path);

  struct impl;

 private:
  std::unique_ptr<impl> p_;
};

/// @brief Reads every snapshot and log in a durable stream's folder (durability_options::dir) and
///        runs the recovery a start would, taking no lock and changing nothing: a stream may be
///        running on it.
/// @throws fluxgraph::error when `dir` is not a folder
wal_health check_wal(const std::string& dir);

}  // namespace fluxgraph
