// `mpirun -np P fluxgraph pagerank|stream FILE`: the distributed runs (docs/distributed.md). Every
// rank reads its own share of the file's lines, inserts it into the distributed in-edge graph
// (routed to the rows' owners; stream: in batches of --batch edges over all ranks) and runs
// PageRank; rank 0 alone prints and writes, in the file's ids.
#include <fmt/core.h>

#include <chrono>

#include "fluxgraph/distributed.hpp"
#include "tools/cli.hpp"

namespace fg::cli {

namespace {
double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

namespace {
// The scores of a distributed PageRank, gathered; rank 0 reports them as `pagerank` does.
void report_scores(const options& o, fluxgraph::ranks& r, fluxgraph::distributed_graph& g,
                   const fluxgraph::distributed_file& f, const fluxgraph::pagerank_options& p) {
  fluxgraph::distributed_pagerank pr = g.pagerank(p);
  pr.score = g.gather(pr.score);
  if (r.rank() != 0) return;
  pr.kernel_reason = fmt::format("rank 0's rows: {}; x exchanged: {} bytes sent by rank 0, {:.0f} per iteration",
                                 pr.kernel_reason, pr.bytes_sent, double(pr.bytes_sent) / std::max(1, pr.iterations));
  report(o, f.original_id, pr, p);
}

}  // namespace

fluxgraph::distributed_options graph_options(const options& o, fluxgraph::ranks& r, const fluxgraph::distributed_file& f,
                                             const fluxgraph::edge_span<std::int32_t>& e, bool in_edges) {
  fluxgraph::distributed_options opt;
  opt.weighted = o.has("weighted");
  opt.in_edges = in_edges;
  opt.partition = o.get("partition", "cyclic");
  if (opt.partition == "blocks") opt.cuts = fluxgraph::balanced_cuts(r, f.num_vertices, e, in_edges);
  if (opt.partition == "sorted") opt.partition = "cyclic";  // over the ids renumber_by_row_size gave
  return opt;
}

std::vector<vertex_id> renumber_by_row_size(const options& o, fluxgraph::ranks& r, fluxgraph::distributed_file& f, bool in_edges) {
  if (o.get("partition", "cyclic") != "sorted") return {};
  const std::vector<vertex_id> id =
      fluxgraph::size_sorted_ids(r, f.num_vertices, {f.src.data(), f.dst.data(), f.src.size(), nullptr}, in_edges);
  for (auto* a : {&f.src, &f.dst})
    for (std::int32_t& v : *a) v = std::int32_t(id[std::size_t(v)]);
  std::vector<std::int64_t> original(f.original_id.size());
  for (std::size_t v = 0; v < id.size(); ++v) original[std::size_t(id[v])] = f.original_id[v];
  f.original_id = std::move(original);  // new id -> the file's id: results are written in the file's ids
  return id;
}

int run_stream_distributed(const options& o, fluxgraph::ranks& r) {
  for (const char* one : {"delete-fraction", "edges-out", "closure", "bfs", "sssp", "wcc", "triangles", "compare",
                          "snapshot-in", "snapshot-out", "kernel", "backend", "defrag", "layout", "pagerank"})
    if (o.values.count(one) || o.has(one))
      throw usage_error(std::string("--") + one + " is not (yet) available to a distributed stream (docs/distributed.md)");
  const std::int64_t batch = o.integer("batch", 0, 1, std::int64_t(1) << 40);
  const fluxgraph::pagerank_options p = pagerank_opts(o);
  const bool lead = r.rank() == 0;
  auto t = std::chrono::steady_clock::now();
  fluxgraph::distributed_file f = fluxgraph::read_edges(r, o.file);
  renumber_by_row_size(o, r, f, true);
  const double t_load = since(t);
  const fluxgraph::edge_span<std::int32_t> all{f.src.data(), f.dst.data(), f.src.size(), nullptr};
  fluxgraph::distributed_graph g(r, f.num_vertices, graph_options(o, r, f, all, true));
  // Batches of `batch` edges over all ranks: each rank gives its next batch / P edges.
  const std::size_t mine = std::size_t(std::max<std::int64_t>(1, batch / r.size()));
  const std::int64_t batches = r.max(std::int64_t((f.src.size() + mine - 1) / mine));
  t = std::chrono::steady_clock::now();
  std::uint64_t bytes = 0;
  fluxgraph::distributed_batch b;
  for (std::int64_t k = 0; k < batches; ++k) {
    const std::size_t lo = std::min(f.src.size(), std::size_t(k) * mine), n = std::min(f.src.size() - lo, mine);
    const double* w = o.has("weighted") && !f.weight.empty() ? f.weight.data() + lo : nullptr;
    b = g.apply({f.src.data() + lo, f.dst.data() + lo, n, w});
    bytes += b.bytes_sent;
  }
  const double t_stream = since(t);
  const auto [most, mean] = g.balance();
  if (lead)
    fmt::print("{}: {} vertices, read in {:.3f} s\nranks: {} ({}), partition {}\nstream: {} batches of up to {} edges, "
               "{} edges stored, {:.3f} s ({:.1f} M edges/s); rank 0 sent {} bytes; most edges on a rank {} (max/mean {:.3f})\n",
               f.path, f.num_vertices, t_load, r.size(), r.transport(), o.get("partition", "cyclic"), batches, batch, b.edges, t_stream,
               double(b.edges) / std::max(t_stream, 1e-9) / 1e6, bytes, most, mean > 0 ? double(most) / mean : 1.0);
  report_scores(o, r, g, f, p);
  return 0;
}

int run_pagerank_distributed(const options& o, fluxgraph::ranks& r) {
  if (o.values.count("backend"))
    throw usage_error("--backend is a single-process option (a distributed run uses each rank's GPU, or its CPUs)");
  const fluxgraph::pagerank_options p = pagerank_opts(o);  // --kernel: each rank's rows read with it
  const bool lead = r.rank() == 0;
  auto t = std::chrono::steady_clock::now();
  fluxgraph::distributed_file f = fluxgraph::read_edges(r, o.file);
  renumber_by_row_size(o, r, f, true);
  const double t_load = since(t);
  const fluxgraph::edge_span<std::int32_t> e{f.src.data(), f.dst.data(), f.src.size(),
                                             o.has("weighted") && !f.weight.empty() ? f.weight.data() : nullptr};
  t = std::chrono::steady_clock::now();
  fluxgraph::distributed_graph g(r, f.num_vertices, graph_options(o, r, f, e, true));
  const fluxgraph::distributed_batch b = g.apply(e);
  const double t_insert = since(t);
  const auto [most, mean] = g.balance();
  if (lead)
    fmt::print("{}: {} vertices, {} edges stored, read in {:.3f} s, inserted in {:.3f} s\n"
               "ranks: {} ({}), partition {}: most edges on a rank {} (mean {:.0f}, max/mean {:.3f}); "
               "routing sent {} bytes from rank 0\n",
               f.path, f.num_vertices, b.edges, t_load, t_insert, r.size(), r.transport(), o.get("partition", "cyclic"), most, mean,
               mean > 0 ? double(most) / mean : 1.0, b.bytes_sent);
  report_scores(o, r, g, f, p);
  return 0;
}

}  // namespace fg::cli
