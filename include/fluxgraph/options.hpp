// What a caller asks of a graph, a PageRank, a stream and a live reader. Plain C++; the engine
// takes these types as they are.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fluxgraph/types.hpp"

namespace fluxgraph {

struct graph_options {
  /// Unweighted: an edge is stored once, whatever the inserts. Weighted: a multigraph, each insert
  /// kept as its own entry with its weight: SpMV's add combines parallel edges (plus_times sums
  /// them, min_plus takes the lightest), to_csr/to_coo list them apiece, erase removes them all.
  bool weighted = false;
  device where = device::automatic;
  int max_segments = 8;    ///< DCSR's k: segments a row may own before a compaction
  defrag_mode defrag = defrag_mode::measured;  ///< maybe_defragment()'s policy
  vertex_ids ids = vertex_ids::renumber;       ///< the caller's ids, or dense vertex numbers
};

struct pagerank_options {
  double damping = 0.85;  ///< networkx's alpha
  double tol = 1e-10;     ///< stop when the L1 change < tol * n (networkx's rule)
  int max_iter = 1000;
  bool weighted = false;  ///< on a weighted graph, edges count by their weight (networkx's weight='weight');
                          ///< unweighted unless asked, as the CLI (--weighted) and Python (weighted=True)
  bool warm = true;       ///< start from the last result's scores (new vertices at 1/n)
  std::string kernel = "auto";  ///< the SpMV kernel: the engine's cost model picks, or a name
  /// Reads the scores as float (double sums) where the kernel can and tol n >= 2^-16: each read
  /// within 2^-24 of the double one, 1/256 of the stopping threshold at most; half the bytes of the
  /// gather on large graphs. false: double reads only.
  bool mixed_precision = true;
  /// Called after every iteration with (iteration, L1 change), e.g. for a progress line.
  std::function<void(int, double)> progress;
};

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

struct stream_options {
  device where = device::automatic;
  /// renumber (the default): apply() takes the caller's ids (vertex_ids, docs/api.md "Vertex
  /// ids"); top() gives them, ids() names every vertex; stream_file() needs dense.
  vertex_ids ids = vertex_ids::renumber;
  bool pagerank_per_batch = false;  ///< warm-started PageRank after every batch
  /// With pagerank_per_batch: the scores are brought within their bound after every this many
  /// batches (and by finish()); a batch in between only moves the kept residual (O(batch) work), and
  /// its report has pr_updated false. >= 1.
  std::int64_t pagerank_every = 1;
  footprint memory_footprint = footprint::fast;  ///< with pagerank_per_batch: both orientations, or one
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

struct live_options {
  input_format format = input_format::text;
  std::size_t batch_edges = 100000;  ///< a batch is cut at this many edges (inserts + deletes) ...
  double max_delay = 0.01;           ///< ... or this many seconds after its first edge arrived
  bool skip_bad = false;             ///< skip bad lines (on_skip hears of each) instead of stopping
  std::string name = "<stdin>";      ///< the input's name in messages
  /// A skipped line's message ("NAME:LINE: what"), called on the reader's thread.
  std::function<void(const std::string&)> on_skip;
  /// Input ids that have dense ids 0, 1, ... already (a recovered stream's stream::ids()): new ids
  /// continue after them.
  std::vector<std::int64_t> known_ids;
};

}  // namespace fluxgraph
