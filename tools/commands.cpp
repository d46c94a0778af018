// The subcommands. Results are reported in the input file's own vertex ids.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <utility>

#include "algorithms/closure.hpp"
#include "algorithms/pagerank.hpp"
#include "core/error.hpp"
#include "engine/cost_model.hpp"
#include "engine/graph.hpp"
#include "engine/profile.hpp"
#include "loaders/file_analyses.hpp"
#include "loaders/graph_file.hpp"
#include "tools/cli.hpp"

namespace fg::cli {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }
}  // namespace

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

namespace {
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

}  // namespace

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
