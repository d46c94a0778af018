// `mpirun -np P fluxgraph pagerank FILE`: the distributed run (docs/distributed.md). Every rank
// reads its own share of the file's lines, inserts it into the distributed in-edge graph (routed
// to the rows' owners) and runs PageRank; rank 0 alone prints and writes, in the file's ids.
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

int run_pagerank_distributed(const options& o, fluxgraph::ranks& r) {
  if (o.values.count("kernel") || o.values.count("backend"))
    throw usage_error("--kernel and --backend are single-process options (a distributed run reads each rank's store)");
  const fluxgraph::pagerank_options p = pagerank_opts(o);
  const bool lead = r.rank() == 0;
  auto t = std::chrono::steady_clock::now();
  const fluxgraph::distributed_file f = fluxgraph::read_edges(r, o.file);
  const double t_load = since(t);
  const fluxgraph::edge_span<std::int32_t> e{f.src.data(), f.dst.data(), f.src.size(),
                                             o.has("weighted") && !f.weight.empty() ? f.weight.data() : nullptr};
  fluxgraph::distributed_options opt;
  opt.weighted = o.has("weighted");
  opt.in_edges = true;
  opt.partition = o.get("partition", "cyclic");
  if (opt.partition == "blocks") opt.cuts = fluxgraph::balanced_cuts(r, f.num_vertices, e, true);
  t = std::chrono::steady_clock::now();
  fluxgraph::distributed_graph g(r, f.num_vertices, opt);
  const fluxgraph::distributed_batch b = g.apply(e);
  const double t_insert = since(t);
  const auto [most, mean] = g.balance();
  if (lead)
    fmt::print("{}: {} vertices, {} edges stored, read in {:.3f} s, inserted in {:.3f} s\n"
               "ranks: {} ({}), partition {}: most edges on a rank {} (mean {:.0f}, max/mean {:.3f}); "
               "routing sent {} bytes from rank 0\n",
               f.path, f.num_vertices, b.edges, t_load, t_insert, r.size(), r.transport(), g.partition(), most, mean,
               mean > 0 ? double(most) / mean : 1.0, b.bytes_sent);
  const fluxgraph::distributed_pagerank pr = g.pagerank(p);
  const std::vector<double> score = g.gather(pr.score);
  if (!lead) return 0;
  fluxgraph::pagerank_result res;
  res.score = score;
  res.iterations = pr.iterations;
  res.converged = pr.converged;
  res.last_change = pr.last_change;
  res.seconds = pr.seconds;
  res.kernel = "dcsr";
  res.kernel_reason = fmt::format("each rank's rows, x all-gathered: {} bytes sent by rank 0, {:.0f} per iteration",
                                  pr.bytes_sent, double(pr.bytes_sent) / std::max(1, pr.iterations));
  report(o, f.original_id, res, p);
  return 0;
}

}  // namespace fg::cli
