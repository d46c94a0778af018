// The API's vocabulary: vertex ids, devices, modes, and edges in host memory. Plain C++ that
// depends on nothing else; the engine uses these types as they are.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fluxgraph {

/// Vertex ids in the API. The store keeps 32-bit vertex numbers (at most 2^31 - 1 vertices).
using vertex_id = std::int64_t;

/// How a graph (or a stream) names its vertices (docs/api.md, "Vertex ids").
///   renumber (the default, as cuGraph's): batches take the caller's ids, any int64 >= 0, sparse or
///     dense. The vertices are numbered 0..n-1 internally: each batch's new ids become the next
///     vertices in increasing order of id, so ids 0..n-1 that arrive in one batch (or in increasing
///     runs) keep their numbers. Calls take the caller's ids (sources, neighbors(v)) and results
///     that are ids are the caller's (neighbors, wcc and cdlp labels, stream::top); results by vertex
///     (scores, levels, CSR/COO rows and columns, SpMV vectors) are indexed by vertex number:
///     graph::ids()[v] is vertex v's id, graph::index(id) the way back.
///   dense: the ids are the vertex numbers 0..n-1 themselves (no map: ids past the end grow the
///     graph; a batch in device memory stays on the device).
enum class vertex_ids { renumber, dense };

/// Where the store lives. automatic: the build's device system (the GPU in the CUDA build, OpenMP
/// threads in the CPU build); cpu: the same as automatic in the CPU build, the sequential host
/// twin in the CUDA build; cuda: the GPU (the CUDA build only, else fluxgraph::invalid_argument).
enum class device { automatic, cpu, cuda };

/// Where the arrays a call gets or fills live: host memory, or device memory (a CUDA pointer in the
/// CUDA build; host memory in the CPU build, whose device is the host).
enum class memory { host, device };

/// SpMV semirings: y[u] = add over out-edges (u, v) of mul(A(u, v), x[v]); an unweighted edge is 1.
///   plus_times (sum of products), min_plus (shortest one-edge extension: x[v] + A(u, v)),
///   or_and (y[u] = 1 when some successor v has x[v] != 0; unweighted graphs only).
enum class semiring { plus_times, min_plus, or_and };

/// When maybe_defragment() compacts the store (see stream/defrag_policy.hpp).
enum class defrag_mode { none, segment_limit, measured };

/// @brief A batch of edges src[i] -> dst[i], i < size, in caller memory (I = int32_t or int64_t).
///        weight: null (every edge 1) or one finite value per edge (weighted graphs only).
template <class I>
struct edge_span {
  const I* src = nullptr;
  const I* dst = nullptr;
  std::size_t size = 0;
  const double* weight = nullptr;
  memory where = memory::host;
};

/// Compressed rows, columns sorted within each row. val is empty for an unweighted graph.
struct csr {
  vertex_id rows = 0, cols = 0;
  std::vector<std::int64_t> row_ptr;
  std::vector<std::int32_t> col;
  std::vector<double> val;
};

/// Edges sorted by (src, dst). val is empty for an unweighted graph.
struct coo {
  std::vector<std::int32_t> src, dst;
  std::vector<double> val;
};

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

/// Where a defragmentation puts the rows: by the policy (size order when the kernel selector would
/// read the store with ADCSR), in row order, or grouped by length.
enum class row_layout { automatic, rows, size };

/// What a stream keeps in device memory for PageRank kept current (docs/performance.md, "Memory"):
/// fast keeps the graph in both orientations (pulls over the in-edges, pushes along the out-edges)
/// and a pair index; compact keeps the out-edges alone, no index and less slack (sweeps then read
/// P y along the out-edges with one atomic an entry, and a batch's duplicate check walks its rows).
enum class footprint { fast, compact };

/// How a batch of inserts and deletes reaches the store: one mixed batch (every delete, then every
/// insert; atomic), or an insert batch then a delete batch, timed apart.
enum class batch_order { deletes_first, inserts_then_deletes };

/// text: 'u v', '+ u v' (insert), '- u v' (delete), 'u v w' (a weight, checked), '#'/'%' comments;
/// bin32 / bin64: little-endian (u, v) pairs of int32 / int64, inserts only. Ids >= 0.
enum class input_format { text, bin32, bin64 };

}  // namespace fluxgraph
