// fluxgraph::graph's algorithms: PageRank over the in-edge copies, closure and reach over R.
#include <algorithm>
#include <type_traits>

#include "algorithms/closure.hpp"
#include "api/store.hpp"
#include "core/memory.hpp"

namespace fluxgraph::api {

using fg::device_space;
using fg::host_space;
using fg::pattern;

namespace {
// The in-edge store of `out` (an out-edge store): its entries with rows and columns swapped, as W.
template <class W, class V, class S>
std::unique_ptr<fg::graph<W, S>> transposed(const fg::dcsr_matrix<V, S>& out) {
  fg::coo_matrix<V, S> c = out.to_coo();
  fg::coo_matrix<W, S> t;
  t.nnz = c.nnz;
  t.row = std::move(c.col);
  t.col = std::move(c.row);
  if constexpr (std::is_same_v<V, W>) t.val = std::move(c.val);
  fg::dcsr_config cfg = fg::paired_config(out.config(), fg::orientation::in);
  cfg.dups = fg::duplicates::automatic;
  auto g = std::make_unique<fg::graph<W, S>>(fg::orientation::in, 0, cfg);
  g->grow(out.rows());
  if (t.nnz > 0) g->insert(t);
  return g;
}
}  // namespace

pagerank_result warm_started(pagerank_result r, bool warm) {
  r.warm_started = warm;
  return r;
}

template <class V, class S>
pagerank_result store<V, S>::pagerank(const pagerank_options& o) {
  fg::validate(o);
  const bool by_weight = o.weighted && !fg::is_pattern_v<V>;
  if constexpr (fg::is_pattern_v<V>) {
    if (o.warm) return kept_pagerank(o);
  }
  const bool warm = o.warm && !last_.score.empty() && last_weighted_ == by_weight && last_damping_ == o.damping;
  fg::pagerank_start from;
  if (warm) from.initial = last_.score;
  pagerank_result r;
  if (by_weight) {
    r = fg::pagerank(in_weighted(), o, from);
  } else {
    r = fg::pagerank(in_pattern(), o, from);
  }
  pagerank_result out = warm_started(std::move(r), warm);
  last_.score = out.score;
  last_weighted_ = by_weight;
  last_damping_ = o.damping;
  return out;
}

// PageRank kept current over the batches (pattern graphs): a first call (or one with another
// damping or tolerance) runs from scratch and the next batch starts kept scores from it; later
// calls push from what the batches since changed.
template <class V, class S>
pagerank_result store<V, S>::kept_pagerank(const pagerank_options& p) {
  if (kept_ && kept_opt_.damping == p.damping && kept_opt_.tol == p.tol) {
    kept_->update(g_.store(), &in_pattern());
    return warm_started(kept_->result(), !kept_->stats().cold);
  }
  kept_.reset();
  fg::pagerank_start from;
  from.out_degree = g_.store().view().sizes;  // the out-edge store's row sizes: PageRank's out-weights
  pagerank_result out = warm_started(fg::pagerank(in_pattern(), p, from), false);
  last_.score = out.score;
  kept_opt_ = p, keep_last_ = true;
  return out;
}

template <class V, class S>
const fg::dcsr_matrix<V, S>& store<V, S>::in_weighted() {
  if (!in_weighted_) in_weighted_ = transposed<V>(g_.store());
  return in_weighted_->store();
}

template <class V, class S>
const fg::dcsr_matrix<pattern, S>& store<V, S>::in_pattern() {
  if (!in_pattern_) in_pattern_ = transposed<pattern>(g_.store());
  return in_pattern_->store();
}

template <class V, class S>
const fg::dcsr_matrix<pattern, S>& store<V, S>::pattern_store(std::optional<fg::dcsr_matrix<pattern, S>>& copy) const {
  if constexpr (fg::is_pattern_v<V>) {
    return g_.store();
  } else {
    fg::coo_matrix<V, S> c = g_.store().to_coo();
    fg::coo_matrix<pattern, S> p;
    p.nnz = c.nnz;
    p.row = std::move(c.row);
    p.col = std::move(c.col);
    copy.emplace(fg::dcsr_matrix<pattern, S>::from_coo(p, g_.num_vertices(), g_.num_vertices()));
    return *copy;
  }
}

namespace {
closure_info info_of(const fg::closure_stats& st) {
  closure_info i;
  i.pairs = st.pairs;
  i.iterations = st.iterations;
  i.seconds = st.seconds;
  i.peak_bytes = st.peak_bytes;
  return i;
}
fg::closure_options options_of(const closure_progress& progress) {
  fg::closure_options o;
  if (progress) o.progress = [progress](int it, fg::offset_t added, fg::offset_t total) { progress(it, added, total); };
  return o;
}
}  // namespace

template <class V, class S>
std::unique_ptr<graph::impl> store<V, S>::closure(closure_info* info, const closure_progress& progress) const {
  std::optional<fg::dcsr_matrix<pattern, S>> copy;
  fg::closure_stats st;
  fg::dcsr_matrix<pattern, S> plus = fg::transitive_closure(pattern_store(copy), options_of(progress), &st);
  plus.resize(g_.num_vertices(), g_.num_vertices());
  if (info) *info = info_of(st);
  graph_options o = opt_;
  o.weighted = false;
  auto r = std::make_unique<store<pattern, S>>(std::move(plus), o);
  r->where = where;
  return r;
}

template <class V, class S>
csr store<V, S>::reach(const std::vector<vertex_id>& sources, closure_info* info, const closure_progress& progress) const {
  std::vector<fg::vertex_t> src(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (sources[i] < 0 || sources[i] >= g_.num_vertices())
      throw invalid_argument("reach: source " + std::to_string(sources[i]) + " is not a vertex (the graph has " +
                             std::to_string(g_.num_vertices()) + ")");
    src[i] = fg::vertex_t(sources[i]);
  }
  csr r;
  r.rows = vertex_id(sources.size());
  r.cols = g_.num_vertices();
  r.row_ptr.assign(1, 0);
  if (sources.empty()) return r;
  std::optional<fg::dcsr_matrix<pattern, S>> copy;
  fg::closure_stats st;
  const fg::dcsr_matrix<pattern, S> rows = fg::reachable(pattern_store(copy), src, options_of(progress), &st);
  if (info) *info = info_of(st);
  const fg::csr_matrix<pattern, S> c = rows.to_csr();
  r.row_ptr = fg::to_vector(c.row_ptr);
  r.col = fg::to_vector(c.col);
  r.row_ptr.resize(sources.size() + 1, r.row_ptr.empty() ? 0 : r.row_ptr.back());
  for (std::size_t i = 0; i < sources.size(); ++i)
    std::sort(r.col.begin() + r.row_ptr[i], r.col.begin() + r.row_ptr[i + 1]);
  return r;
}

#define FG_INSTANTIATE(V, S)                                                                          \
  template pagerank_result store<V, S>::pagerank(const pagerank_options&);                             \
  template const fg::dcsr_matrix<V, S>& store<V, S>::in_weighted();                                   \
  template std::unique_ptr<graph::impl> store<V, S>::closure(closure_info*, const closure_progress&) const; \
  template csr store<V, S>::reach(const std::vector<vertex_id>&, closure_info*, const closure_progress&) const; \
  template const fg::dcsr_matrix<pattern, S>& store<V, S>::in_pattern();
FG_API_FOR_EACH_STORE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fluxgraph::api
