// fluxgraph::graph: the public facade. Picks the store for the options, forwards, and reads files.
#include "fluxgraph/graph.hpp"

#include <algorithm>

#include "api/store.hpp"
#include "core/memory.hpp"
#include "fluxgraph/version.hpp"
#include "loaders/graph_file.hpp"
#include "loaders/snapshot.hpp"
#include "loaders/text_reader.hpp"

namespace fluxgraph {

namespace {
using fg::device_space;
using fg::host_space;
using api::cuda_build;

// A renumbering graph's map with ids 0..n-1 as vertices 0..n-1.
std::unique_ptr<fg::id_map> map_of(vertex_id n) {
  auto m = std::make_unique<fg::id_map>();
  m->intern_first(n);
  return m;
}

// The map of vertices named ids[v] (a file's or a snapshot's), each once.
std::unique_ptr<fg::id_map> map_of(const std::vector<std::int64_t>& ids, const std::string& path) {
  auto m = std::make_unique<fg::id_map>();
  for (const std::int64_t id : ids)
    if (id < 0 || m->intern(id) != m->size() - 1)
      throw input_error(path, 0, "vertex id " + std::to_string(id) + (id < 0 ? " is negative" : " is there twice"));
  return m;
}

template <class V>
std::unique_ptr<graph::impl> make(vertex_id n, const graph_options& opt) {
  // The CUDA build's cpu is its sequential host twin; the CPU build's device system is the host.
  if (opt.where == device::cpu && cuda_build) return std::make_unique<api::store<V, host_space>>(n, opt);
  return std::make_unique<api::store<V, device_space>>(n, opt);
}
}  // namespace

graph::graph(vertex_id vertices, const graph_options& opt) {
  if (opt.where == device::cuda && !cuda_build)
    throw invalid_argument("device cuda needs the CUDA build of fluxgraph (this is the CPU build)");
  p_ = opt.weighted ? make<double>(vertices, opt) : make<fg::pattern>(vertices, opt);
  p_->where = opt.where;
  if (opt.ids == vertex_ids::renumber) p_->vertex_map = map_of(vertices);
}
graph::graph(std::unique_ptr<impl> p) : p_(std::move(p)) {}

std::string describe(device where) {
  if (where == device::cuda && !cuda_build)
    throw invalid_argument("device cuda needs the CUDA build of fluxgraph (this is the CPU build)");
  if (where == device::cpu && cuda_build) return "reference (sequential host twin)";
  return std::string(fg::device_backend_name()) + " (" + fg::device_description() + ")";
}
graph::~graph() = default;
graph::graph(graph&&) noexcept = default;
graph& graph::operator=(graph&&) noexcept = default;

void graph::defragment() { p_->defragment(); }
defrag_decision graph::maybe_defragment(double reads) {
  if (!(reads >= 0)) throw invalid_argument("maybe_defragment: expected reads must be >= 0");
  return p_->maybe_defragment(reads);
}

vertex_id graph::num_vertices() const noexcept { return p_->vertices(); }
std::int64_t graph::num_edges() const noexcept { return p_->edges(); }
bool graph::weighted() const noexcept { return p_->weighted(); }
device graph::where() const noexcept { return p_->where; }
std::string graph::backend() const { return p_->backend(); }
std::uint64_t graph::version() const noexcept { return p_->version(); }
std::vector<std::int64_t> graph::out_degree() const { return p_->out_degree(); }
csr graph::to_csr() const { return p_->to_csr(); }
host_rows graph::host_view() const { return p_->host_view(); }

coo graph::to_coo() const {
  csr c = p_->to_csr();
  coo r;
  r.src.resize(c.col.size());
  for (std::size_t i = 0; i + 1 < c.row_ptr.size(); ++i)
    std::fill(r.src.begin() + c.row_ptr[i], r.src.begin() + c.row_ptr[i + 1], std::int32_t(i));
  r.dst = std::move(c.col);
  r.val = std::move(c.val);
  return r;
}

std::vector<double> graph::spmv(const std::vector<double>& x, semiring s) const {
  if (x.size() != std::size_t(num_vertices()))
    throw invalid_argument("spmv: x has " + std::to_string(x.size()) + " entries, the graph " +
                           std::to_string(num_vertices()) + " vertices");
  std::vector<double> y(x.size());
  p_->spmv(x.data(), y.data(), s, memory::host);
  return y;
}
void graph::spmv(const double* x, double* y, semiring s, memory where) const { p_->spmv(x, y, s, where); }

pagerank_result graph::pagerank(const pagerank_options& opt) { return p_->pagerank(opt); }
graph graph::closure(closure_info* info, const closure_progress& progress) const {
  std::unique_ptr<impl> c = p_->closure(info, progress);
  if (p_->vertex_map) c->vertex_map = std::make_unique<fg::id_map>(*p_->vertex_map);  // the same vertices
  return graph(std::move(c));
}
lcc_result graph::lcc() const { return p_->lcc(); }
triangle_result graph::triangles(bool per_vertex) const { return p_->triangles(per_vertex); }
graph_profile graph::profile() const { return p_->profile(); }
memory_report graph::memory_use() const {
  memory_report r = api::visit(*p_, [](const auto& s) { return s.memory_use(); });
  if (p_->vertex_map) r.host_ids = p_->vertex_map->bytes();
  return r;
}
read_plan graph::plan_reads(double reads, const std::string& kernel) const { return p_->plan_reads(reads, kernel); }

void graph::save(const std::string& path, const std::vector<std::int64_t>& ids) const {
  if (!ids.empty() && ids.size() != std::size_t(num_vertices()))
    throw invalid_argument("save: " + std::to_string(ids.size()) + " ids for " + std::to_string(num_vertices()) + " vertices");
  csr c = to_csr();
  fg::snapshot s;
  s.vertices = num_vertices();
  s.weighted = weighted();
  s.row_ptr = std::move(c.row_ptr);
  s.col = std::move(c.col);
  s.val = std::move(c.val);
  // A renumbering graph's ids go with it, unless they are 0..n-1 (what a snapshot without ids means).
  s.original_id = ids.empty() && p_->vertex_map && !p_->vertex_map->identity() ? p_->vertex_map->ids() : ids;
  fg::write_snapshot(path, s);
}

graph load(const std::string& path, const graph_options& opt, std::vector<std::int64_t>* ids) {
  fg::snapshot s = fg::read_snapshot(path);  // checked whole before anything is built
  graph_options o = opt;
  o.weighted = s.weighted;
  o.ids = vertex_ids::dense;  // the snapshot's rows are vertex numbers; its ids come after
  graph g(s.vertices, o);
  const std::vector<std::int32_t> src = fg::entry_rows(s);
  if (!src.empty())
    g.insert(edge_span<std::int32_t>{src.data(), s.col.data(), src.size(), s.weighted ? s.val.data() : nullptr});
  if (opt.ids == vertex_ids::renumber)
    g.p_->vertex_map = s.original_id.empty() ? map_of(s.vertices) : map_of(s.original_id, path);
  if (ids) *ids = std::move(s.original_id);
  return g;
}

void set_max_line_bytes(std::size_t bytes) noexcept { fg::set_max_line_bytes(bytes); }
std::size_t max_line_bytes() noexcept { return fg::max_line_bytes(); }

graph read(const std::string& path, const graph_options& opt, std::vector<std::int64_t>* ids, bool keep_ids) {
  fg::edge_file f = fg::read_graph(path);
  const double* w = opt.weighted && f.weighted() ? f.weight.data() : nullptr;
  // keep_ids: the file's ids as vertex numbers. Matrix Market's dense ids are already id - 1; an
  // edge list's are mapped back (max id + 1 vertices).
  const bool mtx = fg::guess_format(path) == fg::file_format::matrix_market;
  const bool dense = !keep_ids || mtx || f.original_id.empty();
  const std::int64_t n = dense ? f.num_vertices : f.original_id.back() + 1;
  graph_options o = opt;
  o.ids = vertex_ids::dense;  // the file's ids come after, as its vertex numbers' names
  graph g(n, o);
  if (ids) {
    ids->resize(std::size_t(n));
    for (std::int64_t v = 0; v < n; ++v)
      (*ids)[std::size_t(v)] = keep_ids ? v : f.original_id[std::size_t(v)];
  }
  if (dense && !f.src.empty()) g.insert(edge_span<std::int32_t>{f.src.data(), f.dst.data(), f.src.size(), w});
  if (!dense && !f.src.empty()) {
    std::vector<std::int64_t> src(f.src.size()), dst(f.dst.size());
    for (std::size_t i = 0; i < src.size(); ++i)
      src[i] = f.original_id[std::size_t(f.src[i])], dst[i] = f.original_id[std::size_t(f.dst[i])];
    g.insert(edge_span<std::int64_t>{src.data(), dst.data(), src.size(), w});
  }
  // The map only now: the inserts above are in vertex numbers, which a map would read as ids.
  if (opt.ids == vertex_ids::renumber && !keep_ids)
    g.p_->vertex_map = f.original_id.empty() ? map_of(n) : map_of(f.original_id, path);
  return g;
}

transfer_counts transfers() noexcept {
  const fg::memory::transfer_counts c = fg::memory::transfers();
  return {c.to_device, c.to_host};
}

std::string version() { return FLUXGRAPH_VERSION; }
std::string build_backend() { return fg::device_backend_name(); }

}  // namespace fluxgraph
