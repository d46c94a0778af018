// `fluxgraph stream FILE`: the file's edges through a fluxgraph::stream in batches, one table row
// per batch, then the totals and the final PageRank. (`stream -` is tools/stream_live.cpp.)
#include <fmt/core.h>

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <limits>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

#include "tools/cli.hpp"
#include "tools/json.hpp"

namespace fg::cli {

using fluxgraph::batch_report;

namespace {
fluxgraph::defrag_mode defrag_mode_of(const options& o) {
  const std::string m = o.get("defrag", "measured");
  if (m == "none") return fluxgraph::defrag_mode::none;
  if (m == "limit") return fluxgraph::defrag_mode::segment_limit;
  if (m == "measured") return fluxgraph::defrag_mode::measured;
  throw usage_error("--defrag: must be none, limit or measured, got '" + m + "'");
}
fluxgraph::row_layout layout_of(const options& o) {
  const std::string l = o.get("layout", "auto");
  if (l == "auto") return fluxgraph::row_layout::automatic;
  if (l == "rows") return fluxgraph::row_layout::rows;
  if (l == "size") return fluxgraph::row_layout::size;
  throw usage_error("--layout: must be auto, rows or size, got '" + l + "'");
}
}  // namespace

fluxgraph::stream_options stream_opts(const options& o, fluxgraph::device where) {
  fluxgraph::stream_options s;
  s.where = where;
  s.ids = fluxgraph::vertex_ids::dense;  // batches come from a file or a live_reader, already numbered
  s.pagerank = pagerank_opts(o);
  s.defrag = defrag_mode_of(o);
  s.layout = layout_of(o);
  s.pagerank_per_batch = o.has("pagerank");
  s.pagerank_every = o.integer("pagerank-every", 1, 1, std::numeric_limits<std::int64_t>::max());
  const std::string m = o.get("memory", "fast");
  if (m != "fast" && m != "compact") throw usage_error("--memory: must be fast or compact, got '" + m + "'");
  s.memory_footprint = m == "compact" ? fluxgraph::footprint::compact : fluxgraph::footprint::fast;
  if (!s.pagerank_per_batch && (o.values.count("pagerank-every") || o.values.count("memory")))
    throw usage_error("--pagerank-every and --memory go with --pagerank");
  s.closure = o.has("closure");
  s.bfs_source = o.values.count("bfs") ? o.integer("bfs", 0, 0, std::numeric_limits<std::int64_t>::max()) : -1;
  s.sssp_source = o.values.count("sssp") ? o.integer("sssp", 0, 0, std::numeric_limits<std::int64_t>::max()) : -1;
  s.wcc = o.has("wcc");
  s.triangles = o.has("triangles");
  s.compare = o.has("compare");
  if (s.compare && !s.pagerank_per_batch && !s.closure && !apps_on(s))
    throw usage_error("--compare goes with --pagerank, --closure, --bfs, --sssp, --wcc or --triangles");
  return s;
}

// The id model: what a command writes is in the ids its input gave, so a file written here reads
// back as the same graph (an edge list keeps the vertices that have edges: isolated ones are in
// a .mtx, whose header gives the vertex count).
void write_edges(const std::string& path, const std::string& source, const std::vector<std::int64_t>& id,
                 const fluxgraph::coo& e) {
  std::vector<std::pair<std::int64_t, std::int64_t>> edges(e.src.size());
  for (std::size_t i = 0; i < edges.size(); ++i) edges[i] = {id.at(std::size_t(e.src[i])), id.at(std::size_t(e.dst[i]))};
  std::sort(edges.begin(), edges.end());
  const bool mtx = path.size() >= 4 && std::equal(path.end() - 4, path.end(), ".mtx", [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == b;
  });
  const std::int64_t low = id.empty() ? 1 : *std::min_element(id.begin(), id.end());
  const std::int64_t n = id.empty() ? 0 : *std::max_element(id.begin(), id.end());
  if (mtx && low < 1)
    throw fluxgraph::error("--edges-out " + path + ": Matrix Market ids start at 1 and the input has id " +
                           std::to_string(low) + ": name the file .txt for an edge list in the input's ids");
  write_atomically(path, [&](std::FILE* out) {
    bool ok = mtx ? std::fprintf(out, "%%%%MatrixMarket matrix coordinate pattern general\n%% edges left by fluxgraph "
                                      "stream in %s, in its ids\n%lld %lld %zu\n", source.c_str(), static_cast<long long>(n),
                                 static_cast<long long>(n), edges.size()) > 0
                  : std::fprintf(out, "# edges left by fluxgraph stream in %s, in its ids\n", source.c_str()) > 0;
    for (std::size_t i = 0; i < edges.size() && ok && !std::ferror(out); ++i) data_line(out, edges[i].first, edges[i].second);
    return ok && !std::ferror(out);
  });
}

namespace {
// edges per second of a timed part; 0 when nothing was timed (an empty part)
double rate(std::size_t n, double seconds) { return seconds > 0 ? double(n) / seconds : 0.0; }

// The table: one header line, then print_row per batch.
struct table {
  bool deleting, per_batch, compare, closing, apps;

  void print_header() const {
    fmt::print("{:>6}  {:>10}  {:>10}  {:>14}", "batch", "edges", "ms", "edges/s");
    if (deleting) fmt::print("  {:>10}  {:>10}  {:>14}", "deletes", "ms", "deletes/s");
    fmt::print("  {:>10}", "defrag ms");
    if (per_batch) fmt::print("  {:>8}  {:>10}  {:>9}", "pr iter", "pr ms", "pr bound");
    if (compare && per_batch) fmt::print("  {:>8}  {:>10}  {:>9}", "cold iter", "cold ms", "L1 dist");
    if (closing) fmt::print("  {:>13}  {:>6}  {:>10}", "closure pairs", "rounds", "closure ms");
    if (closing && compare) fmt::print("  {:>10}", "scratch ms");
    if (apps) fmt::print("  {:>10}  {:>4}", "apps ms", "redo");
    if (apps && compare) fmt::print("  {:>10}", "scratch ms");
    fmt::print("\n");
  }
  void print_row(const batch_report& r) const {
    fmt::print("{:>6}  {:>10}  {:>10.3f}  {:>14.0f}", r.batch, r.inserts, r.insert_seconds * 1e3,
               rate(r.inserts, r.insert_seconds));
    if (deleting)
      fmt::print("  {:>10}  {:>10.3f}  {:>14.0f}", r.deletes, r.delete_seconds * 1e3, rate(r.deletes, r.delete_seconds));
    if (r.defrag.defragmented) fmt::print("  {:>10.3f}", r.defrag_seconds * 1e3);
    else fmt::print("  {:>10}", "-");
    if (per_batch && !r.pr_updated) fmt::print("  {:>8}  {:>10}  {:>9}", "-", "-", "-");  // --pagerank-every
    else if (per_batch)
      fmt::print("  {:>8}  {:>10.3f}  {:>9.2e}", fmt::format("{}{}", r.pr_iterations, r.pr_restarted ? "*" : r.pr_pulled ? "+" : ""),
                 r.pr_seconds * 1e3, r.pr_bound);
    if (compare && per_batch && !r.pr_updated) fmt::print("  {:>8}  {:>10}  {:>9}", "-", "-", "-");
    else if (compare && per_batch) fmt::print("  {:>8}  {:>10.3f}  {:>9.2e}", r.cold_iterations, r.cold_seconds * 1e3, r.pr_error);
    if (closing)
      fmt::print("  {:>13}  {:>6}  {:>10.3f}", r.closure_pairs,
                 r.closure_recomputed ? std::string("redo") : std::to_string(r.closure_rounds), r.closure_seconds * 1e3);
    if (closing && compare) fmt::print("  {:>10.3f}", r.closure_scratch_seconds * 1e3);
    if (apps) fmt::print("  {:>10.3f}  {:>4}", r.apps_seconds * 1e3, r.apps_recomputed ? "yes" : "-");
    if (apps && compare) fmt::print("  {:>10.3f}", r.apps_scratch_seconds * 1e3);
    fmt::print("\n");
  }
};

// The applications after the last batch, and what keeping them cost.
void print_apps(const fluxgraph::stream_options& so, const batch_report& r, const fluxgraph::stream_totals& tot) {
  if (so.bfs_source >= 0) fmt::print("bfs: {} vertices reached\n", r.bfs_reached);
  if (so.sssp_source >= 0) fmt::print("sssp: {} vertices reached\n", r.sssp_reached);
  if (so.wcc) fmt::print("wcc: {} components\n", r.components);
  if (so.triangles) fmt::print("triangles: {}\n", r.triangles);
  fmt::print("applications kept current after {} batches: {:.3f} s ({} recomputed after deletions)\n", tot.batches,
             tot.apps_seconds, tot.apps_recomputed);
  if (so.compare) fmt::print("from scratch after every batch: {:.3f} s; equal after every batch\n", tot.apps_scratch_seconds);
}

const char* mode_name(fluxgraph::defrag_mode m) {
  return m == fluxgraph::defrag_mode::none ? "none" : m == fluxgraph::defrag_mode::segment_limit ? "limit" : "measured";
}

void print_totals(const options& o, const fluxgraph::edge_file& f, const fluxgraph::stream& s, const table& t) {
  const fluxgraph::stream_totals& tot = s.totals();
  const fluxgraph::store_stats st = s.stats();
  fmt::print("inserted {} edges in {} batches: {:.3f} s, {:.0f} edges/s; {} duplicates dropped\n", f.num_edges(),
             tot.batches, tot.insert_seconds, double(f.num_edges()) / tot.insert_seconds, st.duplicates_dropped);
  if (t.deleting)
    fmt::print("deleted {} of {} picked edges: {:.3f} s, {:.0f} picked/s; {} already gone (picked twice)\n",
               st.entries_deleted, tot.deletes, tot.delete_seconds, rate(std::size_t(tot.deletes), tot.delete_seconds),
               st.deletes_absent);
  fmt::print("{} distinct edges remain\n", s.num_edges());
  fmt::print("store: capacity {}, {} segments allocated, {} rows moved past k segments, automatic compactions {} "
             "(segment limit) + {} (buffer full), {} of them in place; buffer grown {} times\n",
             st.capacity, st.segments_allocated, st.rows_relocated, st.compactions_segment_limit,
             st.compactions_buffer_full, st.compactions_in_place, st.buffer_grows);
  fmt::print("defragmentation policy {}: {} of {} batches defragmented, {:.3f} ms; last decision: {}\n",
             mode_name(defrag_mode_of(o)), tot.defragmentations, tot.batches, tot.defrag_seconds * 1e3,
             tot.last_defrag.reason);
  if (o.values.count("edges-out")) {
    write_edges(o.get("edges-out", ""), f.path, f.original_id, s.edges());
    fmt::print("remaining edges written to {}\n", o.get("edges-out", ""));
  }
  if (t.closing) {
    fmt::print("closure: {} pairs; extended after {} batches in {} rounds, {} recomputed after deletions: {:.3f} s\n",
               s.closure_pairs(), tot.closure_extended, tot.closure_rounds, tot.closure_recomputed, tot.closure_seconds);
    if (t.compare)
      fmt::print("from scratch after every batch: {:.3f} s; equal after every batch\n", tot.closure_scratch_seconds);
  }
}

// --format json: the totals as one object, with the names stream -'s summary line uses.
void json_totals(const options& o, const fluxgraph::edge_file& f, const fluxgraph::stream& s, const fluxgraph::stream_end& end,
                 const std::string& backend) {
  const fluxgraph::stream_totals& tot = s.totals();
  const fluxgraph::stream_options& so = s.options();
  json_line j;
  j.text("command", o.command).text("file", f.path).field("vertices", s.num_vertices()).field("edges", s.num_edges());
  j.text("backend", backend).field("batches", tot.batches).field("edges_in", f.num_edges());
  j.field("insert_s", tot.insert_seconds).field("edges_per_s", std::llround(rate(f.num_edges(), tot.insert_seconds)));
  if (tot.deletes > 0) j.field("deletes", tot.deletes).field("delete_s", tot.delete_seconds);
  j.field("defragmentations", tot.defragmentations).field("defrag_s", tot.defrag_seconds);
  if (so.pagerank_per_batch) {
    j.field("pr_iterations", tot.pr_iterations).field("pr_s", tot.pr_seconds).field("pr_restarts", tot.pr_restarts);
    j.field("pr_pulls", tot.pr_pulls).field("pr_bound", tot.pr_bound);
    if (so.compare) j.field("cold_iterations", tot.cold_iterations).field("cold_s", tot.cold_seconds).field("pr_error", tot.pr_error);
  }
  if (end.has_pagerank) {
    j.field("pr_final_iterations", end.pagerank.iterations).flag("pr_converged", end.pagerank.converged);
    const std::int64_t k = o.values.count("out") ? 0 : o.integer("top", 10, 0, 1000000000);
    add_top(j, s.top(std::size_t(k)), f.original_id, k);
  }
  if (so.closure) j.field("closure_pairs", s.closure_pairs()).field("closure_s", tot.closure_seconds);
  if (apps_on(so)) j.field("apps_s", tot.apps_seconds).field("apps_recomputed", tot.apps_recomputed);
  j.print(data_stream());
}

// --snapshot-in with stream FILE: the file's vertices become the snapshot's where their ids match
// (a snapshot without ids: by dense id), new ones follow. The file's edges are renumbered to match.
void rebase(fluxgraph::edge_file& f, const std::vector<std::int64_t>& known, std::int64_t snapshot_vertices) {
  if (known.empty()) {
    f.num_vertices = std::max(f.num_vertices, snapshot_vertices);
    for (std::int64_t v = std::int64_t(f.original_id.size()); v < f.num_vertices; ++v) f.original_id.push_back(v + 1);
    return;
  }
  std::unordered_map<std::int64_t, std::int32_t> dense;
  for (std::size_t v = 0; v < known.size(); ++v) dense.emplace(known[v], std::int32_t(v));
  std::vector<std::int64_t> ids = known;
  std::vector<std::int32_t> to(f.original_id.size());
  for (std::size_t v = 0; v < to.size(); ++v) {
    const auto [it, added] = dense.emplace(f.original_id[v], std::int32_t(ids.size()));
    if (added) ids.push_back(f.original_id[v]);
    to[v] = it->second;
  }
  for (auto& x : f.src) x = to[std::size_t(x)];
  for (auto& x : f.dst) x = to[std::size_t(x)];
  f.original_id = std::move(ids);
  f.num_vertices = std::int64_t(f.original_id.size());
}

int stream_on(const options& o, fluxgraph::edge_file& f, fluxgraph::device where, const std::string& backend) {
  const auto batch = std::size_t(o.integer("batch", 0, 1, std::int64_t(1) << 40));
  const double fraction = o.number("delete-fraction", 0, 0, 1);
  const auto seed = std::uint64_t(o.integer("seed", 1, 0, std::numeric_limits<std::int64_t>::max()));
  fluxgraph::stream_options so = stream_opts(o, where);
  // --bfs/--sssp name file ids: the stream's dense ids (a snapshot's stream resolves its own ids)
  for (std::int64_t* src : {&so.bfs_source, &so.sssp_source}) {
    if (*src < 0 || o.values.count("snapshot-in")) continue;
    const vertex_id d = dense_vertex(f, *src);
    if (d < 0) throw usage_error("source " + std::to_string(*src) + " is not a vertex of " + f.path);
    *src = d;
  }
  fmt::print("backend: {}\ndefragmentation policy: {}\n", backend, mode_name(so.defrag));
  fluxgraph::stream session(so, 0);
  if (o.values.count("snapshot-in")) {
    session.load(o.get("snapshot-in", ""));
    rebase(f, session.ids(), session.num_vertices());
    fmt::print("started from {}: {} vertices, {} edges\n", o.get("snapshot-in", ""), session.num_vertices(), session.num_edges());
  }
  const table t{fraction > 0, so.pagerank_per_batch, so.compare, so.closure, apps_on(so)};
  t.print_header();
  batch_report last;
  session.stream_file(f, batch, fraction, seed, [&](const batch_report& r) { t.print_row(r), last = r; });
  if (t.apps) print_apps(so, last, session.totals());
  print_totals(o, f, session, t);
  if (o.values.count("snapshot-out")) {
    session.save(o.get("snapshot-out", ""), f.original_id);
    fmt::print("snapshot written to {}\n", o.get("snapshot-out", ""));
  }
  const fluxgraph::stream_end end = session.finish();
  const fluxgraph::stream_totals& tot = session.totals();
  if (json_output(o)) json_totals(o, f, session, end, backend);
  if (so.pagerank_per_batch) {
    fmt::print("incremental pagerank: {} rounds over {} batches, {:.3f} s ({} from scratch, marked *; {} by power iterations "
               "from the last scores, +); scores within {:.3g} (L1) of the exact ones after every batch\n",
               tot.pr_iterations, tot.batches, tot.pr_seconds, tot.pr_restarts, tot.pr_pulls, tot.pr_bound);
    if (so.compare)
      fmt::print("from scratch after every batch: {} iterations, {:.3f} s; incremental {:.1f}x faster; largest L1 distance "
                 "{:.3g}\n",
                 tot.cold_iterations, tot.cold_seconds, tot.pr_seconds > 0 ? tot.cold_seconds / tot.pr_seconds : 0.0,
                 tot.pr_error);
    fluxgraph::pagerank_options quiet = so.pagerank;
    quiet.progress = nullptr;
    report(o, f.original_id, end.pagerank, quiet);  // the last batch's scores: the graph as it is now
    return 0;
  }
  if (end.defrag.defragmented) fmt::print("defragment: {:.3f} ms ({})\n", end.defrag_seconds * 1e3, end.defrag.reason);
  else fmt::print("defragment: skipped ({})\n", end.defrag.reason);
  report(o, f.original_id, end.pagerank, so.pagerank);
  return 0;
}
}  // namespace

int run_stream(const options& o) {
  if (!o.values.count("batch")) throw usage_error("stream needs --batch N");
  if (o.file == "-") return run_stream_live(o);
  for (const char* live : {"max-delay", "on-error", "input-format", "wal", "sync", "snapshot-every", "accept-loss"})
    if (o.values.count(live) || o.has(live)) throw usage_error(std::string("--") + live + " goes with stream - (standard input)");
  if (o.get("format", "text") == "bin" || o.get("format", "text") == "bin64")
    throw usage_error("--format " + o.get("format", "") + " (--input-format) goes with stream - (standard input)");
  // Under mpirun (or --comm mpi|nccl) the stream is distributed (tools/distributed.cpp).
  const std::string comm = o.get("comm", "auto");
  fluxgraph::ranks r(comm);
  if (r.size() > 1 || comm == "mpi" || comm == "nccl") return run_stream_distributed(o, r);
  if (o.values.count("partition")) throw usage_error("--partition goes with a distributed run (mpirun, --comm)");
  std::string backend;
  const fluxgraph::device where = backend_of(o, backend);
  double t_load = 0;
  fluxgraph::edge_file f = load(o.file, t_load);
  fmt::print("{}: {} vertices, {} edges, loaded in {:.3f} s\n", f.path, f.num_vertices, f.num_edges(), t_load);
  return stream_on(o, f, where, backend);
}

}  // namespace fg::cli
