// Distributed graphs (docs/distributed.md): one graph over the ranks of an MPI run, one rank per
// process (one per GPU in the CUDA build). Rows are divided among the ranks by a partition; a batch
// given on any rank goes to the rows' owners and is applied all or nothing; PageRank and SpMV run
// on every rank's rows. Every call marked "collective" must be made by every rank in the same
// order. Plain C++17: no MPI header reaches the user.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fluxgraph/graph.hpp"

namespace fg {
class communicator;
}

namespace fluxgraph {

/// @brief The ranks of this run: MPI's (launched by mpirun), or this process alone.
class ranks {
 public:
  /// @param transport "auto" (MPI when launched by mpirun, else this process alone), "mpi", "nccl"
  ///        (the CUDA build with NCCL), "self"
  /// @throws fluxgraph::invalid_argument for a transport this build lacks
  explicit ranks(const std::string& transport = "auto");
  ~ranks();
  ranks(const ranks&) = delete;
  ranks& operator=(const ranks&) = delete;
  int rank() const noexcept;
  int size() const noexcept;
  std::string transport() const;
  /// Bytes this rank has sent to other ranks so far.
  std::uint64_t bytes_sent() const noexcept;
  /// Collective: the largest of every rank's value (e.g. a flag that one rank failed).
  std::int64_t max(std::int64_t value);
  fg::communicator& comm() noexcept { return *c_; }

 private:
  std::unique_ptr<fg::communicator> c_;
};

/// One rank's part of a graph file (read_edges): its share of the lines, in dense ids that every
/// rank agrees on, and the map back to the file's ids (the same on every rank).
struct distributed_file {
  std::string path;
  std::vector<std::int32_t> src, dst;
  std::vector<double> weight;              ///< empty, or one per edge
  vertex_id num_vertices = 0;
  std::vector<std::int64_t> original_id;   ///< dense id -> the file's id
};

/// @brief Collective: every rank reads its own share of the file's lines (chunks dealt in turn; a
///        .gz is decompressed by each), then the ranks agree on dense ids as read_edges does
///        (Matrix Market: id - 1; an edge list: the ids that appear, in increasing order).
/// @throws fluxgraph::input_error naming file and line on the rank that read the bad line; every
///         other rank throws fluxgraph::error naming that rank.
distributed_file read_edges(ranks& r, const std::string& path);

struct distributed_options {
  bool weighted = false;      ///< edges carry weights (stored once each: the first given is kept)
  bool in_edges = false;      ///< rows are targets (what PageRank reads); else sources
  std::string partition = "cyclic";  ///< "cyclic" (v on rank v mod P) or "blocks" (cuts below)
  /// blocks: P + 1 cuts, rank p owning [cuts[p], cuts[p + 1]) (the last rank also everything past),
  /// e.g. balanced_cuts() of the edges about to be inserted.
  std::vector<vertex_id> cuts;
};

/// What one distributed batch did (counts over every rank).
struct distributed_batch {
  std::int64_t batch = 0;
  std::int64_t edges = 0;          ///< stored after the batch, every rank's
  vertex_id vertices = 0;
  std::uint64_t bytes_sent = 0;    ///< by this rank for the batch
};


class distributed_graph {
 public:
  /// @brief Collective: an empty graph of `vertices` vertices over r's ranks.
  distributed_graph(ranks& r, vertex_id vertices, const distributed_options& opt = {});
  ~distributed_graph();
  distributed_graph(distributed_graph&&) noexcept;

  /// @brief Collective: one batch; each rank gives the edges it has (file direction; any rank any
  ///        edges), in host or device memory (edge_span::where: device edges are checked and
  ///        routed on the GPU without visiting the host). Deletes first, then inserts.
  /// @throws fluxgraph::batch_error naming the rank and edge when any rank's edges are bad,
  ///         fluxgraph::out_of_memory / error when any rank's store cannot take its share: every
  ///         rank throws and no rank's graph changed.
  distributed_batch apply(const edge_span<std::int32_t>& inserts, const edge_span<std::int32_t>& deletes = {});

  /// @brief Collective: PageRank (graph built with in_edges); this rank's vertices and scores.
  distributed_pagerank pagerank(const pagerank_options& opt = {});
  /// @brief Collective: y = A x over a semiring; x and the result hold this rank's vertices'
  ///        entries (local_ids() order). Rows are sources (or targets with in_edges).
  std::vector<double> spmv(semiring s, const std::vector<double>& x_local);
  /// @brief Collective: a vector of this rank's entries (local_ids() order) in full, on every rank.
  std::vector<double> gather(const std::vector<double>& local) const;

  std::vector<vertex_id> local_ids() const;
  vertex_id num_vertices() const noexcept;
  /// Collective: stored edges over every rank.
  std::int64_t num_edges() const;
  std::int64_t local_edges() const noexcept;
  /// Largest and mean stored edges per rank (collective): the partition's balance.
  std::pair<std::int64_t, double> balance() const;
  std::string partition() const;

  struct impl;

 private:
  std::unique_ptr<impl> p_;
};

/// @brief Collective: P + 1 cuts that split [0, n) into ranges of about equal rows' entries,
///        counting the rows (sources, or targets with in_edges) of every rank's edges.
std::vector<vertex_id> balanced_cuts(ranks& r, vertex_id n, const edge_span<std::int32_t>& e, bool in_edges);
/// @brief Collective: a new id for every vertex of [0, n), by decreasing row entries over every
///        rank's edges (ties by id). A cyclic partition over these ids is the DCSR paper's rule
///        (rows sorted by size, dealt modulo P: §IV-D): every rank gets every P-th row of the size
///        order, so entries and vertices are balanced together (blocks balance the entries only;
///        cyclic on R-MAT's own ids neither). Renumber the edges (and the results back) with it.
std::vector<vertex_id> size_sorted_ids(ranks& r, vertex_id n, const edge_span<std::int32_t>& e, bool in_edges);

}  // namespace fluxgraph
