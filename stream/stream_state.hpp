// The stream session's state, private to the two files that define its members:
// stream/stream_session.cpp (batches, analyses, the session's calls) and stream/stream_durable.cpp
// (the journal: recovery, logging, snapshots a part at a time).
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/closure.hpp"
#include "stream/stream_session.hpp"

namespace fg {
namespace stream_detail {
using clock_type = std::chrono::steady_clock;
inline double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

inline bool compact(const stream_options& o) { return o.pagerank_per_batch && o.memory_footprint == fluxgraph::footprint::compact; }
// PageRank pulls along in-edges with no atomics, so any PageRank means an in-edge store, but for the
// compact footprint's kept PageRank, which reads the out-edges both ways; a closure alone keeps
// out-edges. (The closure of the in-edge store is the reversed closure: as many pairs.)
inline orientation orientation_for(const stream_options& o) {
  return (o.pagerank_per_batch || o.pagerank_at_end) && !compact(o) ? orientation::in : orientation::out;
}
// With PageRank kept current the store holds in-edges beside the mirror's out-edges (paired_config),
// or the out-edges alone (compact_config).
inline dcsr_config store_config(const stream_options& o) {
  if (compact(o)) return compact_config();
  return o.pagerank_per_batch ? paired_config({}, orientation_for(o)) : dcsr_config{};
}
}  // namespace stream_detail

template <class S>
struct stream_session<S>::state {
  stream_options opt;
  defrag_policy policy;    // asked after every batch and in finish()
  pagerank_options quiet;  // the per-batch runs: no progress line
  fg::graph<pattern, S> g;
  // The store in the other orientation (out-edges when g holds in-edges), kept by the same batches
  // for the analyses that need both: PageRank's pushes, the applications. Built from g when first
  // needed, and again after a batch that reached one store and not the other.
  std::unique_ptr<fg::graph<pattern, S>> mirror;
  std::unique_ptr<dynamic_pagerank<S>> dyn;  // per-batch PageRank
  dcsr_matrix<pattern, S> plus;  // R⁺ of the store (closure)
  std::unique_ptr<stream_apps<S>> apps;  // BFS, SSSP, WCC, triangles (stream_options::bfs_source, ...)
  pagerank_result last;          // finish()'s cold run, or the per-batch scores gathered
  bool gathered = false;         // per batch: last holds the latest batch's scores
  const pagerank_result* scores = nullptr;
  stream_totals totals;
  double reads = -1;  // SpMVs expected before the next batch; < 0: not known yet
  std::unique_ptr<journal> log;  // a durable session's
  recovery_report recovered;
  std::vector<std::int64_t> ids;  // dense -> input id, from the batches' origins
  std::int64_t lines = 0;         // edge lines consumed
  std::int64_t unscored = 0;      // batches the kept PageRank seeded since its last update

  state(const stream_options& o, vertex_t n)
      : opt(o), policy(make_defrag_policy(o.defrag, o.layout)), quiet(silenced(o.pagerank)), g(stream_detail::orientation_for(o), n, stream_detail::store_config(o)) {
    FG_EXPECTS(n >= 0, "stream_session: negative vertex count");
    FG_EXPECTS(!o.compare || o.pagerank_per_batch || o.closure || keeps_apps(o),
               "stream_session: compare goes with per-batch PageRank, the closure or a graph application");
    FG_EXPECTS(o.expected_reads >= 0, "stream_session: expected reads must be >= 0");
    FG_EXPECTS(o.pagerank_every >= 1, "stream_session: pagerank_every must be >= 1");
    FG_EXPECTS(o.pagerank_per_batch || (o.pagerank_every == 1 && o.memory_footprint == fluxgraph::footprint::fast),
               "stream_session: pagerank_every and the compact footprint go with per-batch PageRank");
    if (!o.durability.dir.empty()) recover();
    if (o.closure) plus = transitive_closure(g.store());
    if (keeps_apps(o)) apps = std::make_unique<stream_apps<S>>(o);
    if (o.pagerank_per_batch) dyn = std::make_unique<dynamic_pagerank<S>>(quiet);
  }
  static pagerank_options silenced(pagerank_options p) {
    p.progress = nullptr;
    return p;
  }

  // The reads before the next batch: the per-batch PageRank's last (its pushes read a share of the
  // out-edges, not g; a run from scratch reads g once an iteration; a cold run's a priori count
  // before the first, for the vertices there are now), else the caller's figure.
  double expected_reads() const {
    if (!opt.pagerank_per_batch) return opt.expected_reads;
    return reads >= 0 ? reads : pagerank_expected_reads(opt.pagerank, g.num_vertices());
  }

  void recover();
  void restore(const snapshot& base);
  void log_batch(const edge_list& ins, const edge_list& del, batch_order order, const batch_origin& origin, batch_report& r);
  void snapshot_now(batch_report* r);
  // A snapshot gathered a part at a time after the batches (docs/durability.md, "Snapshots a part
  // at a time"): begun after batch `batch`, rows [0, next) copied, each part as the store was then.
  struct partial {
    std::int64_t batch = 0, lines = 0;
    vertex_t next = 0;
    std::vector<offset_t> row_ptr{0};
    std::vector<vertex_t> col;
  };
  std::unique_ptr<partial> pending;
  // A stream that ends with a snapshot begun: copied whole now, since the stream stops anyway
  // (best effort: the logs hold every batch).
  ~state() {
    try {
      if (pending && log) {
        while (!gather_part()) {
        }
        write_gathered();
      }
    } catch (...) {
    }
  }
  void snapshot_step(batch_report& r);
  bool gather_part();
  void write_gathered();
  void update_store(const edge_list& ins, const edge_list& del, batch_order order, batch_report& r,
                    coo_matrix<pattern, S>& added);
  void analyse(const coo_matrix<pattern, S>& added, batch_report& r);
  void run_apps(const edge_list& ins, const edge_list& del, batch_order order, batch_report& r) {
    if (apps)
      apps->update(r, g, *mirror, ins, del, order == batch_order::inserts_then_deletes, ids, r.batch, opt.compare);
  }
  // The mirror: for the applications, and for PageRank unless the store holds its out-edges alone.
  bool mirrored() const { return apps || (dyn && g.oriented() == orientation::in); }
  // What the kept PageRank reads: the out-edges (pushes, the batches' pairs) and the in-edges where
  // kept (pulls; null: it reads the out-edges both ways).
  const fg::graph<pattern, S>& out_graph() const { return g.oriented() == orientation::out ? g : *mirror; }
  const dcsr_matrix<pattern, S>* in_store() const {
    if (g.oriented() == orientation::in) return &g.store();
    return mirror ? &mirror->store() : nullptr;
  }
  void score(batch_report& r);
  // The mirror as g is now (a copy with rows and columns swapped).
  void build_mirror() {
    const vertex_t n = g.num_vertices();
    const orientation other = g.oriented() == orientation::out ? orientation::in : orientation::out;
    mirror = std::make_unique<fg::graph<pattern, S>>(
        other, dcsr_matrix<pattern, S>::from_coo(reversed<pattern>(g.store().to_coo()), n, n,
                                                 paired_config(g.store().config(), other)));
  }
  void grow(vertex_t n) {
    if (n > g.num_vertices()) g.grow(n);
    if (mirror) mirror->grow(g.num_vertices());
  }
  // A batch reached g and not (all of) the mirror, or the analyses' state: start them over.
  void lost_track() {
    mirror.reset();
    if (dyn) {
      dyn->invalidate();
      if (scores == &last) scores = nullptr, gathered = false;  // none until the next batch's
    }
    if (apps) apps->invalidate();
  }
  void close(const coo_matrix<pattern, S>& added, batch_report& r);
  void add_up(const batch_report& r);
  void add_pagerank(const batch_report& r);
  // The per-batch scores on the host (once a batch).
  const pagerank_result& gather() {
    if (!gathered) last = dyn->result(), gathered = true;
    return last;
  }
};

}  // namespace fg
