// fluxgraph::graph: a directed graph in a DCSR store that takes batches of inserts and deletes, is
// read (degrees, neighbours, CSR/COO, SpMV over a semiring) and runs the algorithms. Plain C++17:
// no CUDA or Thrust header reaches the user. Vertex v's row lists v's successors (out-edges).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fluxgraph/apps.hpp"
#include "fluxgraph/error.hpp"
#include "fluxgraph/options.hpp"
#include "fluxgraph/reports.hpp"
#include "fluxgraph/types.hpp"

namespace fluxgraph {

/// @brief Read access, without a copy, to the rows of a graph whose store is in host memory
///        (graph::host_view). Row r holds size[r] entries laid out in order over its nseg[r]
///        segments: segment s is the positions [seg[s * pitch + 2r], seg[s * pitch + 2r + 1]) of
///        col and val, and may have room past the row's last entry. Columns are in arrival order,
///        not sorted. val is null for an unweighted graph. Valid until the graph's next batch,
///        resize or defragmentation (as a container's iterators are).
struct host_rows {
  vertex_id rows = 0;
  std::int64_t pitch = 0;
  const std::int32_t* size = nullptr;
  const std::uint8_t* nseg = nullptr;
  const std::int64_t* seg = nullptr;
  const std::int32_t* col = nullptr;
  const double* val = nullptr;
};

/// Hears a closure / reach run after every iteration: (iteration, pairs it added, pairs so far).
using closure_progress = std::function<void(int, std::int64_t, std::int64_t)>;

/// The cost model's plan for a read phase of `reads` SpMVs (graph::plan_reads): every kernel's
/// predicted cost, the choice and why, and the kernels a phase would race.
struct read_plan {
  using estimate = kernel_estimate;
  double reads = 0;
  std::string calibration;          ///< where the model's points come from
  std::vector<estimate> estimates;  ///< cheapest total first
  std::string kernel, reason;       ///< the choice, in one line a person can check
  std::vector<std::string> race;    ///< contenders a phase times before keeping the fastest (empty: none)
  double race_spread = 0, race_budget = 0;  ///< their rule: within spread x the choice, conversions <= budget
  int race_probes = 0;              ///< timed reads of each
};

/// Counters of a closure / reach run.
struct closure_info {
  std::int64_t pairs = 0;
  int iterations = 0;
  double seconds = 0;
  std::size_t peak_bytes = 0;
};

class graph {
 public:
  /// @brief A graph with `vertices` vertices, ids 0..vertices-1, and no edges; inserts add vertices.
  /// @throws fluxgraph::invalid_argument (a negative count, device::cuda in the CPU build)
  explicit graph(vertex_id vertices = 0, const graph_options& opt = {});
  ~graph();
  graph(graph&&) noexcept;
  graph& operator=(graph&&) noexcept;

  // --- batches: each is all-or-nothing; on any exception the graph is exactly as before --------
  /// @brief Insert edges; new ids add vertices (vertex_ids). A renumbering graph reads a batch in
  ///        device memory on the host. A dense graph refuses host ids that would grow it past both
  ///        2^20 vertices and 64 a new edge (one edge to id 2e8 would make 2e8 vertices): ids that
  ///        sparse want renumbering, or resize() first when meant.
  /// @throws fluxgraph::batch_error naming the batch and the edge (negative id, id too large, too
  ///         sparse, NaN or infinite weight), fluxgraph::invalid_argument (a weight for an unweighted graph,
  ///         device memory in a host graph's call from the CPU build...), fluxgraph::out_of_memory.
  batch_result insert(const edge_span<std::int32_t>& e);
  batch_result insert(const edge_span<std::int64_t>& e);
  /// @brief Delete edges: every copy of each listed edge goes; absent edges (and ids the graph has
  ///        never had) are no-ops. Weights are not read.
  batch_result erase(const edge_span<std::int32_t>& e);
  batch_result erase(const edge_span<std::int64_t>& e);
  /// @brief One mixed batch: every delete, then every insert (an edge in both is present after).
  batch_result apply(const edge_span<std::int32_t>& inserts, const edge_span<std::int32_t>& deletes);
  batch_result apply(const edge_span<std::int64_t>& inserts, const edge_span<std::int64_t>& deletes);
  /// Host vectors (I = int32_t or int64_t).
  template <class I>
  batch_result insert(const std::vector<I>& src, const std::vector<I>& dst, const std::vector<double>& weight = {}) {
    return insert(span(src, dst, weight));
  }
  template <class I>
  batch_result erase(const std::vector<I>& src, const std::vector<I>& dst) {
    return erase(span(src, dst, {}));
  }
  /// @brief At least n vertices (never shrinks); renumbering: ids 0..n-1 are vertices afterwards
  ///        (those new to the graph numbered after the others, in increasing order).
  void resize(vertex_id n);
  /// @brief The vertices of these ids, without edges until some come (renumbering: those new to
  ///        the graph numbered after the others, in increasing order of id; dense: at least
  ///        max id + 1 vertices). @throws fluxgraph::invalid_argument for a negative id
  void add_vertices(const std::vector<vertex_id>& ids);

  // --- layout ----------------------------------------------------------------------------------
  /// @brief Compact every row into one segment (the store becomes CSR).
  void defragment();
  /// @brief Asks the policy (graph_options::defrag) whether compacting pays off for the
  ///        `expected_reads` SpMVs before the next batch, and compacts if so.
  defrag_decision maybe_defragment(double expected_reads);

  // --- reads -----------------------------------------------------------------------------------
  vertex_id num_vertices() const noexcept;
  std::int64_t num_edges() const noexcept;
  bool weighted() const noexcept;
  device where() const noexcept;
  /// "cuda (...)", "openmp (...)" or "reference (...)": what runs this graph's operations.
  std::string backend() const;
  /// Content version: changes with every batch that writes or removes an entry.
  std::uint64_t version() const noexcept;
  /// Whether batches and calls take the caller's ids (graph_options::ids).
  bool renumbered() const noexcept;
  /// @brief ids()[v]: vertex v's id (renumbering: the caller's; dense: v), for the results indexed by
  ///        vertex number.
  std::vector<vertex_id> ids() const;
  /// @brief The vertex number of id `id`, or -1 when the graph has no such vertex.
  vertex_id index(vertex_id id) const noexcept;
  /// Out-degree by vertex number.
  std::vector<std::int64_t> out_degree() const;
  std::int64_t out_degree(vertex_id id) const;
  /// Successors of id, sorted. @throws fluxgraph::invalid_argument for an id the graph does not have.
  std::vector<vertex_id> neighbors(vertex_id id) const;
  csr to_csr() const;
  coo to_coo() const;
  /// @brief Saves the graph as a snapshot (docs/snapshot.md: versioned, a checksum per section),
  ///        with each vertex's id in `ids` when given (one per vertex; else a renumbering graph's
  ///        ids(), which load() gives back as the graph's ids). Atomic: a temporary file,
  ///        fsync, then a rename; a failure (a full disk) leaves the old file, if any, whole.
  /// @throws fluxgraph::error naming the path and the reason; invalid_argument for ids of the wrong length
  void save(const std::string& path, const std::vector<std::int64_t>& ids = {}) const;
  /// @brief Row lengths and layout, as the kernel selector sees them.
  graph_profile profile() const;
  /// @brief Where the graph's memory goes, part by part: its store, the in-edge copy and kept
  ///        PageRank once PageRank ran, the read views; and the allocator's totals (memory_report).
  memory_report memory_use() const;
  /// @brief How the engine would read this graph for `reads` SpMVs with double vectors: the cost
  ///        model's estimates and choice (kernel "auto"), or a forced kernel's.
  /// @throws fluxgraph::invalid_argument (reads < 1, an unknown kernel name)
  read_plan plan_reads(double reads, const std::string& kernel = "auto") const;
  /// @brief The store's own arrays when they are in host memory: the CPU build, or device::cpu in
  ///        the CUDA build (fluxgraph/boost_graph.hpp reads graphs through it).
  /// @throws fluxgraph::invalid_argument for a store in GPU memory (take to_csr() instead)
  host_rows host_view() const;
  /// @brief y = A x over the semiring; x and y have num_vertices() entries. plus_times reads go
  ///        through the engine's reader: the store itself, or a read-optimized view once the reads
  ///        of the unchanged graph would have paid for building it (docs/architecture.md, "Kernel
  ///        selection"); the other semirings read the store.
  std::vector<double> spmv(const std::vector<double>& x, semiring s = semiring::plus_times) const;
  /// @brief The same on caller arrays of num_vertices() doubles in `where` memory (copied into the
  ///        store's memory when it is another).
  void spmv(const double* x, double* y, semiring s = semiring::plus_times, memory where = memory::host) const;

  // --- algorithms ------------------------------------------------------------------------------
  /// @brief PageRank (networkx semantics). With opt.warm it starts from the last result, so after
  ///        a small batch it needs fewer iterations. The first call builds an in-edge copy of the
  ///        store that every later batch updates too (PageRank reads in-edges).
  pagerank_result pagerank(const pagerank_options& opt = {});
  /// @brief Personalized PageRank: networkx.pagerank(G, personalization=p) with p uniform over the
  ///        ids in `seeds` (a seed named twice counts once), dangling mass back to the seeds.
  ///        Always from 1/n (opt.warm and opt.mixed_precision do not apply); opt.kernel must name a
  ///        kernel with a k-vector read ("auto" or "dcsr").
  /// @throws fluxgraph::invalid_argument for an empty set or an id the graph does not have
  pagerank_result personalized_pagerank(const std::vector<vertex_id>& seeds, const pagerank_options& opt = {});
  /// @brief The same for several seed sets, one result each, read together: one read of the
  ///        in-edges serves up to 32 sets' score vectors (an SpMM with k dense vectors).
  std::vector<pagerank_result> personalized_pagerank(const std::vector<std::vector<vertex_id>>& seed_sets,
                                                     const pagerank_options& opt = {});
  /// @brief The transitive closure R+ (pairs joined by a path of length >= 1) as a new graph,
  ///        unweighted, on the same device.
  graph closure(closure_info* info = nullptr, const closure_progress& progress = {}) const;
  /// @brief Row i: the vertices (numbers, as ids() indexes them) reachable from the id sources[i] by
  ///        a path of length >= 1, sorted.
  csr reach(const std::vector<vertex_id>& sources, closure_info* info = nullptr, const closure_progress& progress = {}) const;

  // --- graph applications (docs/graph-apps.md): LDBC Graphalytics' kernels and triangles -------
  /// @brief BFS levels from `source` along out-edges: direction-optimizing (push from a small
  ///        frontier, pull over the in-edges otherwise; the in-edge copy is built on the first call
  ///        and kept by every later batch, as PageRank's). @throws invalid_argument for a bad source
  bfs_result bfs(vertex_id source);
  /// @brief Shortest path lengths from `source` (weights; 1 per edge when unweighted), delta-stepping
  ///        with bucket width `delta` (0: automatic). @throws invalid_argument for a negative weight
  sssp_result sssp(vertex_id source, double delta = 0) const;
  /// @brief Weakly connected components (directions ignored); each label is the least id in the
  ///        component.
  wcc_result wcc() const;
  /// @brief Graphalytics' label propagation, `iterations` synchronous rounds; labels are ids, ties
  ///        go to the label of the smaller vertex number (the smaller id when the ids arrived in one
  ///        batch, or in increasing runs).
  cdlp_result cdlp(int iterations) const;
  /// @brief Graphalytics' local clustering coefficient (in- and out-neighbours).
  lcc_result lcc() const;
  /// @brief Triangles of the undirected simple graph underneath (directions, loops, repeats dropped).
  triangle_result triangles(bool per_vertex = false) const;

  struct impl;

 private:
  friend graph read(const std::string&, const graph_options&, std::vector<std::int64_t>*, bool);
  friend graph load(const std::string&, const graph_options&, std::vector<std::int64_t>*);
  explicit graph(std::unique_ptr<impl> p);
  template <class I>
  batch_result batch(const edge_span<I>* ins, const edge_span<I>* del);
  vertex_id vertex(vertex_id id, const char* what) const;
  template <class I>
  static edge_span<I> span(const std::vector<I>& src, const std::vector<I>& dst, const std::vector<double>& w) {
    if (src.size() != dst.size()) throw invalid_argument("src and dst differ in length");
    if (!w.empty() && w.size() != src.size()) throw invalid_argument("weights and edges differ in length");
    return {src.data(), dst.data(), src.size(), w.empty() ? nullptr : w.data(), memory::host};
  }
  std::unique_ptr<impl> p_;
};

/// @brief A graph file read into a graph as the CLI reads it (one id model, docs/api.md): the
///        vertices are the file's (an edge list: the ids that appear; Matrix Market: 1..n of its
///        header) numbered 0..n-1 in increasing order of their ids, and ids[v] (when given) is
///        vertex v's id as written (Matrix Market's 1-based); a renumbering graph (opt.ids) takes
///        and gives those ids. keep_ids: vertex v is id v instead (an edge list's ids as written,
///        Matrix Market's minus 1; max id + 1 vertices) in a dense graph, for callers whose ids are
///        already dense.
/// @param weighted  keep the file's weights (none: every edge 1)
/// @throws fluxgraph::input_error naming the file and line
graph read(const std::string& path, const graph_options& opt = {}, std::vector<std::int64_t>* ids = nullptr,
           bool keep_ids = false);

/// @brief The longest line the file readers accept, in bytes (default 1 MiB; process-wide; every
///        loader: graphs, constraint files, grammars, programs). A longer line is an input_error
///        naming the file and line, raised while the line is read: a decompression bomb (a small
///        .gz holding one endless line) fails fast, in bounded memory.
void set_max_line_bytes(std::size_t bytes) noexcept;

/// @brief A graph from a snapshot (graph::save), on opt.where; weighted as it was saved. The ids
///        saved with it, if any, go to *ids (else *ids is left empty), and are a renumbering
///        graph's ids (else its ids are 0..n-1).
/// @throws fluxgraph::input_error naming the file: not a snapshot, another version, truncated,
///         corrupted (a checksum does not match), out-of-range contents. Nothing is built then.
graph load(const std::string& path, const graph_options& opt = {}, std::vector<std::int64_t>* ids = nullptr);
std::size_t max_line_bytes() noexcept;

/// Bytes fluxgraph copied from host to device memory and back since the program started (the CUDA
/// build; the CPU build counts the same copies, which are host to host there). A batch given in
/// device memory moves none: tests check it.
struct transfer_counts {
  std::uint64_t to_device = 0, to_host = 0;
};
transfer_counts transfers() noexcept;

/// "0.1.0" and the build: "cuda" or "openmp".
std::string version();
std::string build_backend();
/// @brief What runs a graph's operations on `where`: "cuda (NVIDIA H100 ...)", "openmp (...)" or
///        "reference (sequential host twin)" (device::cpu in the CUDA build).
/// @throws fluxgraph::invalid_argument for device::cuda in the CPU build
std::string describe(device where);

}  // namespace fluxgraph
