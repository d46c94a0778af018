// `fluxgraph stream -`: edges from standard input as they arrive (fluxgraph::live_reader), applied
// by a fluxgraph::stream. Standard output carries only JSON, one object a line and flushed after
// each: a line per batch, then a summary line. Messages go to standard error.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "tools/cli.hpp"
#include "tools/json.hpp"

namespace fg::cli {

namespace {
using clock_type = std::chrono::steady_clock;
double micros(clock_type::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

// Options that make no sense for standard input: a usage error.
void refuse_file_options(const options& o) {
  for (const char* name : {"delete-fraction", "seed"})
    if (o.values.count(name))
      throw usage_error(std::string("--") + name + " goes with stream FILE (standard input deletes with '- u v' lines)");
  if (o.has("compare")) throw usage_error("--compare goes with stream FILE, not stream -");
}

// --sync batch|interval[:MS]|none
void sync_opts(const options& o, fluxgraph::durability_options& d) {
  const std::string v = o.get("sync", "batch");
  if (v == "batch") d.sync = fluxgraph::sync_mode::batch;
  else if (v == "none") d.sync = fluxgraph::sync_mode::none;
  else if (v == "interval" || v.rfind("interval:", 0) == 0) {
    d.sync = fluxgraph::sync_mode::interval;
    if (v.size() > 9) {
      char* end = nullptr;
      const double ms = std::strtod(v.c_str() + 9, &end);
      if (*end != '\0' || !(ms > 0 && ms <= 1e9)) throw usage_error("--sync interval:MS needs MS in (0, 1e9], got '" + v.substr(9) + "'");
      d.sync_interval = ms / 1e3;
    }
  } else {
    throw usage_error("--sync must be batch, interval[:MS] or none, got '" + v + "'");
  }
}

// --snapshot-every N (batches) or SIZE (log bytes: a number with B, KB, MB or GB)
void snapshot_spacing(const options& o, fluxgraph::durability_options& d) {
  const std::string v = o.get("snapshot-every", "1000");
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  const std::string unit = end;
  const double scale = unit.empty() ? 0 : unit == "B" ? 1 : unit == "KB" ? 1e3 : unit == "MB" ? 1e6 : unit == "GB" ? 1e9 : -1;
  if (end == v.c_str() || scale < 0 || !(x >= 0 && x * (scale > 0 ? scale : 1) < 9e18) || (scale == 0 && x != std::floor(x)))
    throw usage_error("--snapshot-every must be a count of batches or a size (64MB), got '" + v + "'");
  d.snapshot_every = scale == 0 ? std::int64_t(x) : 0;
  d.snapshot_bytes = scale == 0 ? 0 : std::int64_t(x * scale);
}

fluxgraph::live_options live_opts(const options& o) {
  fluxgraph::live_options l;
  std::string format = o.get("input-format", "text");
  if (!o.values.count("input-format") && (o.get("format", "") == "bin" || o.get("format", "") == "bin64")) {
    format = o.get("format", "");  // the old spelling
    std::fprintf(stderr, "fluxgraph: --format %s is now --input-format %s (--format is the output's)\n", format.c_str(), format.c_str());
  }
  if (format == "text") l.format = fluxgraph::input_format::text;
  else if (format == "bin") l.format = fluxgraph::input_format::bin32;
  else if (format == "bin64") l.format = fluxgraph::input_format::bin64;
  else throw usage_error("--input-format: must be text, bin or bin64, got '" + format + "'");
  l.batch_edges = std::size_t(o.integer("batch", 0, 1, std::int64_t(1) << 40));
  l.max_delay = o.number("max-delay", 10, 0, 1e9) / 1e3;
  const std::string on_error = o.get("on-error", "fail");
  if (on_error != "skip" && on_error != "fail") throw usage_error("--on-error must be skip or fail, got '" + on_error + "'");
  l.skip_bad = on_error == "skip";
  l.on_skip = [](const std::string& msg) { std::fprintf(stderr, "fluxgraph: %s (line skipped)\n", msg.c_str()); };
  return l;
}


// The dense ids in the order of their input ids: --out's line order.
std::vector<std::int32_t> by_input_id(const std::vector<std::int64_t>& id) {
  std::vector<std::int32_t> order(id.size());
  std::iota(order.begin(), order.end(), std::int32_t(0));
  std::sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) { return id[std::size_t(a)] < id[std::size_t(b)]; });
  return order;
}

void write_outputs(const options& o, const fluxgraph::stream& s, const std::vector<std::int64_t>& id) {
  const std::vector<std::int32_t> order = by_input_id(id);
  if (o.values.count("out")) {
    const std::vector<double> score = s.scores().score;
    write_atomically(o.get("out", ""), [&](std::FILE* out) {
      for (std::size_t i = 0; i < score.size() && !std::ferror(out); ++i)
        data_line(out, id[std::size_t(order[i])], score[std::size_t(order[i])]);
      return !std::ferror(out);
    });
  }
  if (o.values.count("edges-out")) write_edges(o.get("edges-out", ""), "<stdin>", id, s.edges());  // the input's ids
}

// A durable stream's first line: where it resumes. Warnings (a snapshot passed over, a torn record
// dropped) go to standard error.
void print_recovery(const fluxgraph::stream& s) {
  const fluxgraph::recovery_info r = s.recovery();
  for (const std::string& w : r.warnings) std::fprintf(stderr, "fluxgraph: %s\n", w.c_str());
  json_line j;
  j.flag("recovered", r.batches > 0).field("batches", r.batches).field("edges_in", r.lines);
  j.field("edges", s.num_edges()).field("vertices", s.num_vertices()).field("snapshot_batch", r.snapshot_batch);
  j.field("replayed", r.replayed).field("torn_bytes", r.torn_bytes).field("lost_batches", r.lost_batches).field("seconds", r.seconds);
  j.print();
}

double percentile(std::vector<double> v, double p) {  // nearest rank
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto k = std::size_t(std::max(1.0, std::ceil(p * double(v.size()))));
  return v[std::min(k, v.size()) - 1];
}

}  // namespace

void add_top(json_line& j, std::vector<std::pair<fluxgraph::vertex_id, double>> best, const std::vector<std::int64_t>& id,
             std::int64_t k) {
  for (auto& b : best) b.first = id[std::size_t(b.first)];
  std::sort(best.begin(), best.end(), [](const auto& x, const auto& y) { return x.second != y.second ? x.second > y.second : x.first < y.first; });
  best.resize(std::size_t(std::min<std::int64_t>(k, std::int64_t(best.size()))));
  j.pairs("top", best);
}

int run_stream_live(const options& o) {
  std::string backend;
  const fluxgraph::device where = backend_of(o, backend);
  refuse_file_options(o);
  fluxgraph::stream_options so = stream_opts(o, where);
  so.pagerank.progress = nullptr;  // standard error stays for messages
  fluxgraph::live_options lo = live_opts(o);
  if (o.values.count("wal")) {
    so.durability.dir = o.get("wal", "");
    sync_opts(o, so.durability);
    snapshot_spacing(o, so.durability);
    so.durability.accept_loss = o.has("accept-loss");
  } else {
    if (o.has("accept-loss")) throw usage_error("--accept-loss goes with --wal DIR");
    for (const char* name : {"sync", "snapshot-every"})
      if (o.values.count(name)) throw usage_error(std::string("--") + name + " goes with --wal DIR");
  }
  const std::int64_t k = o.integer("top", 10, 0, 1000000000);
  const bool closing = so.closure, per_batch = so.pagerank_per_batch, durable = !so.durability.dir.empty();
  fluxgraph::stream session(so, 0);
  if (o.values.count("snapshot-in")) session.load(o.get("snapshot-in", ""));
  if (durable) print_recovery(session);
  session.warm_up();  // before the input's clock starts: the first batch would wait for it
  lo.known_ids = session.ids();  // a snapshot's or a recovered stream's: new ids follow them
  fluxgraph::live_reader reader(STDIN_FILENO, lo);
  const std::vector<std::int64_t>& id = session.ids();  // dense -> input id
  std::vector<double> latency;   // wait + apply per batch, microseconds
  std::vector<double> applying;  // apply per batch, seconds
  std::int64_t lines = 0;
  clock_type::time_point begin{}, end{};
  for (fluxgraph::live_batch b; reader.next(b);) {
    const auto start = clock_type::now();
    if (b.number == 1) begin = b.arrived;
    const fluxgraph::batch_report r = session.apply(b);  // durable: in the log when it returns
    end = clock_type::now();
    const double wait = micros(start - b.arrived), apply = micros(end - start);
    latency.push_back(wait + apply);
    applying.push_back(apply * 1e-6);
    lines += std::int64_t(b.insert_lines + b.delete_lines);
    json_line j;
    j.field("batch", r.batch).field("inserted", b.insert_lines).field("deleted", b.delete_lines);
    j.field("edges", r.edges).field("vertices", r.vertices).field("lines", fmt::format("[{},{}]", b.first_line, b.last_line));
    j.field("wait_us", std::llround(wait)).field("apply_us", std::llround(apply));
    j.field("store_us", std::llround(r.store_seconds * 1e6)).flag("defragmented", r.defrag.defragmented);
    if (per_batch && !r.pr_updated) j.flag("pr_updated", false);  // --pagerank-every: seeded, not scored
    if (per_batch && r.pr_updated) {
      j.field("pr_iterations", r.pr_iterations).field("pr_us", std::llround(r.pr_seconds * 1e6)).field("pr_edges", r.pr_edges)
          .field("pr_bound", r.pr_bound).flag("pr_restarted", r.pr_restarted).flag("pr_pulled", r.pr_pulled);
      add_top(j, session.top(std::size_t(k)), id, k);
    }
    if (closing) j.field("closure_pairs", r.closure_pairs).field("closure_rounds", r.closure_rounds).flag("closure_recomputed", r.closure_recomputed);
    if (so.bfs_source >= 0) j.field("bfs_reached", r.bfs_reached);
    if (so.sssp_source >= 0) j.field("sssp_reached", r.sssp_reached);
    if (so.wcc) j.field("components", r.components);
    if (so.triangles) j.field("triangles", r.triangles);
    if (apps_on(so)) j.field("apps_us", std::llround(r.apps_seconds * 1e6)).flag("apps_recomputed", r.apps_recomputed);
    if (durable) j.field("log_us", std::llround(r.log_seconds * 1e6)).flag("snapshot", r.snapshot);
    j.print();
  }
  const fluxgraph::stream_end f = session.finish();
  write_outputs(o, session, id);
  if (o.values.count("snapshot-out")) session.save(o.get("snapshot-out", ""));
  const double seconds = latency.empty() ? 0.0 : std::chrono::duration<double>(end - begin).count();
  json_line j;
  j.flag("summary", true).field("batches", latency.size()).field("edges_in", lines).field("lines_skipped", reader.skipped());
  j.field("edges", session.num_edges()).field("vertices", session.num_vertices()).field("seconds", seconds);
  if (durable) j.field("stream_batches", session.totals().batches).field("stream_edges_in", session.lines());
  j.field("edges_per_s", seconds > 0 ? std::llround(double(lines) / seconds) : 0);
  j.field("latency_us_p50", std::llround(percentile(latency, 0.5))).field("latency_us_p99", std::llround(percentile(latency, 0.99)));
  // Where the time went: the stage that never waits is the stream's limit.
  const fluxgraph::live_times t = reader.times();
  j.field("apply_s", std::accumulate(applying.begin(), applying.end(), 0.0)).field("parse_s", t.parse);
  std::vector<double> apply_us(applying.size());
  for (std::size_t i = 0; i < applying.size(); ++i) apply_us[i] = applying[i] * 1e6;
  j.field("apply_us_p50", std::llround(percentile(apply_us, 0.5))).field("apply_us_p90", std::llround(percentile(apply_us, 0.9)));
  j.field("input_wait_s", t.input_wait).field("map_s", t.map);
  if (f.has_pagerank) {
    j.field("pr_iterations", f.pagerank.iterations).flag("pr_converged", f.pagerank.converged);
    add_top(j, session.top(std::size_t(k)), id, k);
  }
  if (closing) j.field("closure_pairs", session.closure_pairs());
  // What the stream holds in device memory at the end, and the allocator's high-water mark.
  const fluxgraph::memory_report mem = session.memory_use();
  j.field("memory_bytes", mem.total()).field("bytes_per_edge", mem.per_edge(mem.total())).field("peak_bytes", mem.peak);
  j.print();
  return 0;
}

// `wal check DIR`: every snapshot and log of a durable stream's folder, and what a start would do;
// exit 1 unless all is whole and a start loses nothing.
int run_wal(const options& o) {
  if (o.file != "check") throw usage_error("wal: the action is check (fluxgraph wal check DIR), got '" + o.file + "'");
  const fluxgraph::wal_health h = fluxgraph::check_wal(o.file2);
  for (const std::string& f : h.files) fmt::print("{}\n", f);
  fmt::print("{}\n{}\n", h.start, h.ok ? "ok" : "NOT ok");
  if (json_output(o)) {
    std::string files = "[";
    for (const std::string& f : h.files) files += (files.size() > 1 ? "," : "") + json_line::quoted(f);
    json_line j;
    j.text("command", "wal check").text("dir", o.file2).field("files", files + "]").text("start", h.start).flag("ok", h.ok);
    j.print(data_stream());
  }
  return h.ok ? 0 : 1;
}

}  // namespace fg::cli
