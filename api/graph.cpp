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

constexpr bool cuda_build =
#if defined(FG_WITH_CUDA)
    true;
#else
    false;
#endif

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

batch_result graph::insert(const edge_span<std::int32_t>& e) { return p_->apply(&e, nullptr); }
batch_result graph::insert(const edge_span<std::int64_t>& e) { return p_->apply(&e, nullptr); }
batch_result graph::erase(const edge_span<std::int32_t>& e) { return p_->apply(nullptr, &e); }
batch_result graph::erase(const edge_span<std::int64_t>& e) { return p_->apply(nullptr, &e); }
batch_result graph::apply(const edge_span<std::int32_t>& ins, const edge_span<std::int32_t>& del) {
  return p_->apply(&ins, &del);
}
batch_result graph::apply(const edge_span<std::int64_t>& ins, const edge_span<std::int64_t>& del) {
  return p_->apply(&ins, &del);
}
void graph::resize(vertex_id n) { p_->resize(n); }
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
std::int64_t graph::out_degree(vertex_id v) const { return std::int64_t(neighbors(v).size()); }
std::vector<vertex_id> graph::neighbors(vertex_id v) const { return p_->neighbors(v); }
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
  return graph(p_->closure(info, progress));
}
csr graph::reach(const std::vector<vertex_id>& sources, closure_info* info, const closure_progress& progress) const {
  return p_->reach(sources, info, progress);
}
bfs_result graph::bfs(vertex_id source) { return p_->bfs(source); }
sssp_result graph::sssp(vertex_id source, double delta) const { return p_->sssp(source, delta); }
wcc_result graph::wcc() const { return p_->wcc(); }
cdlp_result graph::cdlp(int iterations) const { return p_->cdlp(iterations); }
lcc_result graph::lcc() const { return p_->lcc(); }
triangle_result graph::triangles(bool per_vertex) const { return p_->triangles(per_vertex); }
graph_profile graph::profile() const { return p_->profile(); }
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
  s.original_id = ids;
  fg::write_snapshot(path, s);
}

graph load(const std::string& path, const graph_options& opt, std::vector<std::int64_t>* ids) {
  fg::snapshot s = fg::read_snapshot(path);  // checked whole before anything is built
  graph_options o = opt;
  o.weighted = s.weighted;
  graph g(s.vertices, o);
  const std::vector<std::int32_t> src = fg::entry_rows(s);
  if (!src.empty())
    g.insert(edge_span<std::int32_t>{src.data(), s.col.data(), src.size(), s.weighted ? s.val.data() : nullptr});
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
  graph g(n, opt);
  if (ids) {
    ids->resize(std::size_t(n));
    for (std::int64_t v = 0; v < n; ++v)
      (*ids)[std::size_t(v)] = keep_ids ? v : f.original_id[std::size_t(v)];
  }
  if (f.src.empty()) return g;
  if (dense) {
    g.insert(edge_span<std::int32_t>{f.src.data(), f.dst.data(), f.src.size(), w});
    return g;
  }
  std::vector<std::int64_t> src(f.src.size()), dst(f.dst.size());
  for (std::size_t i = 0; i < src.size(); ++i)
    src[i] = f.original_id[std::size_t(f.src[i])], dst[i] = f.original_id[std::size_t(f.dst[i])];
  g.insert(edge_span<std::int64_t>{src.data(), dst.data(), src.size(), w});
  return g;
}

transfer_counts transfers() noexcept {
  const fg::memory::transfer_counts c = fg::memory::transfers();
  return {c.to_device, c.to_host};
}

std::string version() { return FLUXGRAPH_VERSION; }
std::string build_backend() { return fg::device_backend_name(); }

}  // namespace fluxgraph
