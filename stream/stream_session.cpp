// The streaming session: store update, defragmentation policy, per-batch analyses, timings.
#include "stream/stream_session.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "algorithms/closure.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "loaders/graph_file.hpp"

namespace fg {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// The pairs of two stores as sets: a DCSR row keeps its entries in arrival order, so rows are
// sorted before they are compared.
template <class S>
bool same_pairs(const dcsr_matrix<pattern, S>& a, const dcsr_matrix<pattern, S>& b) {
  if (a.nnz() != b.nnz() || a.rows() != b.rows()) return false;
  const auto sorted = [](const dcsr_matrix<pattern, S>& m) {
    const csr_matrix<pattern, S> c = m.to_csr();
    const std::vector<offset_t> rp = to_vector(c.row_ptr);
    std::vector<vertex_t> col = to_vector(c.col);
    for (std::size_t i = 0; i + 1 < rp.size(); ++i) std::sort(col.begin() + rp[i], col.begin() + rp[i + 1]);
    return std::make_pair(rp, col);
  };
  return sorted(a) == sorted(b);
}

bool compact(const stream_options& o) { return o.pagerank_per_batch && o.memory_footprint == fluxgraph::footprint::compact; }
// PageRank pulls along in-edges with no atomics, so any PageRank means an in-edge store, but for the
// compact footprint's kept PageRank, which reads the out-edges both ways; a closure alone keeps
// out-edges. (The closure of the in-edge store is the reversed closure: as many pairs.)
orientation orientation_for(const stream_options& o) {
  return (o.pagerank_per_batch || o.pagerank_at_end) && !compact(o) ? orientation::in : orientation::out;
}
// With PageRank kept current the store holds in-edges beside the mirror's out-edges (paired_config),
// or the out-edges alone (compact_config).
dcsr_config store_config(const stream_options& o) {
  if (compact(o)) return compact_config();
  return o.pagerank_per_batch ? paired_config({}, orientation_for(o)) : dcsr_config{};
}
}  // namespace

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
      : opt(o), policy(make_defrag_policy(o.defrag, o.layout)), quiet(silenced(o.pagerank)), g(orientation_for(o), n, store_config(o)) {
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
    coo_matrix<pattern, S> c = g.store().to_coo();
    coo_matrix<pattern, S> t;
    t.nnz = c.nnz;
    t.row = std::move(c.col);
    t.col = std::move(c.row);
    const vertex_t n = g.num_vertices();
    const orientation other = g.oriented() == orientation::out ? orientation::in : orientation::out;
    mirror = std::make_unique<fg::graph<pattern, S>>(
        other, dcsr_matrix<pattern, S>::from_coo(t, n, n, paired_config(g.store().config(), other)));
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
  // The per-batch scores on the host (once a batch).
  const pagerank_result& gather() {
    if (!gathered) last = dyn->result(), gathered = true;
    return last;
  }
};

// The store update of one batch, timed, then the mirror's (untimed: the analyses' share); the
// closure keeps the oriented insert batch (its Δ₀). PageRank sees the mirror before and after.
template <class S>
void stream_session<S>::state::update_store(const edge_list& ins, const edge_list& del, batch_order order,
                                            batch_report& r, coo_matrix<pattern, S>& added) {
  added = g.batch(ins.src, ins.dst, ins.weight);
  const coo_matrix<pattern, S> removed = g.batch(del.src, del.dst);
  std::optional<coo_matrix<pattern, S>> mi, md;
  if (mirror) mi = mirror->batch(ins.src, ins.dst), md = mirror->batch(del.src, del.dst);
  const bool out_is_g = g.oriented() == orientation::out;
  if (dyn) dyn->before(out_graph().store(), out_is_g ? &added : &*mi, out_is_g ? &removed : &*md);
  g.take(added, removed, order, &r);  // throws with g unchanged (or its inserts in)
  if (mirror && !follow(mirror, &*mi, &*md, g.num_vertices(), order)) {
    lost_track();  // g holds the batch: the mirror is rebuilt from it when next needed
    return;
  }
  if (!dyn) return;
  // The batch's seed moves y: with updates every few batches, the certified scores of the last
  // one are gathered first (scores() gives them until the next).
  if (opt.pagerank_every > 1 && scores == &last && !gathered) gather();
  dyn->after(out_graph().store());
}

// A durable session's start: the journal's snapshot, then its log's batches (store updates only:
// the analyses start from the rebuilt graph, the closure from scratch).
template <class S>
void stream_session<S>::state::recover() {
  const auto t = clock_type::now();
  log = std::make_unique<journal>(opt.durability);
  journal_recovery jr = log->take_recovery();
  restore(jr.base);
  recovered.snapshot_batch = jr.base.stream_batches;
  edge_list ins, del;
  for (wal_record& w : jr.records) {
    ins.src = std::move(w.ins_src), ins.dst = std::move(w.ins_dst);
    del.src = std::move(w.del_src), del.dst = std::move(w.del_dst);
    batch_report ignored;
    coo_matrix<pattern, S> added;
    update_store(ins, del, w.inserts_first ? batch_order::inserts_then_deletes : batch_order::deletes_first, ignored, added);
    if (w.vertices > g.num_vertices()) g.grow(w.vertices);
    // The batch's new vertices are numbered from w.vertices - new_ids; a snapshot gathered a part
    // at a time may hold some of them already (and their ids).
    const std::size_t first = std::size_t(w.vertices) - w.new_ids.size(), have = ids.size();
    ids.insert(ids.end(), w.new_ids.begin() + std::ptrdiff_t(std::min(have > first ? have - first : 0, w.new_ids.size())),
               w.new_ids.end());
    lines = w.lines;
    totals.batches = w.batch;
  }
  memory::synchronize();
  recovered.durable = true;
  recovered.snapshot_path = jr.snapshot_path;
  recovered.replayed = std::int64_t(jr.records.size());
  recovered.batches = totals.batches;
  recovered.lines = lines;
  recovered.torn_bytes = jr.torn_bytes;
  recovered.lost_batches = jr.lost_batches;
  recovered.warnings = std::move(jr.warnings);
  recovered.seconds = since(t);
}

// The snapshot's graph as one insert batch, compacted; its ids and position.
template <class S>
void stream_session<S>::state::restore(const snapshot& base) {
  lost_track();  // the mirror and the analyses follow the store's batches, and this is none
  if (base.vertices > g.num_vertices()) g.grow(vertex_t(base.vertices));
  const std::vector<vertex_t> src = entry_rows(base);
  if (!src.empty()) {
    g.insert(g.batch(src, base.col));
    g.defragment();
  }
  ids = base.original_id;
  lines = base.stream_lines;
  totals.batches = base.stream_batches;
}

// The batch into the journal, as applied: what replay will apply again.
template <class S>
void stream_session<S>::state::log_batch(const edge_list& ins, const edge_list& del, batch_order order,
                                         const batch_origin& origin, batch_report& r) {
  const auto t = clock_type::now();
  wal_record w;
  w.batch = r.batch;
  w.lines = lines + (origin.lines >= 0 ? origin.lines : std::int64_t(ins.size() + del.size()));
  w.vertices = g.num_vertices();
  w.inserts_first = order == batch_order::inserts_then_deletes;
  if (origin.new_ids) w.new_ids = *origin.new_ids;
  w.ins_src = ins.src, w.ins_dst = ins.dst, w.del_src = del.src, w.del_dst = del.dst;
  log->append(w);
  lines = w.lines;
  ids.insert(ids.end(), w.new_ids.begin(), w.new_ids.end());
  r.log_seconds = since(t);
}

namespace {
// The store's arrays as CSR, and what a snapshot of them needs: taken at once (the store changes
// with the next batch) as a CSR of its own, in the store's space; the copy to the host and the
// snapshot are made from it later, off the stream's thread (a host copy there cost a third of a
// snapshot batch's pause).
template <class S>
struct store_copy {
  csr_matrix<pattern, S> c;       // the store's CSR, or (empty) rp and col on the host already
  std::vector<offset_t> rp;
  std::vector<vertex_t> col;
  bool in_edges = false;
  snapshot head;  // vertices, ids, position; no arrays yet

  // The snapshot in the file's direction (in-edges, row = target, transposed to rows = sources).
  snapshot build() {
    snapshot s = std::move(head);
    if (rp.empty()) {
      rp = to_vector(c.row_ptr);
      col = to_vector(c.col);
      c = {};
    }
    if (!in_edges) {
      s.row_ptr.assign(rp.begin(), rp.end());
      s.col = std::move(col);
      return s;
    }
    s.row_ptr.assign(std::size_t(s.vertices) + 1, 0);
    for (const vertex_t u : col) ++s.row_ptr[std::size_t(u) + 1];
    for (std::size_t v = 0; v < std::size_t(s.vertices); ++v) s.row_ptr[v + 1] += s.row_ptr[v];
    s.col.resize(col.size());
    std::vector<std::int64_t> next(s.row_ptr.begin(), s.row_ptr.end() - 1);
    for (std::size_t v = 0; v + 1 < rp.size(); ++v)
      for (offset_t i = rp[v]; i < rp[v + 1]; ++i) s.col[std::size_t(next[std::size_t(col[std::size_t(i)])]++)] = vertex_t(v);
    return s;
  }
};

template <class S>
store_copy<S> copy_store(const fg::graph<pattern, S>& g, const std::vector<std::int64_t>& ids, std::int64_t batches,
                         std::int64_t lines) {
  store_copy<S> k;
  k.c = g.store().to_csr();
  k.in_edges = g.oriented() == orientation::in;
  k.head.vertices = g.num_vertices();
  if (ids.size() == std::size_t(k.head.vertices)) k.head.original_id = ids;
  k.head.stream_batches = batches;
  k.head.stream_lines = lines;
  return k;
}
}  // namespace

// The store as a snapshot in the file's direction, with the ids when every vertex has one.
template <class S>
snapshot stream_session<S>::to_snapshot() const {
  return copy_store(s_->g, s_->ids, s_->totals.batches, s_->lines).build();
}

// A durable session's snapshot: the copy here, the rest on the journal's thread.
template <class S>
void stream_session<S>::state::snapshot_now(batch_report* r) {
  pending.reset();  // the journal starts this one instead
  const auto t = clock_type::now();
  auto k = std::make_shared<store_copy<S>>(copy_store(g, ids, totals.batches, lines));
  log->write_snapshot(totals.batches, [k] { return k->build(); });
  if (r) r->snapshot = true, r->snapshot_seconds = since(t);
}

// After a durable session's batch: a snapshot begun when one is due, then a part of it copied.
// Copying a 95 M-edge store whole took the 2-core CPU build 0.7-1.7 s, a pause for every batch
// behind it; a part is a few milliseconds (docs/durability.md, "Snapshots a part at a time").
template <class S>
void stream_session<S>::state::snapshot_step(batch_report& r) {
  if (!pending) {
    if (!log->snapshot_due() || !log->begin_snapshot(totals.batches)) return;
    pending = std::make_unique<partial>();
    pending->batch = totals.batches;
    pending->lines = lines;
  }
  const auto t = clock_type::now();
  if (pending->batch == totals.batches) r.snapshot = true;  // begun here
  if (gather_part()) write_gathered();
  r.snapshot_seconds = since(t);
}

// The next rows, about snapshot_part entries of them; true when every row of the store is copied.
template <class S>
bool stream_session<S>::state::gather_part() {
  partial& p = *pending;
  const dcsr_matrix<pattern, S>& A = g.store();
  const vertex_t rows = A.rows();
  const double part = double(opt.durability.snapshot_part);
  const auto step = std::int64_t(std::max(1.0, part * double(rows) / std::max(1.0, double(A.nnz()))));
  if (p.next < rows) {
    const auto end = vertex_t(std::min<std::int64_t>(rows, std::int64_t(p.next) + step));
    const csr_matrix<pattern, S> c = A.to_csr(p.next, end);
    const std::vector<offset_t> rp = to_vector(c.row_ptr);
    const offset_t base = p.row_ptr.back();
    for (std::size_t k = 1; k < rp.size(); ++k) p.row_ptr.push_back(base + rp[k]);
    const std::vector<vertex_t> col = to_vector(c.col);
    p.col.insert(p.col.end(), col.begin(), col.end());
    p.next = end;
  }
  return p.next >= rows;
}

// The gathered rows as the snapshot of the batch it was begun after, written on the journal's
// thread; the vertices and ids are those of now (a superset: replay finds them there).
template <class S>
void stream_session<S>::state::write_gathered() {
  auto k = std::make_shared<store_copy<S>>();
  k->head.vertices = g.num_vertices();
  k->rp = std::move(pending->row_ptr);
  k->rp.resize(std::size_t(k->head.vertices) + 1, k->rp.back());  // rows past the store's: empty
  k->col = std::move(pending->col);
  k->in_edges = g.oriented() == orientation::in;
  if (ids.size() == std::size_t(k->head.vertices)) k->head.original_id = ids;
  k->head.stream_batches = pending->batch;
  k->head.stream_lines = pending->lines;
  pending.reset();
  log->write_snapshot(k->head.stream_batches, [k] { return k->build(); });
}

// After the store update: the defragmentation policy, then PageRank and the closure.
template <class S>
void stream_session<S>::state::analyse(const coo_matrix<pattern, S>& added, batch_report& r) {
  if (mirrored() && !mirror) build_mirror();  // lost with a batch that reached g alone
  auto t = clock_type::now();
  r.defrag = g.maybe_defragment(expected_reads(), policy);
  memory::synchronize();
  if (r.defrag.defragmented) r.defrag_seconds = since(t);
  if (opt.pagerank_per_batch && ++unscored >= opt.pagerank_every) score(r);
  if (opt.closure) close(added, r);
}

// The kept PageRank brought within its bound (every pagerank_every batches, and by finish()); with
// compare, also from scratch, and a distance past the two bounds is an error.
template <class S>
void stream_session<S>::state::score(batch_report& r) {
  if (mirrored() && !mirror) build_mirror();  // lost with a failed batch (finish() after one)
  const dynamic_pagerank_stats& pr = dyn->update(out_graph().store(), in_store());
  unscored = 0;
  r.pr_updated = true;
  r.pr_iterations = pr.cold_iterations + pr.levels;
  r.pr_seconds = pr.seconds;
  r.pr_restarted = pr.cold;
  r.pr_pulled = pr.pulled;
  r.pr_bound = pr.bound;
  r.pr_seeded_bound = pr.seeded_bound;
  r.pr_edges = pr.edges;
  // What the next update reads of g: nothing when it pushes (the pushes read a share of the
  // out-edges' rows), the graph once a sweep otherwise.
  reads = pr.cold || pr.pulled ? pr.cold_iterations : 0.0;
  gathered = false;
  scores = &last;
  if (opt.compare) {
    std::optional<dcsr_matrix<pattern, S>> t;  // the in-edges, for the check, where none are kept
    const dcsr_matrix<pattern, S>* in = in_store();
    if (!in) {
      coo_matrix<pattern, S> c = g.store().to_coo();
      std::swap(c.row, c.col);
      in = &t.emplace(dcsr_matrix<pattern, S>::from_coo(c, g.num_vertices(), g.num_vertices()));
    }
    const pagerank_result c = pagerank(*in, quiet);
    r.cold_iterations = c.iterations;
    r.cold_seconds = c.seconds + c.view_seconds;
    const std::vector<double>& kept = gather().score;
    r.pr_error = 0;
    for (std::size_t v = 0; v < kept.size(); ++v) r.pr_error += std::fabs(kept[v] - c.score[v]);
    // Both within their bounds of the fixed point: the scratch run's is d/(1-d) times its last
    // change, plus its float reads' 2^-24 (pagerank_options::mixed_precision).
    const double d = quiet.damping, scratch = d / (1 - d) * (c.last_change + std::ldexp(1.0, -24));
    if (!(r.pr_error <= r.pr_bound + scratch))
      throw error("stream --pagerank --compare: after batch " + std::to_string(r.batch) + " the kept scores are " +
                  std::to_string(r.pr_error) + " (L1) from the ones computed from scratch, past the bounds (" +
                  std::to_string(r.pr_bound) + " + " + std::to_string(scratch) + ")");
  }
}

// R⁺ extended from the batch alone (extend_closure); after deletions it is recomputed, since a
// closure cannot shrink semi-naively. compare: also from scratch, and any difference is an error.
template <class S>
void stream_session<S>::state::close(const coo_matrix<pattern, S>& added, batch_report& r) {
  closure_stats st;
  if (r.deletes > 0) {
    plus = transitive_closure(g.store(), {}, &st);
    r.closure_recomputed = true;
  } else {
    extend_closure(plus, g.store(), added, {}, &st);
    r.closure_rounds = st.iterations;
  }
  r.closure_pairs = st.pairs;
  r.closure_seconds = st.seconds;
  if (!opt.compare) return;
  closure_stats cold;
  const dcsr_matrix<pattern, S> fresh = transitive_closure(g.store(), {}, &cold);
  r.closure_scratch_seconds = cold.seconds;
  if (!same_pairs(plus, fresh))
    throw error("stream --closure --compare: after batch " + std::to_string(r.batch) + " the incremental closure (" +
                std::to_string(plus.nnz()) + " pairs) differs from the one computed from scratch (" +
                std::to_string(fresh.nnz()) + " pairs)");
}

template <class S>
void stream_session<S>::state::add_up(const batch_report& r) {
  stream_totals& t = totals;
  t.batches = r.batch;
  t.inserts += r.inserts;
  t.deletes += r.deletes;
  t.insert_seconds += r.insert_seconds;
  t.delete_seconds += r.delete_seconds;
  t.store_seconds += r.store_seconds;
  t.defragmentations += r.defrag.defragmented ? 1 : 0;
  t.defrag_seconds += r.defrag_seconds;
  t.last_defrag = r.defrag;
  t.pr_iterations += r.pr_iterations;
  t.pr_restarts += r.pr_restarted ? 1 : 0;
  t.pr_pulls += r.pr_pulled ? 1 : 0;
  t.pr_bound = std::max(t.pr_bound, r.pr_bound);
  t.pr_error = std::max(t.pr_error, r.pr_error);
  t.cold_iterations += r.cold_iterations;
  t.pr_seconds += r.pr_seconds;
  t.cold_seconds += r.cold_seconds;
  if (opt.closure) (r.closure_recomputed ? t.closure_recomputed : t.closure_extended) += 1;
  t.closure_rounds += r.closure_rounds;
  t.closure_seconds += r.closure_seconds;
  t.closure_scratch_seconds += r.closure_scratch_seconds;
  t.apps_recomputed += r.apps_recomputed;
  t.apps_seconds += r.apps_seconds;
  t.apps_scratch_seconds += r.apps_scratch_seconds;
  t.log_seconds += r.log_seconds;
  t.snapshots += r.snapshot ? 1 : 0;
  t.snapshot_seconds += r.snapshot_seconds;
}

template <class S>
stream_session<S>::stream_session(const stream_options& opt, vertex_t vertices)
    : s_(std::make_unique<state>(opt, vertices)) {}
template <class S>
stream_session<S>::~stream_session() = default;
template <class S>
stream_session<S>::stream_session(stream_session&&) noexcept = default;
template <class S>
stream_session<S>& stream_session<S>::operator=(stream_session&&) noexcept = default;

template <class S>
batch_report stream_session<S>::apply(const edge_list& ins, const edge_list& del, vertex_t vertices,
                                      batch_order order, const batch_origin& origin) {
  FG_EXPECTS(vertices >= 0, "stream_session: negative vertex count");
  state& st = *s_;
  if (st.log) st.log->check();  // a failed journal takes no batch: the store stays what the log holds
  batch_report r;
  r.batch = st.totals.batches + 1;
  r.inserts = std::int64_t(ins.size());
  r.deletes = std::int64_t(del.size());
  const dcsr_stats before = st.g.store().stats();
  coo_matrix<pattern, S> added;
  if (st.mirrored() && !st.mirror) st.build_mirror();
  const std::uint64_t content = st.g.store().version();
  bool logged = false;  // in the journal: the next batch is the one after it, whatever fails now
  const auto failed = [&] {
    // The store may hold part or all of the batch (a failed delete after its inserts, a journal
    // or an analysis that failed after the store update) that the mirror and analyses never saw.
    st.lost_track();
    if (logged) st.totals.batches = r.batch;
  };
  try {
    st.update_store(ins, del, order, r, added);
    st.grow(vertices);
    if (st.log) st.log_batch(ins, del, order, origin, r), logged = true;
    else if (origin.new_ids) st.ids.insert(st.ids.end(), origin.new_ids->begin(), origin.new_ids->end());
    if (!st.log) st.lines += origin.lines >= 0 ? origin.lines : std::int64_t(ins.size() + del.size());
    const dcsr_stats& after = st.g.store().stats();
    r.stored = after.entries_inserted - before.entries_inserted;
    r.removed = after.entries_deleted - before.entries_deleted;
    st.analyse(added, r);
    st.run_apps(ins, del, order, r);
  } catch (const out_of_memory& e) {  // named by its batch, and what the stream holds now
    failed();
    const char* holds = logged                                 ? "; the batch is applied and logged, the analyses after it did not run"
                        : st.g.store().version() == content    ? "; the store is as it was before the batch"
                        : st.log                               ? "; the store holds the batch or its inserts, not logged"
                                                               : "; the store holds the batch or its inserts, the analyses after it did not run";
    throw out_of_memory("batch " + std::to_string(r.batch) + ": " + e.what() + holds);
  } catch (...) {
    failed();
    throw;
  }
  r.edges = st.g.num_edges();
  r.vertices = st.g.num_vertices();
  st.add_up(r);
  if (st.log) st.snapshot_step(r);
  return r;
}

template <class S>
void stream_session<S>::warm_up() {
  try {
    dcsr_matrix<pattern, S> scratch(s_->g.store().config());
    // One edge takes the single-block kernels, thousands the general path (storage/cuda/dcsr_insert.cu).
    for (const std::size_t n : {std::size_t(1), std::size_t(5000)}) {
      std::vector<vertex_t> r(n), c(n);
      for (std::size_t i = 0; i < n; ++i) r[i] = vertex_t(i % 64), c[i] = vertex_t(i);
      const auto b = make_coo<pattern, S>(r, c);
      scratch.insert_batch(b);
      scratch.apply_batch(b, b);
      scratch.delete_batch(b);
    }
    scratch.defragment();
    memory::synchronize();
  } catch (const out_of_memory& e) {
    throw out_of_memory(std::string("before the first batch (a trial batch on a scratch store): ") + e.what());
  }
}

template <class S>
final_report stream_session<S>::finish() {
  state& st = *s_;
  final_report f;
  if (st.opt.pagerank_per_batch) {
    if (st.unscored > 0 && st.dyn && st.g.num_vertices() > 0) {  // batches since the last update
      batch_report r;
      r.batch = st.totals.batches;
      st.score(r);
      st.totals.pr_iterations += r.pr_iterations;
      st.totals.pr_seconds += r.pr_seconds;
      st.totals.pr_restarts += r.pr_restarted ? 1 : 0;
      st.totals.pr_pulls += r.pr_pulled ? 1 : 0;
      st.totals.pr_bound = std::max(st.totals.pr_bound, r.pr_bound);
    }
    if (st.scores) f.pagerank = &st.gather();
    return f;
  }
  if (!st.opt.pagerank_at_end) return f;
  // One read-heavy phase left: PageRank from scratch, asked of the policy like any batch boundary.
  const auto t = clock_type::now();
  f.defrag_asked = true;
  f.defrag = st.g.maybe_defragment(pagerank_expected_reads(st.opt.pagerank, st.g.num_vertices()), st.policy);
  memory::synchronize();
  if (f.defrag.defragmented) f.defrag_seconds = since(t);
  st.last = pagerank(st.g.store(), st.opt.pagerank);
  st.scores = &st.last;
  f.pagerank = st.scores;
  return f;
}

template <class S>
void stream_session<S>::checkpoint() {
  FG_EXPECTS(s_->log != nullptr, "stream_session: checkpoint needs a durable session");
  s_->snapshot_now(nullptr);
  s_->log->wait();  // asked for: whole when this returns
}
template <class S>
void stream_session<S>::seed(const snapshot& s) {
  state& st = *s_;
  if (st.totals.batches > 0 || st.g.num_edges() > 0 || !st.ids.empty())
    throw error("stream: a snapshot can only start a stream, and this one holds batches already");
  snapshot base = s;
  base.stream_batches = 0;  // the stream's own position starts here
  base.stream_lines = 0;
  st.restore(base);
  if (st.opt.closure) st.plus = transitive_closure(st.g.store());
  if (st.log) {  // whole before any batch is logged after it: the log does not hold the seed
    st.snapshot_now(nullptr);
    st.log->wait();
  }
}
template <class S>
const recovery_report& stream_session<S>::recovery() const noexcept { return s_->recovered; }
template <class S>
const std::vector<std::int64_t>& stream_session<S>::ids() const noexcept { return s_->ids; }
template <class S>
std::int64_t stream_session<S>::lines() const noexcept { return s_->lines; }
template <class S>
const fg::graph<pattern, S>& stream_session<S>::current_graph() const noexcept { return s_->g; }
template <class S>
const stream_totals& stream_session<S>::totals() const noexcept { return s_->totals; }
template <class S>
fluxgraph::memory_report stream_session<S>::memory() const {
  const state& s = *s_;
  fluxgraph::memory_report r = s.g.memory_report();
  if (s.mirror) s.mirror->account(r);
  if (s.dyn) r.parts.push_back({"kept pagerank", s.dyn->bytes()});
  if (s.opt.closure) s.plus.account(r, "closure");
  return r;
}
template <class S>
const pagerank_result& stream_session<S>::scores() const {
  static const pagerank_result none;
  if (s_->scores == &s_->last && s_->opt.pagerank_per_batch) return s_->gather();
  return s_->scores ? *s_->scores : none;
}

template <class S>
std::vector<std::pair<vertex_t, double>> stream_session<S>::top(std::size_t k) const {
  if (s_->opt.pagerank_per_batch && s_->scores && !s_->gathered) return s_->dyn->top(k);
  const std::vector<double>& score = scores().score;
  std::vector<std::pair<vertex_t, double>> best(score.size());
  for (std::size_t v = 0; v < score.size(); ++v) best[v] = {vertex_t(v), score[v]};
  best_first(best, k);
  return best;
}
template <class S>
const dcsr_matrix<pattern, S>& stream_session<S>::closure() const {
  FG_EXPECTS(s_->opt.closure, "stream_session: the closure was not asked for");
  return s_->plus;
}

template <class S>
std::vector<std::pair<vertex_t, vertex_t>> stream_session<S>::edges() const {
  const auto coo = s_->g.store().to_coo();
  const auto row = to_vector(coo.row), col = to_vector(coo.col);
  const bool in = s_->g.oriented() == orientation::in;  // row = target
  std::vector<std::pair<vertex_t, vertex_t>> e(coo.nnz);
  for (std::size_t i = 0; i < e.size(); ++i) e[i] = in ? std::make_pair(col[i], row[i]) : std::make_pair(row[i], col[i]);
  std::sort(e.begin(), e.end());
  return e;
}

namespace {
// A random `fraction` of edges [first, last) of the file (rounded to the nearest count, distinct
// positions by a partial Fisher-Yates shuffle).
void pick_deletions(const edge_file& f, std::size_t first, std::size_t last, double fraction, std::mt19937_64& rng,
                    edge_list& out) {
  std::vector<std::size_t> idx(last - first);
  std::iota(idx.begin(), idx.end(), first);
  const auto k = std::size_t(std::llround(fraction * double(idx.size())));
  out.clear();
  for (std::size_t i = 0; i < k; ++i) {
    std::swap(idx[i], idx[i + std::size_t(rng() % (idx.size() - i))]);
    out.src.push_back(f.src[idx[i]]);
    out.dst.push_back(f.dst[idx[i]]);
  }
}
}  // namespace

template <class S>
void stream_file(stream_session<S>& session, const edge_file& f, std::size_t batch, double fraction,
                 std::uint64_t seed, const std::function<void(const batch_report&)>& on_batch) {
  FG_EXPECTS(batch >= 1, "stream_file: the batch size must be >= 1");
  FG_EXPECTS(fraction >= 0 && fraction <= 1, "stream_file: the delete fraction must be in [0, 1]");
  FG_EXPECTS(f.num_vertices < 2147483647, "too many vertices");
  std::mt19937_64 rng(seed);
  edge_list ins, del;
  for (std::size_t first = 0; first < f.src.size(); first += batch) {
    const std::size_t last = std::min(f.src.size(), first + batch);
    ins.src.assign(f.src.begin() + std::ptrdiff_t(first), f.src.begin() + std::ptrdiff_t(last));
    ins.dst.assign(f.dst.begin() + std::ptrdiff_t(first), f.dst.begin() + std::ptrdiff_t(last));
    if (fraction > 0) pick_deletions(f, first, last, fraction, rng, del);
    on_batch(session.apply(ins, del, vertex_t(f.num_vertices), batch_order::inserts_then_deletes));
  }
}

template class stream_session<host_space>;
template class stream_session<device_space>;
template void stream_file(stream_session<host_space>&, const edge_file&, std::size_t, double, std::uint64_t,
                          const std::function<void(const batch_report&)>&);
template void stream_file(stream_session<device_space>&, const edge_file&, std::size_t, double, std::uint64_t,
                          const std::function<void(const batch_report&)>&);

}  // namespace fg
