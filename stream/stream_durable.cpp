// A stream session's durability (docs/durability.md): recovery from the journal, each batch logged
// before it is acknowledged, snapshots taken at once or a part a batch, a seed from a snapshot.
#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>

#include "core/error.hpp"
#include "stream/stream_state.hpp"

namespace fg {
using namespace stream_detail;

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

#define FG_INSTANTIATE(S)                                                                                      \
  template void stream_session<S>::state::recover();                                                         \
  template void stream_session<S>::state::restore(const snapshot&);                                          \
  template void stream_session<S>::state::log_batch(const edge_list&, const edge_list&, batch_order,         \
                                                    const batch_origin&, batch_report&);                     \
  template void stream_session<S>::state::snapshot_now(batch_report*);                                       \
  template void stream_session<S>::state::snapshot_step(batch_report&);                                      \
  template bool stream_session<S>::state::gather_part();                                                     \
  template void stream_session<S>::state::write_gathered();                                                  \
  template snapshot stream_session<S>::to_snapshot() const;                                                  \
  template void stream_session<S>::checkpoint();                                                             \
  template void stream_session<S>::seed(const snapshot&);
FG_INSTANTIATE(host_space)
FG_INSTANTIATE(device_space)
#undef FG_INSTANTIATE

}  // namespace fg
