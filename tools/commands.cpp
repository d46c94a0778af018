// The subcommands info, pagerank, closure and reach, and what the subcommands share. Results are
// reported in the input file's own vertex ids.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <numeric>
#include <utility>

#include "bench/bench.hpp"
#include "tools/cli.hpp"
#include "tools/json.hpp"

namespace fg::cli {

using fluxgraph::device;
using fluxgraph::edge_file;

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }
}  // namespace

edge_file load(const std::string& path, double& seconds) {
  auto t = clock_type::now();
  edge_file f = fluxgraph::read_edges(path);
  seconds = since(t);
  return f;
}

fluxgraph::graph graph_of(const edge_file& f, device where, bool weighted) {
  fluxgraph::graph_options opt;
  opt.where = where;
  opt.weighted = weighted;
  opt.ids = fluxgraph::vertex_ids::dense;  // the file's vertex numbers; its ids are f.original_id
  fluxgraph::graph g(f.num_vertices, opt);
  const double* w = weighted && !f.weight.empty() ? f.weight.data() : nullptr;
  g.insert(fluxgraph::edge_span<std::int32_t>{f.src.data(), f.dst.data(), f.src.size(), w});
  return g;
}

vertex_id dense_vertex(const edge_file& f, std::int64_t id) {
  const auto it = std::lower_bound(f.original_id.begin(), f.original_id.end(), id);
  return it == f.original_id.end() || *it != id ? -1 : vertex_id(it - f.original_id.begin());
}

fluxgraph::pagerank_options pagerank_opts(const options& o) {
  fluxgraph::pagerank_options p;
  p.damping = o.number("damping", 0.85, 0.0, 0.999999);
  p.tol = o.number("tol", 1e-10, 1e-300, 1.0);
  p.max_iter = int(o.integer("max-iter", 1000, 1, 100000000));
  p.kernel = o.get("kernel", "auto");
  p.mixed_precision = !o.has("double-reads");
  p.weighted = o.has("weighted");  // the graph holds weights only with --weighted too
  if (isatty(STDERR_FILENO))  // progress only for a person watching, never into logs
    p.progress = [](int it, double change) { fmt::print(stderr, "\riteration {:5d}  L1 change {:.3e}", it, change); };
  return p;
}

std::function<void(int, std::int64_t, std::int64_t)> progress_line(const char* step) {
  if (!isatty(STDERR_FILENO)) return {};
  return [step](int it, std::int64_t added, std::int64_t total) {
    fmt::print(stderr, "\r{} {:5d}  new {:>12}  total {:>14}", step, it, added, total);
  };
}

json_line json_summary(const options& o, const edge_file& f, const fluxgraph::graph& g, const std::string& backend) {
  json_line j;
  j.text("command", o.command).text("file", f.path).field("vertices", f.num_vertices).field("edges", g.num_edges());
  j.text("backend", backend);
  return j;
}

namespace {
void write_scores(const std::string& path, const std::vector<std::int64_t>& id, const std::vector<double>& score) {
  write_atomically(path, [&](std::FILE* out) {
    for (std::size_t v = 0; v < score.size() && !std::ferror(out); ++v) data_line(out, id[v], score[v]);
    return !std::ferror(out);
  });
}

// The k best vertices as (file id, score), best first, ties to the smaller dense id.
std::vector<std::pair<std::int64_t, double>> best(const std::vector<std::int64_t>& id, const std::vector<double>& score,
                                                  std::int64_t k) {
  std::vector<std::size_t> idx(score.size());
  std::iota(idx.begin(), idx.end(), std::size_t(0));
  k = std::min<std::int64_t>(k, std::int64_t(idx.size()));
  std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](std::size_t a, std::size_t b) {
    return score[a] != score[b] ? score[a] > score[b] : a < b;
  });
  std::vector<std::pair<std::int64_t, double>> top(static_cast<std::size_t>(k));
  for (std::size_t i = 0; i < top.size(); ++i) top[i] = {id[idx[i]], score[idx[i]]};
  return top;
}

void print_top(const std::vector<std::pair<std::int64_t, double>>& top) {
  fmt::print("top {}:\n{:>6}  {:>12}  {}\n", top.size(), "rank", "vertex", "score");
  for (std::size_t i = 0; i < top.size(); ++i) fmt::print("{:>6}  {:>12}  {:.10f}\n", i + 1, top[i].first, top[i].second);
}
}  // namespace

void report(const options& o, const std::vector<std::int64_t>& id, const fluxgraph::pagerank_result& r,
            const fluxgraph::pagerank_options& p) {
  if (p.progress) fmt::print(stderr, "\n");
  // The selector's reasoning is for those who ask (--verbose): a line of internals on every run
  // was noise on a 7-vertex graph.
  fmt::print("kernel: {} ({}view built in {:.4f} s{})\n", r.kernel, o.has("verbose") ? r.kernel_reason + "; " : "",
             r.view_seconds, r.mixed_reads > 0 ? fmt::format("; {} reads of float scores", r.mixed_reads) : "");
  fmt::print("pagerank: {} iterations, {} (L1 change {:.3e}, tolerance {:.3e}), {:.4f} s\n", r.iterations,
             r.converged ? "converged" : "NOT converged", r.last_change, p.tol * double(r.score.size()), r.seconds);
  if (o.values.count("out")) {
    write_scores(o.get("out", ""), id, r.score);
    fmt::print("scores written to {}\n", o.get("out", ""));
  } else {
    print_top(best(id, r.score, o.integer("top", 10, 0, 1000000000)));
  }
}

device backend_of(const options& o, std::string& description) {
  const std::string b = o.get("backend", "");
  if (!b.empty() && b != "cpu" && b != "cuda") throw usage_error("--backend must be cpu or cuda, got '" + b + "'");
  if (b == "cuda" && fluxgraph::build_backend() != "cuda")
    throw usage_error("this is the CPU build: --backend cuda needs the CUDA build (make FG_BACKEND=cuda)");
  const device d = b == "cpu" ? device::cpu : device::automatic;
  description = fluxgraph::describe(d);
  return d;
}

namespace {
// The selector's view of the graph: profile, every kernel's predicted cost for the stated reads
// (a PageRank-like pass: double vectors), and the choice with its reason.
fluxgraph::read_plan explain(const options& o, const fluxgraph::graph& g) {
  const fluxgraph::graph_profile p = g.profile();
  fluxgraph::read_plan s = g.plan_reads(o.number("reads", 50, 1, 1e12), o.get("kernel", "auto"));
  fmt::print("\nprofile: {} rows, {} nnz, mu {:.2f}, sigma {:.2f}, max row {}, empty rows {}\n", p.rows, p.nnz, p.mu,
             p.sigma, p.max_row, p.empty_rows);
  fmt::print("row length quartiles (from a log2 histogram): {:.1f} / {:.1f} / {:.1f}\n", p.q1, p.median, p.q3);
  fmt::print("store: {:.2f} segments per non-empty row, {:.1f}% of the allocated buffer unused\n", p.segments_per_row,
             100 * p.gap_fraction);
  fmt::print("calibration: {}\n", s.calibration);
  fmt::print("predicted cost of {} SpMVs (double vectors):\n{:<14} {:>10} {:>11} {:>11}\n", s.reads, "kernel", "SpMV ms",
             "convert ms", "total ms");
  for (const auto& e : s.estimates) {
    if (e.feasible) fmt::print("{:<14} {:>10.4f} {:>11.4f} {:>11.4f}\n", e.kernel, e.spmv_ms, e.convert_ms, e.total_ms);
    else fmt::print("{:<14} {:>10} ({})\n", e.kernel, "-", e.why_not);
  }
  fmt::print("choice: {}: {}\n", s.kernel, s.reason);
  if (!s.race.empty()) {
    std::string names;
    for (const auto& k : s.race) names += (names.empty() ? "" : ", ") + k;
    fmt::print("race: {} are within {:.0f}% of the choice's predicted total and cost at most {:.0f}% to build: a phase "
               "times {} read{} of each and keeps the fastest\n",
               names, 100 * (s.race_spread - 1), 100 * s.race_budget, s.race_probes, s.race_probes == 1 ? "" : "s");
  } else {
    fmt::print("race: none (no contender close enough and cheap enough, or too few reads to probe)\n");
  }
  return s;
}
}  // namespace

int run_info(const options& o) {
  if (!o.has("explain") && (o.values.count("reads") || o.values.count("kernel")))
    throw usage_error("--reads and --kernel go with --explain");
  double t_load = 0;
  const edge_file f = load(o.file, t_load);
  fluxgraph::graph g = graph_of(f, device::automatic, false);
  const fluxgraph::graph_profile p = g.profile();
  fmt::print("file: {}\n", f.path);
  fmt::print("vertices: {}\nedges: {} in the file, {} distinct\n", p.rows, f.num_edges(), p.nnz);
  fmt::print("weights: {}\n", f.weight.empty() ? "no" : "yes");
  fmt::print("out-degree: mu {:.3f}, sigma {:.3f}, max {}\n", p.mu, p.sigma, p.max_row);
  fmt::print("empty rows (no out-edges): {}\n", p.empty_rows);
  fmt::print("load time: {:.3f} s\n", t_load);
  fluxgraph::read_plan plan;
  if (o.has("explain")) plan = explain(o, g);
  fluxgraph::memory_report mem;
  if (o.has("memory")) {  // with what PageRank keeps: the in-edge copy and its state
    g.pagerank();
    mem = g.memory_use();
    if (!json_output(o)) fmt::print("memory, after one PageRank:\n"), fg::bench::print_memory(mem, 0, mem.peak);
  }
  if (json_output(o)) {  // the same facts; --explain adds the choice and every kernel's estimate
    json_line j = json_summary(o, f, g, g.backend());
    j.field("file_edges", f.num_edges()).flag("weights", !f.weight.empty()).field("mu", p.mu).field("sigma", p.sigma);
    j.field("max_row", p.max_row).field("empty_rows", p.empty_rows).field("load_seconds", t_load);
    if (o.has("explain")) {
      const fluxgraph::read_plan& s = plan;
      std::string est = "[";
      for (const auto& e : s.estimates)
        est += fmt::format("{}{{\"kernel\":{},\"feasible\":{},\"total_ms\":{}}}", est.size() > 1 ? "," : "",
                           json_line::quoted(e.kernel), e.feasible ? "true" : "false", e.feasible ? e.total_ms : 0.0);
      j.field("reads", s.reads).text("kernel", s.kernel).text("reason", s.reason).field("estimates", est + "]");
    }
    if (o.has("memory")) {
      json_line parts;
      for (const auto& part : mem.parts) parts.field(part.name.c_str(), part.bytes);
      j.field("memory", parts.object()).field("memory_bytes", mem.total()).field("bytes_per_edge", mem.per_edge(mem.total()));
      j.field("allocator_bytes", mem.in_use).field("peak_bytes", mem.peak).field("csr_bytes", mem.packed);
    }
    j.print(data_stream());
  }
  return 0;
}

int run_pagerank(const options& o) {
  // Under mpirun (or --comm mpi|nccl) the run is distributed (tools/distributed.cpp).
  const std::string comm = o.get("comm", "auto");
  fluxgraph::ranks r(comm);
  if (r.size() > 1 || comm == "mpi" || comm == "nccl") {
    if (json_output(o)) throw usage_error("--format json is for one process; a distributed run prints text (rank 0)");
    return run_pagerank_distributed(o, r);
  }
  if (o.values.count("partition")) throw usage_error("--partition goes with a distributed run (mpirun, --comm)");
  std::string backend;
  const device where = backend_of(o, backend);
  fluxgraph::pagerank_options p = pagerank_opts(o);
  double t_load = 0;
  const edge_file f = load(o.file, t_load);
  fmt::print("{}: {} vertices, {} edges, loaded in {:.3f} s\nbackend: {}\n", f.path, f.num_vertices, f.num_edges(), t_load,
             backend);
  fluxgraph::graph g = graph_of(f, where, o.has("weighted"));
  const fluxgraph::pagerank_result pr = g.pagerank(p);
  report(o, f.original_id, pr, p);
  if (json_output(o)) {
    json_line j = json_summary(o, f, g, backend);
    j.text("kernel", pr.kernel).field("iterations", pr.iterations).flag("converged", pr.converged);
    j.field("last_change", pr.last_change).field("tolerance", p.tol * double(pr.score.size())).field("seconds", pr.seconds);
    const std::int64_t k = o.values.count("out") ? 0 : o.integer("top", 10, 0, 1000000000);
    j.pairs("top", best(f.original_id, pr.score, k)).print(data_stream());
  }
  return 0;  // not converging within --max-iter is reported, not an error
}

namespace {
// --seeds: sets of file ids separated by '/', the ids of a set by ','; as dense vertices.
std::vector<std::vector<vertex_id>> seed_sets(const options& o, const edge_file& f) {
  const std::string text = o.get("seeds", "");
  if (text.empty()) throw usage_error("--seeds ID[,ID...] is required");
  std::vector<std::vector<vertex_id>> sets(1);
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find_first_of(",/", at), text.size());
    const std::string id = text.substr(at, end - at);
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), v);
    if (id.empty() || ec != std::errc() || ptr != id.data() + id.size())
      throw usage_error("--seeds: '" + id + "' is not a vertex id (sets are 'ID,ID,...' separated by '/')");
    const vertex_id d = dense_vertex(f, v);
    if (d < 0) throw usage_error(fmt::format("--seeds: vertex {} is not in {}", v, f.path));
    sets.back().push_back(d);
    if (end < text.size() && text[end] == '/') sets.emplace_back();
    at = end + 1;
  }
  return sets;
}
}  // namespace

// ppr FILE --seeds: personalized PageRank of every seed set, read together (k vectors a read).
int run_ppr(const options& o) {
  std::string backend;
  const device where = backend_of(o, backend);
  fluxgraph::pagerank_options p = pagerank_opts(o);
  double t_load = 0;
  const edge_file f = load(o.file, t_load);
  const std::vector<std::vector<vertex_id>> sets = seed_sets(o, f);
  fmt::print("{}: {} vertices, {} edges, loaded in {:.3f} s\nbackend: {}\n", f.path, f.num_vertices, f.num_edges(), t_load,
             backend);
  fluxgraph::graph g = graph_of(f, where, o.has("weighted"));
  const std::vector<fluxgraph::pagerank_result> r = g.personalized_pagerank(sets, p);
  if (p.progress) fmt::print(stderr, "\n");
  fmt::print("kernel: {}{}; {} seed set{} read together, {:.4f} s\n", r.front().kernel, o.has("verbose") ? " (" + r.front().kernel_reason + ")" : "",
             r.size(), r.size() == 1 ? "" : "s", r.front().seconds);
  const std::int64_t top = o.values.count("out") ? 0 : o.integer("top", 10, 0, 1000000000);
  json_line j = json_summary(o, f, g, backend);
  std::string list = "[";
  for (std::size_t s = 0; s < r.size(); ++s) {
    std::string seeds;
    for (vertex_id v : sets[s]) seeds += (seeds.empty() ? "" : ",") + std::to_string(f.original_id[std::size_t(v)]);
    fmt::print("set {} (seeds {}): {} iterations, {} (L1 change {:.3e}, tolerance {:.3e})\n", s + 1, seeds, r[s].iterations,
               r[s].converged ? "converged" : "NOT converged", r[s].last_change, p.tol * double(r[s].score.size()));
    const auto pairs = best(f.original_id, r[s].score, top);
    if (!pairs.empty() && !json_output(o)) print_top(pairs);
    json_line one;
    one.field("seeds", "[" + seeds + "]").field("iterations", r[s].iterations).flag("converged", r[s].converged);
    one.field("last_change", r[s].last_change).pairs("top", pairs);
    list += (s ? "," : "") + one.object();
  }
  if (o.values.count("out")) {  // "id score_1 ... score_k": a column per set
    write_atomically(o.get("out", ""), [&](std::FILE* out) {
      for (std::size_t v = 0; v < f.original_id.size() && !std::ferror(out); ++v) {
        fmt::print(out, "{}", f.original_id[v]);
        for (const auto& one : r) fmt::print(out, " {}", one.score[v]);
        fmt::print(out, "\n");
      }
      return !std::ferror(out);
    });
    fmt::print("scores written to {}\n", o.get("out", ""));
  }
  if (json_output(o)) j.text("kernel", r.front().kernel).field("seconds", r.front().seconds).field("sets", list + "]").print(data_stream());
  return 0;
}

namespace {
// "src dst" lines in the file's own ids: row i of `pairs` belongs to row_id[i].
void write_pairs(const std::string& path, const edge_file& f, const fluxgraph::csr& pairs, const std::vector<vertex_id>& row_id) {
  write_atomically(path, [&](std::FILE* out) {
    bool ok = true;
    for (std::size_t i = 0; i + 1 < pairs.row_ptr.size() && ok; ++i) {
      const auto src = static_cast<long long>(f.original_id[std::size_t(row_id[i])]);
      for (std::int64_t j = pairs.row_ptr[i]; j < pairs.row_ptr[i + 1] && ok; ++j)
        ok = std::fprintf(out, "%lld %lld\n", src, static_cast<long long>(f.original_id[std::size_t(pairs.col[std::size_t(j)])])) > 0;
    }
    return ok;
  });
}

// --sources a,b,c in the file's ids -> dense ids.
std::vector<vertex_id> parse_sources(const options& o, const edge_file& f) {
  const std::string list = o.get("sources", "");
  std::vector<vertex_id> out;
  for (std::size_t p = 0; p <= list.size();) {
    const std::size_t q = std::min(list.find(',', p), list.size());
    const std::string tok = list.substr(p, q - p);
    std::int64_t id = 0;
    auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), id);
    if (tok.empty() || ec != std::errc() || end != tok.data() + tok.size())
      throw usage_error("--sources needs comma-separated vertex ids, got '" + list + "'");
    const vertex_id d = dense_vertex(f, id);
    if (d < 0) throw fluxgraph::error("reach: source " + tok + " is not a vertex of " + f.path);
    out.push_back(d);
    p = q + 1;
  }
  return out;
}

// Before a closure that may run for minutes and take gigabytes: its size from the reach of a
// sample of vertices (evenly spaced ids; the mean reach times n), so a user can stop it early.
double print_closure_estimate(const fluxgraph::graph& g) {
  const vertex_id n = g.num_vertices();
  if (n == 0) return 0;
  const vertex_id k = std::min<vertex_id>(n, 64);
  std::vector<vertex_id> sample(static_cast<std::size_t>(k));
  for (vertex_id i = 0; i < k; ++i) sample[std::size_t(i)] = i * n / k;
  const auto t = std::chrono::steady_clock::now();
  const fluxgraph::csr r = g.reach(sample);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  const double pairs = double(r.row_ptr.back()) / double(k) * double(n);
  fmt::print("estimate: about {:.3g} pairs ({:.3g} GiB as 4-byte columns), from the reach of {} of the {} vertices ({:.3f} s)\n",
             pairs, pairs * 4 / 1073741824.0, k, n, seconds);
  std::fflush(stdout);  // seen before the closure's work, also through a pipe
  return pairs;
}

int closure_command(const options& o, bool reach) {
  if (o.has("count-only") && o.values.count("out")) throw usage_error("--count-only and --out exclude each other");
  if (reach && !o.values.count("sources")) throw usage_error("reach needs --sources ID[,ID...]");
  std::string backend;
  const device where = backend_of(o, backend);
  double t_load = 0;
  const edge_file f = load(o.file, t_load);
  const std::vector<vertex_id> sources = reach ? parse_sources(o, f) : std::vector<vertex_id>{};
  fmt::print("{}: {} vertices, {} edges, loaded in {:.3f} s\nbackend: {}\n", f.path, f.num_vertices, f.num_edges(), t_load,
             backend);
  const fluxgraph::graph g = graph_of(f, where, false);
  const double estimate = reach ? 0 : print_closure_estimate(g);
  const auto progress = progress_line("iteration");
  fluxgraph::closure_info st;
  fluxgraph::csr pairs;  // reach's rows, or R+ when written
  std::vector<vertex_id> row_id = sources;
  if (reach) {
    pairs = g.reach(sources, &st, progress);
  } else {
    const fluxgraph::graph plus = g.closure(&st, progress);  // stays on the device unless written
    if (o.values.count("out")) pairs = plus.to_csr();
    row_id.resize(std::size_t(g.num_vertices()));
    std::iota(row_id.begin(), row_id.end(), vertex_id(0));
  }
  if (progress) fmt::print(stderr, "\n");
  if (reach) fmt::print("sources: {}\n", sources.size());
  fmt::print("pairs: {}\niterations: {}\ntime: {:.4f} s\n", st.pairs, st.iterations, st.seconds);
  fmt::print("peak memory: {:.1f} MiB ({})\n", double(st.peak_bytes) / 1048576.0,
             fluxgraph::build_backend() == "cuda" && where != device::cpu ? "device" : "host, fluxgraph allocator");
  if (reach && !o.values.count("out"))
    for (std::size_t i = 0; i < sources.size(); ++i)
      fmt::print("source {}: {} reachable\n", f.original_id[std::size_t(sources[i])], pairs.row_ptr[i + 1] - pairs.row_ptr[i]);
  if (o.values.count("out")) {
    write_pairs(o.get("out", ""), f, pairs, row_id);
    fmt::print("pairs written to {}\n", o.get("out", ""));
  }
  if (json_output(o)) {
    json_line j = json_summary(o, f, g, backend);
    if (reach) j.field("sources", sources.size());
    else j.field("estimate", estimate);
    j.field("pairs", st.pairs).field("iterations", st.iterations).field("seconds", st.seconds).field("peak_bytes", st.peak_bytes);
    j.print(data_stream());
  }
  return 0;
}
}  // namespace

int run_closure(const options& o) { return closure_command(o, false); }
int run_reach(const options& o) { return closure_command(o, true); }

}  // namespace fg::cli
