// The subcommands. Results are reported in the input file's own vertex ids.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <utility>

#include "algorithms/closure.hpp"
#include "algorithms/pagerank.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "engine/cost_model.hpp"
#include "engine/defrag_policy.hpp"
#include "engine/graph.hpp"
#include "engine/profile.hpp"
#include "loaders/graph_file.hpp"
#include "tools/cli.hpp"

namespace fg::cli {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

edge_file load(const std::string& path, double& seconds) {
  auto t = clock_type::now();
  edge_file f = read_graph(path);
  seconds = since(t);
  return f;
}

pagerank_options pagerank_opts(const options& o) {
  pagerank_options p;
  p.damping = o.number("damping", 0.85, 0.0, 0.999999);
  p.tol = o.number("tol", 1e-10, 1e-300, 1.0);
  p.max_iter = int(o.integer("max-iter", 1000, 1, 100000000));
  p.weighted = o.has("weighted");
  p.kernel = o.get("kernel", "auto");
  if (isatty(STDERR_FILENO))  // progress only for a person watching, never into logs
    p.progress = [](int it, double change) { fmt::print(stderr, "\riteration {:5d}  L1 change {:.3e}", it, change); };
  return p;
}

void write_scores(const std::string& path, const edge_file& f, const std::vector<double>& score) {
  write_atomically(path, [&](std::FILE* out) {
    bool ok = true;
    for (std::size_t v = 0; v < score.size() && ok; ++v)
      ok = std::fprintf(out, "%lld %.17g\n", static_cast<long long>(f.original_id[v]), score[v]) > 0;
    return ok;
  });
}

void print_top(const edge_file& f, const std::vector<double>& score, std::int64_t k) {
  std::vector<std::size_t> idx(score.size());
  std::iota(idx.begin(), idx.end(), std::size_t(0));
  k = std::min<std::int64_t>(k, std::int64_t(idx.size()));
  std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](std::size_t a, std::size_t b) {
    return score[a] != score[b] ? score[a] > score[b] : a < b;
  });
  fmt::print("top {}:\n{:>6}  {:>12}  {}\n", k, "rank", "vertex", "score");
  for (std::int64_t i = 0; i < k; ++i)
    fmt::print("{:>6}  {:>12}  {:.10f}\n", i + 1, f.original_id[idx[std::size_t(i)]], score[idx[std::size_t(i)]]);
}

void report(const options& o, const edge_file& f, const pagerank_result& r, const pagerank_options& p) {
  if (p.progress) fmt::print(stderr, "\n");
  fmt::print("kernel: {} ({}; view built in {:.4f} s)\n", r.kernel, r.kernel_reason, r.view_seconds);
  fmt::print("pagerank: {} iterations, {} (L1 change {:.3e}, tolerance {:.3e}), {:.4f} s\n", r.iterations,
             r.converged ? "converged" : "NOT converged", r.last_change, p.tol * double(f.num_vertices), r.seconds);
  if (o.values.count("out")) {
    write_scores(o.get("out", ""), f, r.score);
    fmt::print("scores written to {}\n", o.get("out", ""));
  } else {
    print_top(f, r.score, o.integer("top", 10, 0, 1000000000));
  }
}
}  // namespace

exec backend_of(const options& o, std::string& description) {
  const std::string b = o.get("backend", "");
  const bool cuda_build = std::string(device_backend_name()) == "cuda";
  if (!b.empty() && b != "cpu" && b != "cuda") throw usage_error("--backend must be cpu or cuda, got '" + b + "'");
  if (b == "cuda" && !cuda_build)
    throw usage_error("this is the CPU build: --backend cuda needs the CUDA build (make FG_BACKEND=cuda)");
  if (b == "cpu" && cuda_build) {
    description = "reference (sequential host twin)";
    return exec::reference;
  }
  description = std::string(device_backend_name()) + " (" + device_description() + ")";
  return exec::device;
}

namespace {
// The selector's view of this matrix: profile, every kernel's predicted cost for the stated reads
// (a PageRank-like pass: double vectors), and the choice with its reason.
void explain(const options& o, const dcsr_matrix<pattern, device_space>& store) {
  const double reads = o.number("reads", 50, 1, 1e12);
  const matrix_profile p = profile(store);
  const auto shared = load_calibration(device_description());
  const calibration& cal = *shared;
  const selection s = select_kernel(p, 8, reads, cal, o.get("kernel", "auto"));
  fmt::print("\nprofile: {} rows, {} nnz, mu {:.2f}, sigma {:.2f}, max row {}, empty rows {}\n", p.rows, p.nnz, p.mu,
             p.sigma, p.max_row, p.empty_rows);
  fmt::print("row length quartiles (from a log2 histogram): {:.1f} / {:.1f} / {:.1f}\n", p.q1, p.median, p.q3);
  fmt::print("store: {:.2f} segments per non-empty row, {:.1f}% of the allocated buffer unused\n", p.segments_per_row,
             100 * p.gap_fraction);
  fmt::print("calibration: {}\n", cal.source);
  fmt::print("predicted cost of {} SpMVs (double vectors):\n{:<14} {:>10} {:>11} {:>11}\n", reads, "kernel", "SpMV ms",
             "convert ms", "total ms");
  for (const auto& e : s.estimates) {
    if (e.feasible) fmt::print("{:<14} {:>10.4f} {:>11.4f} {:>11.4f}\n", e.kernel, e.spmv_ms, e.convert_ms, e.total_ms);
    else fmt::print("{:<14} {:>10} ({})\n", e.kernel, "-", e.why_not);
  }
  fmt::print("choice: {}: {}\n", s.kernel, s.reason);
  const race_rule rule;
  const auto field = race_contenders(s, reads, rule);
  if (field.size() > 1) {
    std::string names;
    for (const auto& k : field) names += (names.empty() ? "" : ", ") + k;
    fmt::print("race: {} are within {:.0f}% of the choice's predicted total and cost at most {:.0f}% to build: a phase "
               "times {} read{} of each and keeps the fastest\n",
               names, 100 * (rule.spread - 1), 100 * rule.budget, rule.probes, rule.probes == 1 ? "" : "s");
  } else {
    fmt::print("race: none (no contender close enough and cheap enough, or too few reads to probe)\n");
  }
}
}  // namespace

int run_info(const options& o) {
  double t_load = 0;
  const edge_file f = load(o.file, t_load);
  FG_EXPECTS(f.num_vertices < 2147483647, "too many vertices");
  graph<pattern, device_space> g(orientation::out, vertex_t(f.num_vertices));
  g.insert(f, 0, f.src.size());
  const matrix_profile p = profile(g.store());
  fmt::print("file: {}\n", f.path);
  fmt::print("vertices: {}\nedges: {} in the file, {} distinct\n", p.rows, f.num_edges(), p.nnz);
  fmt::print("weights: {}\n", f.weighted() ? "yes" : "no");
  fmt::print("out-degree: mu {:.3f}, sigma {:.3f}, max {}\n", p.mu, p.sigma, p.max_row);
  fmt::print("empty rows (no out-edges): {}\n", p.empty_rows);
  fmt::print("load time: {:.3f} s\n", t_load);
  if (o.has("explain")) explain(o, g.store());
  else if (o.values.count("reads") || o.values.count("kernel")) throw usage_error("--reads and --kernel go with --explain");
  return 0;
}

int run_pagerank(const options& o) {
  std::string backend;
  const exec where = backend_of(o, backend);
  const pagerank_options p = pagerank_opts(o);
  double t_load = 0;
  const edge_file f = load(o.file, t_load);
  fmt::print("{}: {} vertices, {} edges, loaded in {:.3f} s\nbackend: {}\n", f.path, f.num_vertices,
             f.num_edges(), t_load, backend);
  const pagerank_result r = pagerank(f, p, where);
  report(o, f, r, p);
  return 0;  // not converging within --max-iter is reported, not an error
}

namespace {
// The edges an in-edge store holds, as Matrix Market (dense id + 1, which for an .mtx input is the
// file's own numbering), sorted by (source, target): `fluxgraph pagerank` on it gives the scores
// of the graph that remains.
template <class S>
void write_edges(const std::string& path, const edge_file& f, const dcsr_matrix<pattern, S>& in_edges) {
  const auto coo = in_edges.to_coo();
  const auto tgt = to_vector(coo.row), src = to_vector(coo.col);
  std::vector<std::pair<vertex_t, vertex_t>> e(coo.nnz);
  for (std::size_t i = 0; i < coo.nnz; ++i) e[i] = {src[i], tgt[i]};
  std::sort(e.begin(), e.end());
  write_atomically(path, [&](std::FILE* out) {
    bool ok = std::fprintf(out, "%%%%MatrixMarket matrix coordinate pattern general\n%% edges left by fluxgraph stream in %s\n"
                           "%lld %lld %zu\n", f.path.c_str(), static_cast<long long>(f.num_vertices),
                           static_cast<long long>(f.num_vertices), e.size()) > 0;
    for (std::size_t i = 0; i < e.size() && ok; ++i) ok = std::fprintf(out, "%d %d\n", e[i].first + 1, e[i].second + 1) > 0;
    return ok;
  });
}

// A random `fraction` of edges [first, last) of the file (rounded to the nearest count, distinct
// positions by a partial Fisher-Yates shuffle), as src / dst lists.
void pick_deletions(const edge_file& f, std::size_t first, std::size_t last, double fraction, std::mt19937_64& rng,
                    std::vector<vertex_t>& src, std::vector<vertex_t>& dst) {
  std::vector<std::size_t> idx(last - first);
  std::iota(idx.begin(), idx.end(), first);
  const auto k = std::size_t(std::llround(fraction * double(idx.size())));
  src.resize(k);
  dst.resize(k);
  for (std::size_t i = 0; i < k; ++i) {
    std::swap(idx[i], idx[i + std::size_t(rng() % (idx.size() - i))]);
    src[i] = f.src[idx[i]];
    dst[i] = f.dst[idx[i]];
  }
}

// The defragmentation policy from --defrag (default measured); a bad name is a usage error.
defrag_policy defrag_opts(const options& o) {
  defrag_policy p;
  try {
    p = make_defrag_policy(parse_defrag_mode(o.get("defrag", "measured")));
  } catch (const invalid_argument& e) {
    throw usage_error(std::string("--defrag: ") + e.what());
  }
  try {
    p.layout = parse_layout(o.get("layout", "auto"));
  } catch (const invalid_argument& e) {
    throw usage_error(std::string("--layout: ") + e.what());
  }
  return p;
}

// stream --closure: R⁺ of the store, extended after each insert batch from that batch alone
// (extend_closure); after a batch with deletions it is recomputed, since a closure cannot shrink
// semi-naively. --compare also computes it from scratch every batch and stops on any difference.
template <class S>
struct stream_closure {
  bool compare = false;
  dcsr_matrix<pattern, S> plus;
  double t_inc = 0, t_cold = 0;
  std::int64_t rounds = 0, recomputed = 0;

  static bool same_pairs(const dcsr_matrix<pattern, S>& a, const dcsr_matrix<pattern, S>& b) {
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
  // Prints this batch's columns: pairs, rounds (or "redo"), ms[, from-scratch ms].
  void after(std::size_t batch, const dcsr_matrix<pattern, S>& R, const coo_matrix<pattern, S>& added, bool deleted) {
    closure_stats st;
    if (deleted) {
      plus = transitive_closure(R, {}, &st);
      ++recomputed;
    } else {
      extend_closure(plus, R, added, {}, &st);
      rounds += st.iterations;
    }
    t_inc += st.seconds;
    fmt::print("  {:>12}  {:>6}  {:>10.3f}", st.pairs, deleted ? std::string("redo") : std::to_string(st.iterations),
               st.seconds * 1e3);
    if (!compare) return;
    closure_stats cold;
    const dcsr_matrix<pattern, S> fresh = transitive_closure(R, {}, &cold);
    t_cold += cold.seconds;
    fmt::print("  {:>10.3f}", cold.seconds * 1e3);
    if (!same_pairs(plus, fresh))
      throw error("stream --closure --compare: after batch " + std::to_string(batch) + " the incremental closure (" +
                  std::to_string(plus.nnz()) + " pairs) differs from the one computed from scratch (" +
                  std::to_string(fresh.nnz()) + " pairs)");
  }
};

template <class S>
int stream_on(const options& o, const edge_file& f, const std::string& backend) {
  const auto batch = std::size_t(o.integer("batch", 0, 1, std::int64_t(1) << 40));
  const double fraction = o.number("delete-fraction", 0, 0, 1);
  std::mt19937_64 rng(std::uint64_t(o.integer("seed", 1, 0, std::numeric_limits<std::int64_t>::max())));
  const pagerank_options p = pagerank_opts(o);
  const defrag_policy policy = defrag_opts(o);
  const bool per_batch = o.has("pagerank"), compare = o.has("compare"), closing = o.has("closure");
  if (compare && !per_batch && !closing) throw usage_error("--compare goes with --pagerank or --closure");
  FG_EXPECTS(f.num_vertices < 2147483647, "too many vertices");
  fmt::print("backend: {}\ndefragmentation policy: {}\n", backend, to_string(policy.mode));
  // In-edge orientation: PageRank pulls along in-edges with no atomics. A closure alone keeps out-
  // edges (with PageRank it is the transposed closure: the same number of pairs).
  graph<pattern, S> g(per_batch || !closing ? orientation::in : orientation::out, vertex_t(f.num_vertices));
  stream_closure<S> tc;
  tc.compare = compare;
  if (closing) tc.plus = transitive_closure(g.store());
  pagerank_options quiet = p;  // per-batch runs print a table row, not a progress line
  quiet.progress = nullptr;
  incremental_pagerank inc(quiet);
  const bool deleting = fraction > 0;
  fmt::print("{:>6}  {:>10}  {:>10}  {:>14}", "batch", "edges", "ms", "edges/s");
  if (deleting) fmt::print("  {:>10}  {:>10}  {:>14}", "deletes", "ms", "deletes/s");
  fmt::print("  {:>10}", "defrag ms");
  if (per_batch) fmt::print("  {:>8}  {:>10}", "pr iter", "pr ms");
  if (compare && per_batch) fmt::print("  {:>8}  {:>10}", "cold iter", "cold ms");
  if (closing) fmt::print("  {:>12}  {:>6}  {:>10}", "tc pairs", "rounds", "tc ms");
  if (closing && compare) fmt::print("  {:>10}", "scratch ms");
  fmt::print("\n");
  double t_ins = 0, t_del = 0, t_defrag = 0, t_pr = 0, t_cold = 0;
  std::size_t b = 0, asked = 0, defrags = 0;
  std::int64_t cold_iterations = 0;
  // SpMVs expected before the next batch: the per-batch PageRank's (its last count; a priori at first).
  double reads = per_batch ? pagerank_expected_reads(p, vertex_t(f.num_vertices)) : 0;
  defrag_decision last;
  std::vector<vertex_t> del_src, del_dst;
  for (std::size_t first = 0; first < f.src.size(); first += batch, ++b) {
    const std::size_t last_edge = std::min(f.src.size(), first + batch);
    coo_matrix<pattern, S> added;
    if (closing) added = g.batch(f, first, last_edge);  // kept for the closure's Δ₀
    auto t = clock_type::now();
    if (closing) g.insert(added);
    else g.insert(f, first, last_edge);
    memory::synchronize();
    const double s = since(t);
    t_ins += s;
    fmt::print("{:>6}  {:>10}  {:>10.3f}  {:>14.0f}", b + 1, last_edge - first, s * 1e3, double(last_edge - first) / s);
    if (deleting) {  // a fraction of the edges this batch just inserted
      pick_deletions(f, first, last_edge, fraction, rng, del_src, del_dst);
      t = clock_type::now();
      g.remove(del_src, del_dst);
      memory::synchronize();
      const double sd = since(t);
      t_del += sd;
      asked += del_src.size();
      fmt::print("  {:>10}  {:>10.3f}  {:>14.0f}", del_src.size(), sd * 1e3, double(del_src.size()) / sd);
    }
    t = clock_type::now();
    last = g.maybe_defragment(reads, policy);
    memory::synchronize();
    if (last.defragment) {
      ++defrags;
      t_defrag += since(t);
      fmt::print("  {:>10.3f}", since(t) * 1e3);
    } else {
      fmt::print("  {:>10}", "-");
    }
    if (per_batch) {
      const pagerank_result& r = inc.update(g.store());
      t_pr += r.seconds + r.view_seconds;
      reads = std::max(1, r.iterations);
      fmt::print("  {:>8}  {:>10.3f}", r.iterations, (r.seconds + r.view_seconds) * 1e3);
    }
    if (compare && per_batch) {
      const pagerank_result c = pagerank(g.store(), quiet);
      t_cold += c.seconds + c.view_seconds;
      cold_iterations += c.iterations;
      fmt::print("  {:>8}  {:>10.3f}", c.iterations, (c.seconds + c.view_seconds) * 1e3);
    }
    if (closing) tc.after(b + 1, g.store(), added, deleting && !del_src.empty());
    fmt::print("\n");
  }
  const dcsr_stats& st = g.store().stats();
  fmt::print("inserted {} edges in {} batches: {:.3f} s, {:.0f} edges/s; {} duplicates dropped\n", f.num_edges(), b,
             t_ins, double(f.num_edges()) / t_ins, st.duplicates_dropped);
  if (deleting)
    fmt::print("deleted {} of {} picked edges: {:.3f} s, {:.0f} picked/s; {} already gone (picked twice)\n",
               st.entries_deleted, asked, t_del, double(asked) / t_del, st.deletes_absent);
  fmt::print("{} distinct edges remain\n", g.num_edges());
  fmt::print("store: capacity {}, {} segments allocated, automatic compactions {} (segment limit) + {} (buffer full, {} grew)\n",
             g.store().capacity(), st.segments_allocated, st.defrag_segment_limit, st.defrag_buffer_full, st.buffer_grows);
  fmt::print("defragmentation policy {}: {} of {} batches defragmented, {:.3f} ms; last decision: {}\n",
             to_string(policy.mode), defrags, b, t_defrag * 1e3, last.reason);
  if (o.values.count("edges-out")) {
    write_edges(o.get("edges-out", ""), f, g.store());
    fmt::print("remaining edges written to {}\n", o.get("edges-out", ""));
  }
  if (closing) {
    fmt::print("closure: {} pairs; extended after {} batches in {} rounds, {} recomputed after deletions: {:.3f} s\n",
               tc.plus.nnz(), b - std::size_t(tc.recomputed), tc.rounds, tc.recomputed, tc.t_inc);
    if (compare) fmt::print("from scratch after every batch: {:.3f} s; equal after every batch\n", tc.t_cold);
  }
  if (per_batch) {
    fmt::print("incremental pagerank: {} iterations over {} batches, {:.3f} s (each warm-started from the last)\n",
               inc.total_iterations(), inc.updates(), t_pr);
    if (compare)  // per_batch
      fmt::print("cold starts: {} iterations, {:.3f} s; warm starts saved {} iterations ({:.1f}%)\n", cold_iterations,
                 t_cold, cold_iterations - inc.total_iterations(),
                 cold_iterations > 0 ? 100.0 * double(cold_iterations - inc.total_iterations()) / double(cold_iterations) : 0.0);
    report(o, f, inc.last(), quiet);  // the last batch's scores: the graph as it is now
    return 0;
  }
  // One read-heavy phase left: PageRank from scratch, asked of the policy like any batch boundary.
  const auto t_def = clock_type::now();
  const defrag_decision d = g.maybe_defragment(pagerank_expected_reads(p, vertex_t(f.num_vertices)), policy);
  memory::synchronize();
  if (d.defragment) fmt::print("defragment: {:.3f} ms ({})\n", since(t_def) * 1e3, d.reason);
  else fmt::print("defragment: skipped ({})\n", d.reason);
  const pagerank_result r = pagerank(g.store(), p);
  report(o, f, r, p);
  return 0;
}
}  // namespace

int run_stream(const options& o) {
  if (!o.values.count("batch")) throw usage_error("stream needs --batch N");
  std::string backend;
  const exec where = backend_of(o, backend);
  double t_load = 0;
  const edge_file f = load(o.file, t_load);
  fmt::print("{}: {} vertices, {} edges, loaded in {:.3f} s\n", f.path, f.num_vertices, f.num_edges(), t_load);
  return where == exec::reference ? stream_on<host_space>(o, f, backend) : stream_on<device_space>(o, f, backend);
}

namespace {
// "src dst" lines in the file's own ids; row i belongs to vertex i, or to sources[i].
void write_pairs(const std::string& path, const edge_file& f, const closure_run& run,
                 const std::vector<vertex_t>* sources) {
  write_atomically(path, [&](std::FILE* out) {
    bool ok = true;
    for (std::size_t i = 0; i + 1 < run.row_ptr.size() && ok; ++i) {
      const auto src = static_cast<long long>(f.original_id[std::size_t(sources ? (*sources)[i] : vertex_t(i))]);
      for (offset_t j = run.row_ptr[i]; j < run.row_ptr[i + 1] && ok; ++j)
        ok = std::fprintf(out, "%lld %lld\n", src, static_cast<long long>(f.original_id[std::size_t(run.col[std::size_t(j)])])) > 0;
    }
    return ok;
  });
}

// --sources a,b,c in the file's ids -> dense ids (original_id is increasing in both formats).
std::vector<vertex_t> parse_sources(const options& o, const edge_file& f) {
  const std::string list = o.get("sources", "");
  std::vector<vertex_t> out;
  for (std::size_t p = 0; p <= list.size();) {
    const std::size_t q = std::min(list.find(',', p), list.size());
    const std::string tok = list.substr(p, q - p);
    std::int64_t id = 0;
    auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), id);
    if (tok.empty() || ec != std::errc() || end != tok.data() + tok.size())
      throw usage_error("--sources needs comma-separated vertex ids, got '" + list + "'");
    auto it = std::lower_bound(f.original_id.begin(), f.original_id.end(), id);
    if (it == f.original_id.end() || *it != id)
      throw error("reach: source " + tok + " is not a vertex of " + f.path);
    out.push_back(vertex_t(it - f.original_id.begin()));
    p = q + 1;
  }
  return out;
}

int closure_command(const options& o, bool reach) {
  if (o.has("count-only") && o.values.count("out")) throw usage_error("--count-only and --out exclude each other");
  if (reach && !o.values.count("sources")) throw usage_error("reach needs --sources ID[,ID...]");
  std::string backend;
  const exec where = backend_of(o, backend);
  double t_load = 0;
  const edge_file f = load(o.file, t_load);
  const std::vector<vertex_t> sources = reach ? parse_sources(o, f) : std::vector<vertex_t>{};
  fmt::print("{}: {} vertices, {} edges, loaded in {:.3f} s\nbackend: {}\n", f.path, f.num_vertices, f.num_edges(),
             t_load, backend);
  closure_options opt;
  const bool tty = isatty(STDERR_FILENO);
  if (tty)  // progress only for a person watching, never into logs
    opt.progress = [](int it, offset_t added, offset_t total) {
      fmt::print(stderr, "\riteration {:5d}  new pairs {:>12}  pairs {:>14}", it, added, total);
    };
  const bool want_pairs = o.values.count("out") > 0 || reach;
  const closure_run run = closure_of_file(f, reach ? &sources : nullptr, opt, where, want_pairs);
  if (tty) fmt::print(stderr, "\n");
  const closure_stats& st = run.stats;
  if (reach) fmt::print("sources: {}\n", sources.size());
  fmt::print("pairs: {}\niterations: {}\ntime: {:.4f} s\n", st.pairs, st.iterations, st.seconds);
  fmt::print("peak memory: {:.1f} MiB ({})\n", double(st.peak_bytes) / 1048576.0,
             std::string(device_backend_name()) == "cuda" && where == exec::device ? "device" : "host, fluxgraph allocator");
  if (reach && !o.values.count("out"))
    for (std::size_t i = 0; i < sources.size(); ++i)
      fmt::print("source {}: {} reachable\n", f.original_id[std::size_t(sources[i])], run.row_ptr[i + 1] - run.row_ptr[i]);
  if (o.values.count("out")) {
    write_pairs(o.get("out", ""), f, run, reach ? &sources : nullptr);
    fmt::print("pairs written to {}\n", o.get("out", ""));
  }
  return 0;
}
}  // namespace

int run_closure(const options& o) { return closure_command(o, false); }
int run_reach(const options& o) { return closure_command(o, true); }

}  // namespace fg::cli
