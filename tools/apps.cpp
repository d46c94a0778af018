// The graph application commands: bfs, sssp, wcc, cdlp, lcc, tc (docs/graph-apps.md). Results are
// 'id value' lines in the file's own ids, as pagerank's.
#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "tools/cli.hpp"
#include "tools/json.hpp"

namespace fg::cli {

using fluxgraph::device;
using fluxgraph::edge_file;

namespace {
/// --source as the file's dense id.
std::int32_t source_of(const options& o, const edge_file& f) {
  if (!o.values.count("source")) throw usage_error(o.command + " needs --source ID");
  const std::string id = o.get("source", "");
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), v);
  if (id.empty() || ec != std::errc() || end != id.data() + id.size()) throw usage_error("--source needs a vertex id, got '" + id + "'");
  const vertex_id d = dense_vertex(f, v);
  if (d < 0) throw usage_error("--source " + id + " is not a vertex of " + f.path);
  return std::int32_t(d);
}

/// SSSP needs weights >= 0: the first negative one is named with its edge, in file ids.
void check_weights(const edge_file& f) {
  for (std::size_t i = 0; i < f.weight.size(); ++i)
    if (f.weight[i] < 0)
      throw fluxgraph::input_error(f.path, 0, fmt::format("edge {} ({} -> {}) has weight {}: sssp needs weights >= 0", i + 1,
                                                          f.original_id[std::size_t(f.src[i])],
                                                          f.original_id[std::size_t(f.dst[i])], f.weight[i]));
}

/// Writes 'id value' lines for the vertices `keep` accepts to --out (a file, or - for stdout).
template <class Value, class Keep>
void write_values(const options& o, const edge_file& f, const std::vector<Value>& value, Keep keep) {
  if (!o.values.count("out")) return;
  const std::string path = o.get("out", "");
  auto body = [&](std::FILE* out) {  // numbers as data_line writes them (one format everywhere)
    for (std::size_t v = 0; v < value.size() && !std::ferror(out); ++v)
      if (keep(value[v])) data_line(out, f.original_id[v], value[v]);
    return !std::ferror(out);
  };
  write_atomically(path, body);
}

/// Labels (dense ids) as file ids.
std::vector<long long> file_ids(const edge_file& f, const std::vector<std::int64_t>& label) {
  std::vector<long long> out(label.size());
  for (std::size_t v = 0; v < label.size(); ++v) out[v] = static_cast<long long>(f.original_id[std::size_t(label[v])]);
  return out;
}
}  // namespace

int run_app(const options& o) {
  std::string backend;
  const device where = backend_of(o, backend);
  double t_load = 0;
  edge_file f = load(o.file, t_load);
  if (o.has("undirected")) fluxgraph::add_reverse_edges(f);
  const bool weighted = o.command == "sssp" && f.weighted();
  if (weighted) check_weights(f);
  fmt::print("{}: {} vertices, {} edges{}, loaded in {:.3f} s\nbackend: {}\n", f.path, f.num_vertices, f.num_edges(),
             o.has("undirected") ? " (both directions)" : "", t_load, backend);
  fluxgraph::graph g = graph_of(f, where, weighted);
  const auto all = [](auto) { return true; };
  json_line j = json_summary(o, f, g, backend);  // --format json: the summary below as one object
  if (o.command == "bfs" || o.command == "sssp") {
    const std::int32_t s = source_of(o, f);
    if (o.command == "bfs") {
      const fluxgraph::bfs_result r = g.bfs(s);
      fmt::print("bfs: {} of {} vertices reached, depth {}, {} push and {} pull steps, {:.6f} s, {:.3f} GTEPS\n", r.reached,
                 f.num_vertices, r.depth, r.push_steps, r.pull_steps, r.seconds, r.edges / std::max(r.seconds, 1e-12) / 1e9);
      j.field("reached", r.reached).field("depth", r.depth).field("seconds", r.seconds);
      write_values(o, f, r.level, [](std::int32_t l) { return l >= 0; });
    } else {
      const fluxgraph::sssp_result r = g.sssp(s, o.number("delta", 0, 0, 1e300));
      fmt::print("sssp: {} of {} vertices reached, delta {:.4g}, {:.6f} s, {:.3f} GTEPS\n", r.reached, f.num_vertices, r.delta,
                 r.seconds, r.edges / std::max(r.seconds, 1e-12) / 1e9);
      j.field("reached", r.reached).field("delta", r.delta).field("seconds", r.seconds);
      write_values(o, f, r.dist, [](double d) { return std::isfinite(d); });
    }
  } else if (o.command == "wcc") {
    const fluxgraph::wcc_result r = g.wcc();
    fmt::print("wcc: {} components, {:.6f} s\n", r.components, r.seconds);
    j.field("components", r.components).field("seconds", r.seconds);
    write_values(o, f, file_ids(f, r.label), all);
  } else if (o.command == "cdlp") {
    const fluxgraph::cdlp_result r = g.cdlp(int(o.integer("iterations", 10, 0, 1 << 20)));
    fmt::print("cdlp: {} iterations, {:.6f} s\n", r.iterations, r.seconds);
    j.field("iterations", r.iterations).field("seconds", r.seconds);
    write_values(o, f, file_ids(f, r.label), all);
  } else if (o.command == "lcc") {
    const fluxgraph::lcc_result r = g.lcc();
    double mean = 0;
    for (double x : r.lcc) mean += x;
    fmt::print("lcc: mean {:.6f}, {:.6f} s\n", r.lcc.empty() ? 0.0 : mean / double(r.lcc.size()), r.seconds);
    j.field("mean", r.lcc.empty() ? 0.0 : mean / double(r.lcc.size())).field("seconds", r.seconds);
    write_values(o, f, r.lcc, all);
  } else {  // tc
    const fluxgraph::triangle_result r = g.triangles(o.values.count("out") > 0);
    fmt::print("triangles: {}\ntime: {:.6f} s\n", r.total, r.seconds);
    j.field("triangles", r.total).field("seconds", r.seconds);
    write_values(o, f, r.per_vertex, all);
  }
  if (json_output(o)) j.print(data_stream());
  return 0;
}

}  // namespace fg::cli
