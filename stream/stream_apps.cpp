// The graph applications a stream keeps current (stream/stream_apps.hpp). They need both
// orientations (BFS and SSSP push along out-edges, BFS pulls along in-edges, the triangle count
// looks up (v, u)): the session keeps the store in the other orientation too and hands it over.
#include "stream/stream_apps.hpp"

#include <chrono>
#include <string>

#include "algorithms/components.hpp"
#include "algorithms/traversal.hpp"
#include "algorithms/triangles.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"

namespace fg {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

}  // namespace

template <class S>
struct stream_apps<S>::state {
  stream_options opt;
  vertex_t bfs_source = -1, sssp_source = -1;  // dense, once the input id arrived
  std::unique_ptr<incremental_bfs<S>> bfs;
  std::unique_ptr<incremental_sssp<S>> sssp;
  incremental_wcc<S> wcc;
  incremental_triangles<S> tri;

  // The dense id of input id `id`: ids[v] == id (a stream without ids: id itself, once it is a vertex).
  static vertex_t resolve(std::int64_t id, const std::vector<std::int64_t>& ids, vertex_t n) {
    if (ids.empty()) return id < n ? vertex_t(id) : -1;
    for (std::size_t v = 0; v < ids.size(); ++v)
      if (ids[v] == id) return vertex_t(v);
    return -1;
  }
  void check(bool same, const char* what, std::int64_t batch) const {
    if (!same)
      throw error(std::string("stream --compare: after batch ") + std::to_string(batch) + " the incremental and the from-scratch " +
                  what + " differ");
  }
};

template <class S>
stream_apps<S>::stream_apps(const stream_options& opt) : s_(std::make_unique<state>()) {
  s_->opt = opt;
}
template <class S>
stream_apps<S>::~stream_apps() = default;

template <class S>
void stream_apps<S>::invalidate() {
  const stream_options o = s_->opt;
  s_ = std::make_unique<state>();
  s_->opt = o;
}

template <class S>
void stream_apps<S>::update(batch_report& r, const graph<pattern, S>& g, const graph<pattern, S>& other,
                                         const edge_list& ins, const edge_list& del, bool separate,
                                         const std::vector<std::int64_t>& ids, std::int64_t batch, bool compare) {
  try {
    run(r, g, other, ins, del, separate, ids, batch, compare);
  } catch (...) {
    invalidate();  // half-updated states must not be extended next batch
    throw;
  }
}

template <class S>
void stream_apps<S>::run(batch_report& r, const graph<pattern, S>& g, const graph<pattern, S>& other, const edge_list& ins,
                                      const edge_list& del, bool separate, const std::vector<std::int64_t>& ids,
                                      std::int64_t batch, bool compare) {
  state& st = *s_;
  const auto t0 = clock_type::now();
  const bool out_is_g = g.oriented() == orientation::out;
  const dcsr_matrix<pattern, S>& out = out_is_g ? g.store() : other.store();
  const dcsr_matrix<pattern, S>& in = out_is_g ? other.store() : g.store();
  const dcsr_view<pattern> in_view = in.view();
  const edge_batch<S> I{to_space<S>(ins.src), to_space<S>(ins.dst), {}}, D{to_space<S>(del.src), to_space<S>(del.dst), {}};
  // The rules take the deletes before the inserts; a batch whose deletes came after (an edge in
  // both is gone) is recomputed.
  const bool reset = separate && del.size() > 0;
  const vertex_t n = out.rows();
  const stream_options& o = st.opt;
  if (o.bfs_source >= 0 && st.bfs_source < 0 && (st.bfs_source = state::resolve(o.bfs_source, ids, n)) >= 0)
    st.bfs = std::make_unique<incremental_bfs<S>>(st.bfs_source);
  if (o.sssp_source >= 0 && st.sssp_source < 0 && (st.sssp_source = state::resolve(o.sssp_source, ids, n)) >= 0)
    st.sssp = std::make_unique<incremental_sssp<S>>(st.sssp_source);
  if (st.bfs) {
    if (reset) st.bfs->reset();
    st.bfs->update(out, &in_view, false, I, D);
    r.bfs_reached = st.bfs->reached();
    r.apps_recomputed |= st.bfs->recomputed();
  }
  if (st.sssp) {
    if (reset) st.sssp->reset();
    st.sssp->update(out, I, D);
    r.sssp_reached = st.sssp->reached();
    r.apps_recomputed |= st.sssp->recomputed();
  }
  if (o.wcc) {
    if (reset) st.wcc.reset();
    st.wcc.update(out, I, D);
    r.components = st.wcc.components();
    r.apps_recomputed |= st.wcc.recomputed();
  }
  if (o.triangles) {
    if (reset) st.tri.reset();
    st.tri.update(out, &in_view, I, D);
    r.triangles = st.tri.total();
  }
  memory::synchronize();
  r.apps_seconds = since(t0);
  if (!compare) return;
  const auto t1 = clock_type::now();
  if (st.bfs) st.check(st.bfs->levels() == bfs(out, &in_view, false, st.bfs_source).level, "BFS levels", batch);
  if (st.sssp) st.check(st.sssp->distances() == sssp(out, st.sssp_source).dist, "SSSP distances", batch);
  if (o.wcc) st.check(st.wcc.labels() == wcc(out).label, "WCC labels", batch);
  if (o.triangles) st.check(st.tri.total() == triangles(out).total, "triangle count", batch);
  r.apps_scratch_seconds = since(t1);
}

template class stream_apps<host_space>;
template class stream_apps<device_space>;

}  // namespace fg
