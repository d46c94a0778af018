// fluxgraph::graph's vertex ids (graph_options::ids, docs/api.md "Vertex ids"): a renumbering
// graph maps the caller's ids to its vertex numbers through one stream/id_map (the one the live
// reader uses) on every call that takes or gives ids; a dense graph's ids are its vertex numbers.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "api/renumber.hpp"
#include "api/store.hpp"
#include "core/memory.hpp"

namespace fluxgraph {

namespace {
using api::cuda_build;

// One side of a batch as the caller's ids on the host (renumbering reads ids there: a device batch
// is copied), each checked >= 0 so that the error names the edge.
template <class I>
void host_ids(const edge_span<I>& e, std::int64_t batch, std::vector<std::int64_t>& src, std::vector<std::int64_t>& dst) {
  if (e.size > 0 && (e.src == nullptr || e.dst == nullptr)) throw invalid_argument("a batch's src or dst is null");
  auto read = [&](const I* p, std::vector<std::int64_t>& out) {
    out.resize(e.size);
    if (e.where == memory::device && cuda_build) {
      std::vector<I> t(e.size);
      fg::memory::copy_to_host(t.data(), p, e.size * sizeof(I));
      std::copy(t.begin(), t.end(), out.begin());
    } else {
      std::copy(p, p + e.size, out.begin());
    }
  };
  read(e.src, src);
  read(e.dst, dst);
  api::check_not_negative(src.data(), dst.data(), e.size, batch);
}

template <class I>
constexpr const edge_span<I>* none = nullptr;  // the absent side of an insert or an erase

// The weights of a span, on the host when the ids are (a renumbered batch is a host batch).
template <class I>
std::vector<double> host_weights(const edge_span<I>& e) {
  std::vector<double> w(e.weight ? e.size : 0);
  if (!e.weight) return w;
  if (e.where == memory::device && cuda_build) fg::memory::copy_to_host(w.data(), e.weight, e.size * sizeof(double));
  else std::copy(e.weight, e.weight + e.size, w.begin());
  return w;
}

// Whether a side may be read here as it is (host memory; the CPU build's device memory is too).
template <class I>
bool readable(const edge_span<I>* e) {
  return !e || e->size == 0 || ((e->where == memory::host || !cuda_build) && e->src && e->dst);
}

// The map's size after a batch whose ids are its vertex numbers already, or -1 when it needs the
// map: the map is the identity, the deletes name vertices, and the inserts' ids from map.size() to
// their largest all appear (what intern_batch would number as themselves). Reads the ids twice (a
// range, then a bitmap of the new ones), no hashing: dense ids cost little more than the opt-out.
template <class I>
std::int64_t identity_size(const fg::id_map& map, const edge_span<I>* ins, const edge_span<I>* del) {
  const std::int64_t m = map.size();
  if (!map.identity() || !readable(ins) || !readable(del)) return -1;
  for (std::size_t i = 0; del && i < del->size; ++i)
    if (std::uint64_t(del->src[i]) >= std::uint64_t(m) || std::uint64_t(del->dst[i]) >= std::uint64_t(m)) return -1;
  if (!ins || ins->size == 0) return m;
  std::int64_t lo = 0, hi = m - 1;
  for (std::size_t i = 0; i < ins->size; ++i) {
    lo = std::min<std::int64_t>({lo, ins->src[i], ins->dst[i]});
    hi = std::max<std::int64_t>({hi, ins->src[i], ins->dst[i]});
  }
  const std::int64_t fresh = hi - m + 1;
  if (lo < 0 || hi >= api::max_id || fresh > 2 * std::int64_t(ins->size)) return -1;
  std::vector<std::uint64_t> seen(std::size_t(fresh + 63) / 64, 0);
  auto mark = [&](std::int64_t id) {
    if (id >= m) seen[std::size_t(id - m) / 64] |= std::uint64_t(1) << ((id - m) % 64);
  };
  for (std::size_t i = 0; i < ins->size; ++i) mark(ins->src[i]), mark(ins->dst[i]);
  std::int64_t marked = 0;
  for (const std::uint64_t w : seen) marked += __builtin_popcountll(w);
  return marked == fresh ? hi + 1 : -1;
}
}  // namespace

// Every batch of the graph. Renumbering: deletes first, then the inserts (api/renumber.hpp's
// policy); a batch the store refuses gives its new ids back. A batch in vertex numbers already
// (identity_size), or any batch of a dense graph, goes to the store as given.
template <class I>
batch_result graph::batch(const edge_span<I>* ins, const edge_span<I>* del) {
  if (!p_->vertex_map) return p_->apply(ins, del);
  fg::id_map& map = *p_->vertex_map;
  if (const std::int64_t size = identity_size(map, ins, del); size >= 0) {
    return api::ids_kept_if_applied(map, [&] {
      map.intern_first(size);  // the new ids only: the map is the identity (id_map::intern_first)
      return p_->apply(ins, del);
    });
  }
  const std::int64_t number = p_->batches() + 1;
  std::vector<std::int64_t> s, d;
  struct { std::vector<std::int32_t> src, dst; } i, o;
  if (del) {
    host_ids(*del, number, s, d);
    api::known_pairs(map, s.data(), d.data(), s.size(), o);
  }
  return api::ids_kept_if_applied(map, [&] {
    std::vector<double> w;
    if (ins) {
      host_ids(*ins, number, s, d);
      w = host_weights(*ins);
      api::interned_pairs(map, s.data(), d.data(), s.size(), i);
    }
    const edge_span<std::int32_t> in{i.src.data(), i.dst.data(), i.src.size(), ins && ins->weight ? w.data() : nullptr};
    const edge_span<std::int32_t> out{o.src.data(), o.dst.data(), o.src.size()};
    // Every new id is an insert's end, so the store has map.size() vertices afterwards.
    return p_->apply(ins ? &in : nullptr, del ? &out : nullptr);
  });
}

batch_result graph::insert(const edge_span<std::int32_t>& e) { return batch(&e, none<std::int32_t>); }
batch_result graph::insert(const edge_span<std::int64_t>& e) { return batch(&e, none<std::int64_t>); }
batch_result graph::erase(const edge_span<std::int32_t>& e) { return batch(none<std::int32_t>, &e); }
batch_result graph::erase(const edge_span<std::int64_t>& e) { return batch(none<std::int64_t>, &e); }
batch_result graph::apply(const edge_span<std::int32_t>& ins, const edge_span<std::int32_t>& del) {
  return batch(&ins, &del);
}
batch_result graph::apply(const edge_span<std::int64_t>& ins, const edge_span<std::int64_t>& del) {
  return batch(&ins, &del);
}

namespace {
// Vertices without edges: `intern` gives the map its new ids, then the store grows to match; a
// failure of either gives the ids back.
template <class F>
void grown(graph::impl& p, F intern) {
  fg::id_map& map = *p.vertex_map;
  api::ids_kept_if_applied(map, [&] {
    intern(map);
    p.resize(map.size());
  });
}
}  // namespace

void graph::resize(vertex_id n) {
  if (!p_->vertex_map || n <= 0) return p_->resize(n);
  if (n > api::max_id + 1) throw invalid_argument("resize: " + std::to_string(n) + " vertices is out of range");
  grown(*p_, [n](fg::id_map& map) { map.intern_first(n); });
}

void graph::add_vertices(const std::vector<vertex_id>& ids) {
  const auto bad = std::find_if(ids.begin(), ids.end(), [](vertex_id id) { return id < 0; });
  if (bad != ids.end()) throw invalid_argument("add_vertices: negative vertex id " + std::to_string(*bad));
  if (!p_->vertex_map) {  // dense: the ids are vertex numbers, up to max_id (n = id + 1 must fit)
    if (ids.empty()) return;
    const vertex_id top = *std::max_element(ids.begin(), ids.end());
    if (top > api::max_id)
      throw invalid_argument("add_vertices: vertex id " + std::to_string(top) + " is past the largest id, 2^31 - 2");
    return p_->resize(top + 1);
  }
  grown(*p_, [&ids](fg::id_map& map) {
    std::vector<fg::vertex_t> a(ids.size()), b(ids.size());  // each id as both ends: numbered once
    map.intern_batch(ids.data(), ids.data(), a.data(), b.data(), ids.size());
  });
}

bool graph::renumbered() const noexcept { return p_->vertex_map != nullptr; }

std::vector<vertex_id> graph::ids() const {
  if (p_->vertex_map) return p_->vertex_map->ids();
  std::vector<vertex_id> v(static_cast<std::size_t>(num_vertices()));
  std::iota(v.begin(), v.end(), vertex_id(0));
  return v;
}

vertex_id graph::index(vertex_id id) const noexcept {
  if (p_->vertex_map) return p_->vertex_map->find(id);
  return id >= 0 && id < num_vertices() ? id : -1;
}

// The vertex number of a caller's id, or invalid_argument naming `what`.
vertex_id graph::vertex(vertex_id id, const char* what) const {
  if (!p_->vertex_map) return id;  // the store checks the range
  const vertex_id v = index(id);
  if (v < 0) throw invalid_argument(std::string(what) + ": vertex id " + std::to_string(id) + " is not in the graph");
  return v;
}

std::vector<vertex_id> graph::neighbors(vertex_id id) const {
  std::vector<vertex_id> out = p_->neighbors(vertex(id, "neighbors"));
  if (!p_->vertex_map) return out;
  const std::vector<std::int64_t>& name = p_->vertex_map->ids();
  for (vertex_id& v : out) v = name[std::size_t(v)];
  std::sort(out.begin(), out.end());
  return out;
}
std::int64_t graph::out_degree(vertex_id id) const { return std::int64_t(neighbors(id).size()); }

csr graph::reach(const std::vector<vertex_id>& sources, closure_info* info, const closure_progress& progress) const {
  std::vector<vertex_id> v(sources.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = vertex(sources[i], "reach");
  return p_->reach(v, info, progress);
}
bfs_result graph::bfs(vertex_id source) { return p_->bfs(vertex(source, "bfs")); }
sssp_result graph::sssp(vertex_id source, double delta) const { return p_->sssp(vertex(source, "sssp"), delta); }

// A component's label is its least id; the store's is its least vertex number, the same component.
wcc_result graph::wcc() const {
  wcc_result r = p_->wcc();
  if (!p_->vertex_map) return r;
  const std::vector<std::int64_t>& name = p_->vertex_map->ids();
  std::vector<std::int64_t> least(r.label.size(), -1);
  for (std::size_t v = 0; v < r.label.size(); ++v) {
    std::int64_t& m = least[std::size_t(r.label[v])];
    m = m < 0 ? name[v] : std::min(m, name[v]);
  }
  for (std::int64_t& l : r.label) l = least[std::size_t(l)];
  return r;
}

cdlp_result graph::cdlp(int iterations) const {
  cdlp_result r = p_->cdlp(iterations);
  if (!p_->vertex_map) return r;
  const std::vector<std::int64_t>& name = p_->vertex_map->ids();
  for (std::int64_t& l : r.label) l = name[std::size_t(l)];
  return r;
}

}  // namespace fluxgraph
