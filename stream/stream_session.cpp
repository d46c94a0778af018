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
#include "stream/stream_state.hpp"

namespace fg {
using namespace stream_detail;

namespace {
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

}  // namespace


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
  if (stream_detail::compact(opt)) g.release_scratch();  // between batches the compact footprint holds the store alone
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
    const vertex_t n = g.num_vertices();
    if (!in) in = &t.emplace(dcsr_matrix<pattern, S>::from_coo(reversed<pattern>(g.store().to_coo()), n, n));
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

// The per-batch PageRank's share of the totals (a batch's, or finish()'s last update).
template <class S>
void stream_session<S>::state::add_pagerank(const batch_report& r) {
  stream_totals& t = totals;
  t.pr_iterations += r.pr_iterations;
  t.pr_restarts += r.pr_restarted ? 1 : 0;
  t.pr_pulls += r.pr_pulled ? 1 : 0;
  t.pr_bound = std::max(t.pr_bound, r.pr_bound);
  t.pr_error = std::max(t.pr_error, r.pr_error);
  t.cold_iterations += r.cold_iterations;
  t.pr_seconds += r.pr_seconds;
  t.cold_seconds += r.cold_seconds;
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
  add_pagerank(r);
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
      st.add_pagerank(r);
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
