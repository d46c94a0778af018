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

/// @brief A graph file read whole: its edges in dense ids 0 .. num_vertices - 1, and each dense
///        vertex's id in the file.
struct edge_file {
  std::string path;
  std::int64_t num_vertices = 0;   ///< Matrix Market: the header's max(rows, cols); edge list: distinct ids
  std::vector<std::int32_t> src;   ///< dense ids, one entry per edge as stored (symmetric .mtx: both ways)
  std::vector<std::int32_t> dst;
  std::vector<double> weight;      ///< empty when the file has no weights
  /// original_id[v] is the file's id for dense vertex v (Matrix Market: v + 1; edge list: as written).
  std::vector<std::int64_t> original_id;
  bool weighted() const noexcept { return !weight.empty(); }
  std::int64_t num_edges() const noexcept { return static_cast<std::int64_t>(src.size()); }
};
/// @brief Matrix Market (.mtx) or a SNAP / whitespace edge list ('#' and '%' comments, an optional
///        weight column); .gz is read transparently.
/// @throws fluxgraph::input_error naming the file and line
edge_file read_edges(const std::string& path);
/// @brief Every edge also the other way, with its weight (self-loops once): an undirected edge file
///        (LDBC Graphalytics lists each undirected edge once) as the directed graph both ways.
void add_reverse_edges(edge_file& f);

/// @brief The edges of one stream batch in host memory: src[i] -> dst[i], dense ids >= 0.
struct edge_list {
  std::vector<std::int32_t> src, dst;
  std::vector<double> weight;  ///< empty or one per edge; a stream counts each edge once and ignores them
  std::size_t size() const noexcept { return src.size(); }
  void clear() noexcept { src.clear(), dst.clear(), weight.clear(); }
};

/// When a durable stream's journal reaches the disk (docs/durability.md): before apply() returns
/// (batch), within `sync_interval` seconds after (interval: a power cut may lose that much; a
/// killed process loses nothing), or when the system decides (none: a killed process loses nothing).
enum class sync_mode { batch, interval, none };

/// A durable stream: a folder of snapshots and write-ahead logs. A stream opened on a folder that
/// holds one resumes where it ended (its last snapshot, then the batches logged after it).
struct durability_options {
  std::string dir;                     ///< empty: not durable
  sync_mode sync = sync_mode::batch;
  double sync_interval = 0.1;          ///< seconds
  std::int64_t snapshot_every = 1000;  ///< batches between snapshots (0: not by batches)
  std::int64_t snapshot_bytes = 0;     ///< log bytes that call for a snapshot (0: not by bytes)
  /// Edges each batch copies into a snapshot being taken (at least one vertex's): a snapshot is
  /// copied a part at a time after the batches, never whole on the stream's way (docs/durability.md).
  std::int64_t snapshot_part = 1 << 17;
  /// Opening refuses a folder whose log lost acknowledged batches (cut short or damaged: fluxgraph::
  /// error naming the log and the batches); true goes on from what is left, with a warning.
  bool accept_loss = false;
};

/// What a durable stream rebuilt when it was opened.
struct recovery_info {
  bool durable = false;
  std::int64_t snapshot_batch = 0;  ///< the batch the snapshot it started from held (0: none)
  std::string snapshot_path;
  std::int64_t replayed = 0;        ///< batches replayed from the log after the snapshot
  std::int64_t batches = 0;         ///< batches in the stream: the next is batches + 1
  std::int64_t lines = 0;           ///< edge lines consumed: where the producer resumes
  std::int64_t torn_bytes = 0;      ///< a torn last record dropped
  std::int64_t lost_batches = 0;    ///< acknowledged batches a damaged log lost (durability_options::accept_loss)
  std::vector<std::string> warnings;  ///< corrupted snapshots passed over, torn records dropped, losses accepted
  double seconds = 0;
};

struct live_batch;

/// Where a defragmentation puts the rows: by the policy (size order when the kernel selector would
/// read the store with ADCSR), in row order, or grouped by length.
enum class row_layout { automatic, rows, size };
/// How a batch of inserts and deletes reaches the store: one mixed batch (every delete, then every
/// insert; atomic), or an insert batch then a delete batch, timed apart.
enum class batch_order { deletes_first, inserts_then_deletes };

struct stream_options {
  device where = device::automatic;
  /// renumber (the default): apply() takes the caller's ids (vertex_ids, docs/api.md "Vertex
  /// ids"); top() gives them, ids() names every vertex; stream_file() needs dense.
  vertex_ids ids = vertex_ids::renumber;
  bool pagerank_per_batch = false;  ///< warm-started PageRank after every batch
  bool pagerank_at_end = true;      ///< finish() runs PageRank from scratch when not per batch
  /// Both PageRanks' options (weighted is ignored: each edge counts once; progress is heard by
  /// finish()'s PageRank only).
  pagerank_options pagerank;
  bool closure = false;             ///< keep the transitive closure current after every batch
  /// Graph applications kept current after every batch (docs/graph-apps.md): BFS levels and SSSP
  /// distances (hops: a stream keeps no weights) from a source, an input id (the stream's ids, or
  /// the dense id when it has none; -1: off), WCC labels, the triangle count.
  std::int64_t bfs_source = -1, sssp_source = -1;
  bool wcc = false, triangles = false;
  /// Per batch, also PageRank from scratch (iterations the warm start saved) and, with the closure
  /// or an application, the same from scratch, which must be equal (fluxgraph::error otherwise).
  bool compare = false;
  defrag_mode defrag = defrag_mode::measured;  ///< asked after every batch and in finish()
  row_layout layout = row_layout::automatic;
  /// SpMVs expected between batches when PageRank is not per batch (0: nothing reads).
  double expected_reads = 0;
  durability_options durability;    ///< a folder: every batch is logged before apply() returns
};

/// What a durable stream's folder holds (`fluxgraph wal check DIR`, check_wal; docs/durability.md).
struct wal_health {
  std::vector<std::string> files;  ///< a line per snapshot and log: whole, or what is wrong with it
  std::string start;               ///< what a start on the folder would do, or why it would be refused
  bool ok = false;                 ///< every file whole, and a start recovers every acknowledged batch
};

/// What one batch did and cost. Times in seconds.
struct batch_report {
  std::int64_t batch = 0;       ///< 1-based
  std::int64_t inserts = 0, deletes = 0;  ///< edges given
  std::int64_t stored = 0;      ///< entries written (inserts less duplicates)
  std::int64_t removed = 0;     ///< entries removed (deletes less absent edges)
  std::int64_t edges = 0;       ///< distinct edges after the batch
  vertex_id vertices = 0;
  double store_seconds = 0, insert_seconds = 0, delete_seconds = 0;
  defrag_decision defrag;       ///< the policy's decision after the batch
  double defrag_seconds = 0;
  int pr_iterations = 0;        ///< per-batch PageRank: push rounds (+ iterations when it restarted)
  double pr_seconds = 0;
  bool pr_restarted = false;    ///< computed from scratch (the first batch, or one that changed too much)
  bool pr_pulled = false;       ///< by power iterations from the last scores (predicted under the pushes)
  double pr_bound = 0;          ///< the scores are within this (L1) of the exact PageRank
  std::int64_t pr_edges = 0;    ///< out-edges its pushes read (the graph's are `edges`)
  double pr_error = -1;         ///< with compare: L1 distance to the from-scratch scores
  int cold_iterations = 0;      ///< with compare
  double cold_seconds = 0;
  std::int64_t closure_pairs = 0;
  int closure_rounds = 0;       ///< rounds of the extension (0 when recomputed after deletions)
  bool closure_recomputed = false;
  double closure_seconds = 0, closure_scratch_seconds = 0;
  std::int64_t bfs_reached = 0, sssp_reached = 0;  ///< the applications (0 before the source arrives)
  std::int64_t components = 0, triangles = 0;
  bool apps_recomputed = false;  ///< an application ran from scratch (a deletion its rule does not cover)
  double apps_seconds = 0, apps_scratch_seconds = 0;
  double log_seconds = 0;       ///< a durable stream's journal append (and sync)
  bool snapshot = false;        ///< a snapshot of the graph after the batch was begun (copied a part a batch)
  double snapshot_seconds = 0;
  double seconds() const noexcept {
    return store_seconds + log_seconds + snapshot_seconds + defrag_seconds + pr_seconds + cold_seconds + closure_seconds +
           closure_scratch_seconds + apps_seconds + apps_scratch_seconds;
  }
};

/// Sums over the batches so far.
struct stream_totals {
  std::int64_t batches = 0, inserts = 0, deletes = 0;
  double insert_seconds = 0, delete_seconds = 0, store_seconds = 0;
  std::int64_t defragmentations = 0;
  double defrag_seconds = 0;
  defrag_decision last_defrag;
  std::int64_t pr_iterations = 0, cold_iterations = 0;
  std::int64_t pr_restarts = 0;  ///< per-batch PageRank runs that started over
  std::int64_t pr_pulls = 0;     ///< ... that ran power iterations from the last scores
  double pr_seconds = 0, cold_seconds = 0;
  double pr_bound = 0;           ///< the largest per-batch bound (L1)
  double pr_error = -1;          ///< with compare: the largest L1 distance to the from-scratch scores
  std::int64_t closure_extended = 0, closure_recomputed = 0, closure_rounds = 0;
  double closure_seconds = 0, closure_scratch_seconds = 0;
  std::int64_t apps_recomputed = 0;  ///< batches after which an application ran from scratch
  double apps_seconds = 0, apps_scratch_seconds = 0;
  double log_seconds = 0;
  std::int64_t snapshots = 0;
  double snapshot_seconds = 0;
};

/// The DCSR store's counters.
struct store_stats {
  std::int64_t capacity = 0;            ///< entries the buffer holds
  std::int64_t segments_allocated = 0;
  std::int64_t compactions_segment_limit = 0;  ///< automatic: a row would pass k segments (undoable batches only)
  std::int64_t rows_relocated = 0;             ///< rows moved whole into one segment: a batch took them past k
  std::int64_t compactions_buffer_full = 0;    ///< automatic: the buffer was full
  std::int64_t buffer_grows = 0;               ///< of those, the ones that enlarged the buffer
  std::int64_t duplicates_dropped = 0;
  std::int64_t entries_deleted = 0;
  std::int64_t deletes_absent = 0;             ///< deletions that removed nothing
};

/// finish(): the read phase after the last batch.
struct stream_end {
  bool defrag_asked = false;    ///< the policy was asked (PageRank from scratch ran)
  defrag_decision defrag;
  double defrag_seconds = 0;
  bool has_pagerank = false;
  pagerank_result pagerank;     ///< the last scores, by dense id
};

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
