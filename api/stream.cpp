// fluxgraph::stream and read_edges (include/fluxgraph/stream.hpp): the engine's stream_session on
// the chosen twin, its reports and counters translated to the public types.
#include "fluxgraph/stream.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "fluxgraph/live.hpp"

#include "api/renumber.hpp"
#include "api/store.hpp"
#include "stream/id_map.hpp"
#include "stream/journal.hpp"
#include "stream/stream_session.hpp"
#include "loaders/graph_file.hpp"
#include "loaders/snapshot.hpp"

namespace fluxgraph {

edge_file read_edges(const std::string& path) { return fg::read_graph(path); }

void add_reverse_edges(edge_file& f) {
  const std::size_t m = f.src.size();
  for (std::size_t i = 0; i < m; ++i) {
    if (f.src[i] == f.dst[i]) continue;
    f.src.push_back(f.dst[i]), f.dst.push_back(f.src[i]);
    if (!f.weight.empty()) f.weight.push_back(f.weight[i]);
  }
}

namespace {
// The durability options a stream checks before it opens its folder.
void check(const durability_options& d) {
  if (d.dir.empty()) return;
  if (!(d.sync_interval > 0 && d.sync_interval <= 1e6)) throw invalid_argument("stream: sync_interval must be in (0, 1e6] seconds");
  if (d.snapshot_every < 0 || d.snapshot_bytes < 0) throw invalid_argument("stream: snapshot_every and snapshot_bytes must be >= 0");
  if (d.snapshot_part < 1) throw invalid_argument("stream: snapshot_part must be >= 1");
}

}  // namespace

struct stream::impl {
  virtual ~impl() = default;
  virtual batch_report apply(const fg::edge_list& ins, const fg::edge_list& del, fg::vertex_t n, batch_order o,
                                 const fg::batch_origin& origin) = 0;
  virtual const fg::recovery_report& recovery() const = 0;
  virtual const std::vector<std::int64_t>& ids() const = 0;
  virtual std::int64_t lines() const = 0;
  virtual void checkpoint() = 0;
  virtual fg::snapshot to_snapshot() const = 0;
  virtual void seed(const fg::snapshot& s) = 0;
  virtual void stream_file(const fg::edge_file& f, std::size_t batch, double fraction, std::uint64_t seed,
                           const std::function<void(const batch_report&)>& on) = 0;
  virtual void warm_up() = 0;
  virtual fg::final_report finish() = 0;
  virtual vertex_id vertices() const = 0;
  virtual std::int64_t edges() const = 0;
  virtual const fg::stream_totals& totals() const = 0;
  virtual fg::dcsr_stats stats(std::int64_t& capacity) const = 0;
  virtual memory_report memory() const = 0;
  virtual const fg::pagerank_result& scores() const = 0;
  virtual std::vector<std::pair<fg::vertex_t, double>> top(std::size_t k) const = 0;
  virtual std::int64_t closure_pairs() const = 0;
  virtual std::vector<std::pair<fg::vertex_t, fg::vertex_t>> edge_pairs() const = 0;
  virtual std::string backend() const = 0;
  stream_options options;  ///< as given: stream::options()
  /// stream_options::ids = renumber: the caller's id of each vertex, and back (null: dense ids).
  /// It holds the session's ids() and may lead them: the ids it gave out since go to the journal
  /// with the next batch (the batch's origin), as a live reader's do.
  std::unique_ptr<fg::id_map> map;
  /// The map takes the session's ids it lacks (recovery, a snapshot); vertices without ids (a
  /// stream(opt, n) before its first batch) are ids 0..n-1.
  void follow_ids() {
    const std::vector<std::int64_t>& s = ids();
    for (std::size_t i = std::size_t(map->size()); i < s.size(); ++i) map->intern(s[i]);
    if (s.empty()) map->intern_first(vertices());
  }
  /// The ids the map gave out that the session's list lacks (the next batch's origin carries them
  /// to the journal first, so that the session's ids() become the map's ids again).
  std::vector<std::int64_t> unsent_ids() const {
    const std::vector<std::int64_t>& m = map->ids();
    const std::size_t sent = std::min(ids().size(), m.size());
    return {m.begin() + std::ptrdiff_t(sent), m.end()};
  }
  /// The ids a batch that threw keeps (api::ids_kept_if_applied): the session's, and those of the
  /// vertices the store has now (a failure after the store update: journal, growth, the deletes of
  /// inserts_then_deletes), so that every vertex has an id (top(), edges()).
  fg::vertex_t kept_ids() const { return std::max(fg::vertex_t(ids().size()), fg::vertex_t(vertices())); }
  /// The caller's id of vertex v (a renumbering stream).
  std::int64_t id_of(fg::vertex_t v) const {
    if (v < 0 || v >= map->size()) throw error("stream: vertex " + std::to_string(v) + " has no id");
    return map->ids()[std::size_t(v)];
  }
};

namespace {
template <class S>
struct session final : stream::impl {
  session(const stream_options& o, fg::vertex_t n) : s(o, n) {}
  batch_report apply(const fg::edge_list& i, const fg::edge_list& d, fg::vertex_t n, batch_order o,
                         const fg::batch_origin& origin) override {
    return s.apply(i, d, n, o, origin);
  }
  const fg::recovery_report& recovery() const override { return s.recovery(); }
  const std::vector<std::int64_t>& ids() const override { return s.ids(); }
  std::int64_t lines() const override { return s.lines(); }
  void checkpoint() override { s.checkpoint(); }
  fg::snapshot to_snapshot() const override { return s.to_snapshot(); }
  void seed(const fg::snapshot& snap) override { s.seed(snap); }
  void stream_file(const fg::edge_file& f, std::size_t batch, double fraction, std::uint64_t seed,
                   const std::function<void(const batch_report&)>& on) override {
    fg::stream_file(s, f, batch, fraction, seed, on);
  }
  void warm_up() override { s.warm_up(); }
  fg::final_report finish() override { return s.finish(); }
  vertex_id vertices() const override { return s.num_vertices(); }
  std::int64_t edges() const override { return s.num_edges(); }
  const fg::stream_totals& totals() const override { return s.totals(); }
  fg::dcsr_stats stats(std::int64_t& capacity) const override {
    capacity = s.current_graph().store().capacity();
    return s.current_graph().store().stats();
  }
  memory_report memory() const override { return s.memory(); }
  const fg::pagerank_result& scores() const override { return s.scores(); }
  std::vector<std::pair<fg::vertex_t, double>> top(std::size_t k) const override { return s.top(k); }
  std::int64_t closure_pairs() const override { return s.closure().nnz(); }
  std::vector<std::pair<fg::vertex_t, fg::vertex_t>> edge_pairs() const override { return s.edges(); }
  std::string backend() const override {
    if constexpr (std::is_same_v<S, fg::host_space>) return "reference (sequential host twin)";
    else return fmt::format("{} ({})", fg::device_backend_name(), fg::device_description());
  }
  fg::stream_session<S> s;
};

}  // namespace

stream::stream(const stream_options& opt, vertex_id vertices) {
  if (vertices < 0 || vertices > api::max_id) throw invalid_argument("stream: " + std::to_string(vertices) + " vertices is out of range");
  const bool cuda = build_backend() == "cuda";
  if (opt.where == device::cuda && !cuda) throw invalid_argument("device cuda needs the CUDA build of fluxgraph (this is the CPU build)");
  check(opt.durability);
  if (opt.where == device::cpu && cuda) p_ = std::make_unique<session<fg::host_space>>(opt, fg::vertex_t(vertices));
  else p_ = std::make_unique<session<fg::device_space>>(opt, fg::vertex_t(vertices));
  p_->options = opt;
  if (opt.ids == vertex_ids::renumber) {
    p_->map = std::make_unique<fg::id_map>();
    p_->follow_ids();
  }
}

const stream_options& stream::options() const noexcept { return p_->options; }
stream::~stream() = default;
stream::stream(stream&&) noexcept = default;
stream& stream::operator=(stream&&) noexcept = default;

namespace {
// A batch in the caller's ids as one in vertex numbers, through the stream's map: a delete naming
// an id the stream has not had (before the inserts, or with them in inserts_then_deletes) is
// dropped; the inserts' new ids are numbered in increasing order, and ids 0..vertices-1 are
// vertices. A batch the store refuses gives its new ids back; one applied keeps them (an analysis
// that throws after the store update leaves the batch applied).
batch_report renumbered(stream::impl& p, const edge_span<std::int64_t>& ins, const edge_span<std::int64_t>& del,
                        vertex_id vertices, batch_order order) {
  p.follow_ids();
  fg::id_map& map = *p.map;
  const std::int64_t number = p.totals().batches + 1;
  for (const edge_span<std::int64_t>* e : {&ins, &del}) api::check_not_negative(e->src, e->dst, e->size, number);
  edge_list i, d;
  auto deletes = [&] { api::known_pairs(map, del.src, del.dst, del.size, d); };
  return api::ids_kept_if_applied(map, [&] {
    if (order == batch_order::deletes_first) deletes();
    map.intern_first(vertices);
    api::interned_pairs(map, ins.src, ins.dst, ins.size, i);
    if (order != batch_order::deletes_first) deletes();
    const std::vector<std::int64_t> fresh = p.unsent_ids();
    const fg::batch_origin origin{&fresh, std::int64_t(ins.size + del.size)};
    return p.apply(i, d, map.size(), order, origin);
  }, [&p] { return p.kept_ids(); });
}

// 64-bit ids as a batch's 32-bit vertex numbers (a dense stream), each checked.
edge_list narrowed(const edge_span<std::int64_t>& e, std::int64_t batch) {
  edge_list l;
  for (std::size_t i = 0; i < e.size; ++i) {
    const std::int64_t v = std::min(e.src[i], e.dst[i]) < 0 ? std::min(e.src[i], e.dst[i]) : std::max(e.src[i], e.dst[i]);
    if (v < 0 || v > api::max_id) throw api::bad_id(batch, std::int64_t(i), v);
    l.src.push_back(std::int32_t(e.src[i])), l.dst.push_back(std::int32_t(e.dst[i]));
  }
  return l;
}

// An edge list's ids as a span of 64-bit ids (renumbering reads the caller's ids as int64).
edge_span<std::int64_t> widened(const edge_list& l, std::vector<std::int64_t>& src, std::vector<std::int64_t>& dst) {
  src.assign(l.src.begin(), l.src.end()), dst.assign(l.dst.begin(), l.dst.end());
  return {src.data(), dst.data(), src.size()};
}
}  // namespace

batch_report stream::apply(const edge_span<std::int64_t>& inserts, const edge_span<std::int64_t>& deletes,
                           vertex_id vertices) {
  if (vertices < 0 || vertices > api::max_id) throw invalid_argument("stream: " + std::to_string(vertices) + " vertices is out of range");
  for (const edge_span<std::int64_t>* e : {&inserts, &deletes}) {
    if (e->size > 0 && (e->src == nullptr || e->dst == nullptr)) throw invalid_argument("stream: a batch's src or dst is null");
    if (e->where != memory::host) throw invalid_argument("stream: a batch's ids must be in host memory");
  }
  if (p_->map) return renumbered(*p_, inserts, deletes, vertices, batch_order::deletes_first);
  const std::int64_t number = p_->totals().batches + 1;
  return apply(narrowed(inserts, number), narrowed(deletes, number), vertices);
}

batch_report stream::apply(const edge_list& inserts, const edge_list& deletes, vertex_id vertices, batch_order order) {
  if (vertices < 0 || vertices > api::max_id) throw invalid_argument("stream: " + std::to_string(vertices) + " vertices is out of range");
  if (inserts.src.size() != inserts.dst.size() || deletes.src.size() != deletes.dst.size())
    throw invalid_argument("stream: src and dst differ in length");
  if (p_->map) {
    std::vector<std::int64_t> is, id, ds, dd;
    return renumbered(*p_, widened(inserts, is, id), widened(deletes, ds, dd), vertices, order);
  }
  return p_->apply(inserts, deletes, fg::vertex_t(vertices), order, {});
}

batch_report stream::apply(const live_batch& b) {
  if (b.vertices < 0 || b.inserts.src.size() != b.inserts.dst.size() || b.deletes.src.size() != b.deletes.dst.size())
    throw invalid_argument("stream: a malformed live batch");
  const std::int64_t lines = std::int64_t(b.insert_lines + b.delete_lines);
  if (!p_->map) return p_->apply(b.inserts, b.deletes, b.vertices, batch_order::deletes_first, {&b.new_ids, lines});
  // The batch is in the reader's numbers, which must be the map's: the reader numbers its new ids
  // after its known_ids (stream::ids(), the map's list). One id list: the map's ids the session
  // lacks (stream(opt, n)'s 0..n-1, a failed batch's) go to the journal ahead of the batch's own.
  p_->follow_ids();
  fg::id_map& map = *p_->map;
  const std::int64_t known = std::int64_t(b.vertices) - std::int64_t(b.new_ids.size());
  if (known != map.size())
    throw invalid_argument("stream: a live batch numbers its new ids from " + std::to_string(known) + ", the stream has " +
                           std::to_string(map.size()) + " ids: give the reader live_options::known_ids = stream::ids()");
  return api::ids_kept_if_applied(map, [&] {
    for (const std::int64_t id : b.new_ids) {
      if (map.find(id) >= 0) throw invalid_argument("stream: a live batch's new id " + std::to_string(id) + " is known");
      map.intern(id);
    }
    const std::vector<std::int64_t> fresh = p_->unsent_ids();
    return p_->apply(b.inserts, b.deletes, b.vertices, batch_order::deletes_first, {&fresh, lines});
  }, [this] { return p_->kept_ids(); });
}

void stream::stream_file(const edge_file& f, std::size_t batch, double delete_fraction, std::uint64_t seed,
                         const std::function<void(const batch_report&)>& on_batch) {
  if (batch == 0) throw invalid_argument("stream_file: the batch size must be at least 1");
  if (p_->map)
    throw invalid_argument("stream_file: a file's edges are in its vertex numbers: make the stream with "
                           "stream_options::ids = vertex_ids::dense");
  if (!(delete_fraction >= 0 && delete_fraction <= 1)) throw invalid_argument("stream_file: delete_fraction must be in [0, 1]");
  if (f.src.size() != f.dst.size() || (!f.weight.empty() && f.weight.size() != f.src.size()))
    throw invalid_argument("stream_file: src, dst and weight differ in length");
  p_->stream_file(f, batch, delete_fraction, seed, [&](const batch_report& r) {
    if (on_batch) on_batch(r);
  });
}

void stream::warm_up() { p_->warm_up(); }

stream_end stream::finish() {
  const fg::final_report r = p_->finish();
  stream_end e;
  e.defrag_asked = r.defrag_asked;
  e.defrag = r.defrag;
  e.defrag_seconds = r.defrag_seconds;
  if (r.pagerank) {
    e.has_pagerank = true;
    e.pagerank = api::warm_started(*r.pagerank, p_->options.pagerank_per_batch);
  }
  return e;
}

vertex_id stream::num_vertices() const noexcept { return p_->vertices(); }
std::int64_t stream::num_edges() const noexcept { return p_->edges(); }
const stream_totals& stream::totals() const noexcept { return p_->totals(); }
store_stats stream::stats() const {
  std::int64_t capacity = 0;
  store_stats s = p_->stats(capacity);
  s.capacity = capacity;
  return s;
}
memory_report stream::memory_use() const {
  memory_report r = p_->memory();
  if (p_->map) r.host_ids = p_->map->bytes();
  return r;
}
pagerank_result stream::scores() const { return api::warm_started(p_->scores(), p_->options.pagerank_per_batch); }
std::vector<std::pair<vertex_id, double>> stream::top(std::size_t k) const {
  std::vector<std::pair<vertex_id, double>> t;
  for (const auto& [v, score] : p_->top(k)) t.emplace_back(p_->map ? p_->id_of(v) : v, score);
  return t;
}
std::int64_t stream::closure_pairs() const { return p_->closure_pairs(); }
coo stream::edges() const {
  coo c;
  for (const auto& [u, v] : p_->edge_pairs()) c.src.push_back(u), c.dst.push_back(v);
  return c;
}
std::string stream::backend() const { return p_->backend(); }
const std::vector<std::int64_t>& stream::ids() const noexcept { return p_->map ? p_->map->ids() : p_->ids(); }
std::int64_t stream::lines() const noexcept { return p_->lines(); }
void stream::checkpoint() { p_->checkpoint(); }
void stream::save(const std::string& path, const std::vector<std::int64_t>& ids) const {
  fg::snapshot s = p_->to_snapshot();
  if (ids.empty() && p_->map && p_->map->size() == s.vertices)  // 0..n-1: no ids, as graph::save
    s.original_id = p_->map->identity() ? std::vector<std::int64_t>{} : p_->map->ids();
  if (!ids.empty()) {
    if (ids.size() != std::size_t(s.vertices))
      throw invalid_argument("stream::save: " + std::to_string(ids.size()) + " ids for " + std::to_string(s.vertices) + " vertices");
    s.original_id = ids;
  }
  fg::write_snapshot(path, s);
}
void stream::load(const std::string& path) {
  p_->seed(fg::read_snapshot(path));
  if (p_->map) {  // the snapshot's ids (or 0..n-1) replace those of stream(opt, n)
    p_->map = std::make_unique<fg::id_map>();
    p_->follow_ids();
  }
}
recovery_info stream::recovery() const {
  return p_->recovery();  // the engine's is the public type
}

wal_health check_wal(const std::string& dir) { return fg::journal::check(dir); }

}  // namespace fluxgraph
