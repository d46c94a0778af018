// The implementation behind fluxgraph::graph: one engine graph (out-edges) per value type V
// (pattern or double) and space S (the device system, or the sequential host twin), and the
// in-edge copies PageRank reads, made on its first run and updated by every batch after it.
// Its members are defined in api/store_*.cpp, each instantiated for the four (V, S).
#pragma once
#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/dynamic_pagerank.hpp"
#include "algorithms/pagerank.hpp"
#include "read/reader.hpp"
#include "stream/defrag_policy.hpp"
#include "stream/graph.hpp"
#include "stream/id_map.hpp"
#include "fluxgraph/graph.hpp"

namespace fluxgraph {

struct graph::impl {
  virtual ~impl() = default;
  virtual batch_result apply(const edge_span<std::int32_t>* ins, const edge_span<std::int32_t>* del) = 0;
  virtual batch_result apply(const edge_span<std::int64_t>* ins, const edge_span<std::int64_t>* del) = 0;
  virtual void resize(vertex_id n) = 0;
  virtual void defragment() = 0;
  virtual defrag_decision maybe_defragment(double reads) = 0;
  virtual vertex_id vertices() const = 0;
  virtual std::int64_t edges() const = 0;
  virtual bool weighted() const = 0;
  virtual std::string backend() const = 0;
  virtual std::uint64_t version() const = 0;
  virtual std::vector<std::int64_t> out_degree() const = 0;
  virtual std::vector<vertex_id> neighbors(vertex_id v) const = 0;
  virtual csr to_csr() const = 0;
  virtual host_rows host_view() const = 0;
  virtual void spmv(const double* x, double* y, semiring s, memory where) const = 0;
  virtual pagerank_result pagerank(const pagerank_options& o) = 0;
  virtual std::unique_ptr<impl> closure(closure_info* info, const closure_progress& progress) const = 0;
  virtual csr reach(const std::vector<vertex_id>& sources, closure_info* info, const closure_progress& progress) const = 0;
  virtual bfs_result bfs(vertex_id source) = 0;
  virtual sssp_result sssp(vertex_id source, double delta) const = 0;
  virtual wcc_result wcc() const = 0;
  virtual cdlp_result cdlp(int iterations) const = 0;
  virtual lcc_result lcc() const = 0;
  virtual triangle_result triangles(bool per_vertex) const = 0;
  virtual graph_profile profile() const = 0;
  virtual read_plan plan_reads(double reads, const std::string& kernel) const = 0;
  virtual std::int64_t batches() const = 0;  ///< batches taken so far
  device where = device::automatic;
  /// graph_options::ids = renumber: the caller's id of each vertex, and back (null: dense ids).
  std::unique_ptr<fg::id_map> vertex_map;
};

namespace api {

/// Whether this is the CUDA build: else device::cuda is refused, device::cpu is the device store,
/// and "device memory" is host memory.
constexpr bool cuda_build =
#if defined(FG_WITH_CUDA)
    true;
#else
    false;
#endif

/// The largest vertex id a dense batch may name: vertex numbers are 32-bit and n = id + 1 must fit.
constexpr std::int64_t max_id = std::numeric_limits<std::int32_t>::max() - 1;

/// The error for edge `edge` of batch `batch` whose id `v` is outside [0, max_id]: one message for a
/// bad id wherever a batch is read (a renumbering graph or stream refuses only negative ones).
inline batch_error bad_id(std::int64_t batch, std::int64_t edge, std::int64_t v) {
  return batch_error(batch, edge, v < 0 ? "negative vertex id " + std::to_string(v)
                                        : "vertex id " + std::to_string(v) + " is past the largest id, 2^31 - 2");
}

/// Throws bad_id for the first of n host edges with a negative id (what renumbering refuses).
template <class I>
void check_not_negative(const I* src, const I* dst, std::size_t n, std::int64_t batch) {
  for (std::size_t i = 0; i < n; ++i)
    if (src[i] < 0 || dst[i] < 0) throw bad_id(batch, std::int64_t(i), std::min<std::int64_t>(src[i], dst[i]));
}

template <class V, class S>
class store final : public graph::impl {
 public:
  using value_type = V;
  using space = S;
  store(vertex_id n, const graph_options& opt);
  /// Adopts R (an out-edge store), e.g. a closure.
  store(fg::dcsr_matrix<V, S>&& R, const graph_options& opt);

  batch_result apply(const edge_span<std::int32_t>* ins, const edge_span<std::int32_t>* del) override {
    return apply_ids(ins, del);
  }
  batch_result apply(const edge_span<std::int64_t>* ins, const edge_span<std::int64_t>* del) override {
    return apply_ids(ins, del);
  }
  void resize(vertex_id n) override;
  void defragment() override { g_.defragment(); }
  defrag_decision maybe_defragment(double reads) override;
  vertex_id vertices() const override { return g_.num_vertices(); }
  std::int64_t edges() const override { return g_.num_edges(); }
  bool weighted() const override { return !fg::is_pattern_v<V>; }
  std::string backend() const override;
  std::uint64_t version() const override { return g_.store().version(); }
  std::vector<std::int64_t> out_degree() const override;
  std::vector<vertex_id> neighbors(vertex_id v) const override;
  csr to_csr() const override;
  host_rows host_view() const override;
  void spmv(const double* x, double* y, semiring s, memory where) const override;
  pagerank_result pagerank(const pagerank_options& o) override;
  std::unique_ptr<graph::impl> closure(closure_info* info, const closure_progress& progress) const override;
  csr reach(const std::vector<vertex_id>& sources, closure_info* info, const closure_progress& progress) const override;
  bfs_result bfs(vertex_id source) override;
  sssp_result sssp(vertex_id source, double delta) const override;
  wcc_result wcc() const override;
  cdlp_result cdlp(int iterations) const override;
  lcc_result lcc() const override;
  triangle_result triangles(bool per_vertex) const override;
  graph_profile profile() const override;
  read_plan plan_reads(double reads, const std::string& kernel) const override;
  std::int64_t batches() const override { return g_.store().stats().batches; }

  // What an algorithm written over the store (api::visit) reads.
  const fg::graph<V, S>& out() const noexcept { return g_; }
  /// The unweighted in-edge copy (PageRank's, BFS's pull), built on first use.
  const fg::dcsr_matrix<fg::pattern, S>& in_pattern();
  /// The weighted in-edge copy (V = double; PageRank with pagerank_options::weighted), built on first use.
  const fg::dcsr_matrix<V, S>& in_weighted();
  /// Where the graph's memory goes: the out-edge store, the in-edge copies, the kept PageRank, the
  /// read views (the caller adds the id map's host bytes).
  memory_report memory_use() const;

 private:
  template <class I>
  batch_result apply_ids(const edge_span<I>* ins, const edge_span<I>* del);
  /// The span as a batch in the store's orientation (row = src); `values` only for inserts.
  template <class I>
  fg::coo_matrix<V, S> batch(const edge_span<I>& e, bool values) const;
  /// Brings the in-edge copies up to the batch the out-edge store just took (a copy that fails to
  /// follow is dropped: PageRank rebuilds it).
  void follow(fg::coo_matrix<V, S>* ins, fg::coo_matrix<V, S>* del);
  /// PageRank kept current by dynamic_pagerank (pattern graphs, pagerank_options::warm).
  pagerank_result kept_pagerank(const pagerank_options& p);
  /// R as a pattern store (the closure's input): the store itself, or an unweighted copy.
  const fg::dcsr_matrix<fg::pattern, S>& pattern_store(std::optional<fg::dcsr_matrix<fg::pattern, S>>& copy) const;

  graph_options opt_;
  fg::graph<V, S> g_;
  fg::defrag_policy policy_;
  // PageRank's in-edge copies: unweighted, and (V = double) weighted.
  std::unique_ptr<fg::graph<fg::pattern, S>> in_pattern_;
  std::unique_ptr<fg::graph<V, S>> in_weighted_;
  pagerank_result last_;  ///< the warm start
  bool last_weighted_ = false;
  double last_damping_ = -1;
  /// Unweighted PageRank kept current (pattern graphs, warm): fed every batch (before(), after()),
  /// updated when asked (algorithms/dynamic_pagerank.hpp). Made at the first such PageRank, and
  /// again when its damping or tolerance change.
  std::unique_ptr<fg::dynamic_pagerank<S>> kept_;
  pagerank_options kept_opt_;
  bool keep_last_ = false;  ///< last_ is a warm PageRank of the graph as it is: kept_ starts from it at the next batch
  /// spmv's plus-times reads, through the engine's reader (the store, or a view once it pays); a
  /// const read may come from several threads, so the reader is behind a lock.
  struct reads {
    std::mutex lock;
    fg::reader<V, S> reader;
  };
  std::unique_ptr<reads> reads_ = std::make_unique<reads>();
};

/// @brief f(store) with the graph's store as its own type (store<V, S>&): an algorithm of the
///        facade written once for the four stores, in one file, with no virtual of its own.
template <class F>
decltype(auto) visit(graph::impl& p, F&& f) {
  using fg::device_space, fg::host_space, fg::pattern;
  if (auto* s = dynamic_cast<store<pattern, device_space>*>(&p)) return f(*s);
  if (auto* s = dynamic_cast<store<double, device_space>*>(&p)) return f(*s);
  if (auto* s = dynamic_cast<store<pattern, host_space>*>(&p)) return f(*s);
  return f(dynamic_cast<store<double, host_space>&>(p));
}

/// r, marked as warm-started (from the last scores) or not.
pagerank_result warm_started(pagerank_result r, bool warm);

/// Device helpers (api/device/convert.cpp): int64 ids to int32 in device memory; the index of the
/// first id outside [0, 2^31 - 2], or -1. And double <-> 0/1 byte vectors (or_and SpMV).
std::int64_t narrow_ids_on_device(const std::int64_t* in, std::int32_t* out, std::size_t n);
void flags_on_device(const double* x, std::uint8_t* f, std::size_t n);
void unflag_on_device(const std::uint8_t* f, double* y, std::size_t n);

}  // namespace api
}  // namespace fluxgraph

/// M(V, S) for the four stores a graph can be (each api/store_*.cpp instantiates its members).
#define FG_API_FOR_EACH_STORE(M)                                                   \
  M(::fg::pattern, ::fg::host_space) M(::fg::pattern, ::fg::device_space)          \
  M(double, ::fg::host_space) M(double, ::fg::device_space)
