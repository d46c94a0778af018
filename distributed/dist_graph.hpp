// A graph over P ranks (issue 24, docs/distributed.md): each rank keeps the rows it owns (by a
// row_partition) as a DCSR store of local rows and global columns, and the entries of every vector
// for the vertices it owns. Batches given on any rank are routed to the owners of their rows (one
// all-to-all) and applied all or nothing across ranks; an SpMV gathers x (one all-gather) and
// multiplies each rank's rows. Every member function that says "collective" must be called by every
// rank, in the same order.
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/comm.hpp"
#include "distributed/detail/dist_kernels.hpp"
#include "distributed/dist_exchange.hpp"
#include "distributed/dist_partition.hpp"
#include "distributed/dist_split.hpp"
#include "stream/graph.hpp"
#include "storage/dcsr.hpp"

namespace fg {

/// What one distributed batch did on this rank.
struct dist_batch_report {
  std::int64_t batch = 0;             ///< the batch's number (1-based, the same on every rank)
  std::int64_t given = 0, deletes_given = 0;  ///< edges this rank was given
  std::int64_t received = 0, deletes_received = 0;  ///< edges routed to this rank (its rows)
  std::uint64_t bytes_sent = 0;       ///< by this rank for the batch (routing and votes)
  vertex_t vertices = 0;              ///< the graph's after the batch
  /// Seconds of this rank's steps (set_step_timing): upload, check, keys and order by owner, with
  /// their all-reduces; the counts and the exchange of keys; the write and the vote.
  double stage_seconds = 0, route_seconds = 0, write_seconds = 0;
};

template <class V, class Space>
class dist_graph {
 public:
  /// @brief An empty graph of n vertices over c's ranks (collective: every rank, the same arguments).
  ///        cfg configures each rank's store; its default keeps an edge once (graph semantics).
  dist_graph(communicator& c, orientation o, row_partition p, vertex_t n, const dcsr_config& cfg = graph_config());
  static dcsr_config graph_config() {
    dcsr_config c;
    c.dups = duplicates::collapse;
    return c;
  }

  /// @brief Collective: one batch. Each rank passes the edges it was given (file direction, global
  ///        ids, any rank any edges; empty is fine): deletions `del_src[i] -> del_dst[i]` first, then
  ///        insertions `src[i] -> dst[i]` (weights empty or one per edge), as dcsr_matrix::apply_batch.
  /// @throws fg::batch_error naming the rank and its edge when any rank was given a bad edge
  ///         (negative id, non-finite weight), fg::out_of_memory / fg::error when any rank's store
  ///         could not take its share; every rank throws, and no rank's store changed.
  dist_batch_report apply(const std::vector<vertex_t>& src, const std::vector<vertex_t>& dst,
                          const std::vector<double>& weight, const std::vector<vertex_t>& del_src = {},
                          const std::vector<vertex_t>& del_dst = {});
  /// One part of a batch, read in place (weight may be null): in host memory, or in Space's memory
  /// when on_device (edges made on the GPU never visit the host).
  struct edge_list {
    const vertex_t* src = nullptr;
    const vertex_t* dst = nullptr;
    const double* weight = nullptr;
    std::size_t size = 0;
    bool on_device = false;
  };
  /// @brief The same, from the caller's arrays without a copy (a big input's slices).
  dist_batch_report apply(const edge_list& ins, const edge_list& del = {});

  communicator& comm() const noexcept { return *comm_; }
  const row_partition& partition() const noexcept { return part_; }
  orientation oriented() const noexcept { return orient_; }
  /// The graph's vertices (global; the same on every rank).
  vertex_t num_vertices() const noexcept { return n_; }
  /// Collective: the graph's stored edges over every rank.
  offset_t num_edges() const;
  /// This rank's vertices (its rows, and its entries of every vector).
  vertex_t local_vertices() const { return part_.count(comm_->rank(), n_); }
  /// This rank's rows: local ids (partition().local) x global columns.
  const dcsr_matrix<V, Space>& local() const noexcept { return store_; }
  /// The partition's view for device code (blocks: the cuts in Space's memory).
  partition_view view() const noexcept { return {part_.kind, part_.parts, starts_.empty() ? nullptr : starts_.data()}; }
  std::int64_t batches() const noexcept { return batches_; }
  /// Whether apply times its steps into the report (a device wait at each step's end: for a
  /// benchmark's breakdown, not for production runs).
  void set_step_timing(bool on) noexcept { time_steps_ = on; }
  /// Each rank's vertices, and (in Space) where each rank's entries start in an all-gathered vector:
  /// what gather_all needs, kept current with the vertex count.
  const std::vector<std::int64_t>& rank_counts() const noexcept { return counts_; }
  const array<std::int64_t, Space>& rank_offsets() const noexcept { return offsets_; }
  /// How an SpMV's x reaches the rows (distributed/dist_exchange.hpp); auto by default. Collective
  /// where it changes the choice: every rank sets the same mode.
  void set_exchange(x_exchange_mode m) { xmode_ = m; }
  /// Collective: the exchange plan for the graph as it is (built again after a batch).
  const x_exchange_plan<Space>& exchange_plan() const;
  /// Collective: this rank's rows split by column owner for the sparse exchange
  /// (distributed/dist_split.hpp), kept until the next batch; the SpMV reads them.
  std::shared_ptr<const dist_split_rows<V, Space>> split() const;

 private:
  void set_vertices(vertex_t n);
  /// One part of a batch (insertions or deletions) as this rank holds it in Space: checked, keyed
  /// (local row << 32 | column) and ordered by owner, `count` edges for each rank; weights only
  /// where they travel (a valued graph's insertions: 1 where none were given).
  struct staged {
    detail::batch_check check;
    array<std::int64_t, Space> key;
    array<double, Space> weight;
    std::vector<std::int64_t> count;
  };
  staged stage(const edge_list& e, bool insertions) const;
  /// Collective: throws the batch_error of the first bad edge of any rank, if there is one.
  void reject_bad(const detail::batch_check& ins, const detail::batch_check& del) const;
  /// A share routed to this rank, in Space.
  struct routed {
    array<std::int64_t, Space> key;
    array<double, Space> weight;
  };
  /// Collective: every rank's staged parts to their owners.
  std::pair<routed, routed> route(const staged& ins, const staged& del);
  coo_matrix<V, Space> batch_of(const routed& r) const;

  communicator* comm_;
  orientation orient_;
  row_partition part_;
  array<vertex_t, Space> starts_;
  vertex_t n_ = 0;
  std::vector<std::int64_t> counts_;
  array<std::int64_t, Space> offsets_;
  dcsr_matrix<V, Space> store_;
  std::int64_t batches_ = 0;
  x_exchange_mode xmode_ = x_exchange_mode::automatic;
  bool time_steps_ = false;
  mutable std::shared_ptr<const x_exchange_plan<Space>> plan_;
  mutable std::shared_ptr<const dist_split_rows<V, Space>> split_;
};

/// @brief Collective: y = A x over semiring Sr, both vectors distributed as A's vertices (each
///        rank's local_vertices() entries, in local order). With the sparse exchange each rank
///        multiplies its own columns' entries while the others' x is in flight, then the rest
///        (split(); y = own · x ⊕ remote · received); with the all-gather, its rows by the whole x.
///        Exact semirings give one rank's result to the bit. x_local and y_local must differ.
template <class Sr, class V, class Space>
void spmv(const dist_graph<V, Space>& A, const array<typename Sr::value_type, Space>& x_local,
          array<typename Sr::value_type, Space>& y_local);

/// @brief Collective: every rank's entries of a distributed vector, in global order, on every rank.
template <class T, class V, class Space>
array<T, Space> gather_all(const dist_graph<V, Space>& A, const array<T, Space>& local);

/// The sparse exchange's values in flight: `recv` holds, after wait(), the entries of x this rank's
/// rows name that other ranks own, in the plan's order (the columns of split().remote). Work queued
/// before wait() overlaps the transfer (NCCL); the destructor waits too, so no path (an exception
/// included) frees the buffers while the transfer may still use them.
template <class T, class Space>
class x_in_flight {
 public:
  x_in_flight(communicator& c, std::size_t out, std::size_t in) : comm_(&c), send(out), recv(in) {}
  x_in_flight(x_in_flight&& o) noexcept
      : comm_(o.comm_), pending_(std::exchange(o.pending_, false)), send(std::move(o.send)), recv(std::move(o.recv)) {}
  x_in_flight(const x_in_flight&) = delete;
  x_in_flight& operator=(const x_in_flight&) = delete;
  x_in_flight& operator=(x_in_flight&&) = delete;
  ~x_in_flight() {
    try {
      wait();
    } catch (...) {  // a destructor does not throw; the error was or will be reported elsewhere
    }
  }
  /// Orders the work queued after it behind the arrival (no host wait on NCCL). Idempotent.
  void wait() {
    if (pending_) pending_ = false, comm_->alltoallv_finish();
  }
  void started() noexcept { pending_ = true; }

 private:
  communicator* comm_;
  bool pending_ = false;

 public:
  array<T, Space> send, recv;
};
/// @brief Collective: packs and starts the sparse exchange of A's plan (which must be sparse).
template <class T, class V, class Space>
x_in_flight<T, Space> start_x_exchange(const dist_graph<V, Space>& A, const array<T, Space>& local);

/// @brief Collective: y = own · x_local ⊕ remote · received over semiring Sr, for any reader of the
///        split rows (split(); the store's kernels, or views of them): the exchange is started,
///        own(x_local, y) runs while it is in flight, then, when `remote` is given, remote(received,
///        part) and the join. part: scratch of local_vertices() entries (kept by an iterative caller).
template <class Sr, class V, class Space, class Own, class Remote>
void multiply_split(const dist_graph<V, Space>& A, const array<typename Sr::value_type, Space>& x_local,
                    array<typename Sr::value_type, Space>& y, array<typename Sr::value_type, Space>& part, Own&& own,
                    Remote&& remote) {
  x_in_flight<typename Sr::value_type, Space> f = start_x_exchange(A, x_local);
  own(x_local, y);
  f.wait();
  if (!remote) return;
  if (part.size() != y.size()) part = array<typename Sr::value_type, Space>(y.size());
  remote(f.recv, part);
  detail::dist_kernels<Space>::template join<Sr>(part.data(), std::int64_t(y.size()), y.data());
}

}  // namespace fg
