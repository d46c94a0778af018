// fluxgraph bench memory: what a graph costs in memory. Each graph is streamed in batches into a
// stream session with PageRank kept current after every batch (as `stream --pagerank` keeps it),
// then every part the session holds is printed from the allocator's own accounting (core/memory:
// bytes as requested) with its bytes per stored edge, beside the allocator's total, its peak during
// the stream and the CSR floor of one orientation. Lines end "bytes per edge" for scripts
// (docs/performance.md, "Memory").
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/matrices.hpp"
#include "core/memory.hpp"
#include "stream/stream_session.hpp"

namespace fg::bench {
namespace {
using D = device_space;

struct memory_bench_options {
  double batch = 1e6;
  bool pagerank = true;
  std::string memory = "fast";  // the footprint (stream --memory)
  std::int64_t every = 1;       // PageRank brought within its bound every this many batches
  std::vector<std::string> graphs;
};

void line(const std::string& what, std::size_t bytes, const fluxgraph::memory_report& r, const std::string& tail = "") {
  fmt::print("  {:<34} {:>12.1f} MB {:>8.2f} bytes per edge{}\n", what, double(bytes) / 1e6, r.per_edge(bytes), tail);
}


int run_memory(const memory_bench_options& o) {
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  const std::size_t batch = std::size_t(std::max(1.0, o.batch));
  for (const auto& spec : o.graphs) {
    const edge_list e = make_matrix(spec);
    stream_options so;
    so.pagerank_per_batch = o.pagerank;
    so.pagerank_at_end = false;
    if (o.pagerank) {
      so.memory_footprint = o.memory == "compact" ? fluxgraph::footprint::compact : fluxgraph::footprint::fast;
      so.pagerank_every = o.every;
    }
    memory::synchronize();
    const std::size_t before = memory::bytes_in_use();  // the session's own arrays count from here
    stream_session<D> s(so, e.n);
    s.warm_up();
    memory::reset_peak();
    const auto t0 = std::chrono::steady_clock::now();
    fluxgraph::edge_list b, none;
    std::size_t batches = 0;
    for (std::size_t at = 0; at < e.src.size(); at += batch, ++batches) {
      const std::size_t end = std::min(e.src.size(), at + batch);
      b.src.assign(e.src.begin() + std::ptrdiff_t(at), e.src.begin() + std::ptrdiff_t(end));
      b.dst.assign(e.dst.begin() + std::ptrdiff_t(at), e.dst.begin() + std::ptrdiff_t(end));
      s.apply(b, none, e.n);
    }
    if (o.pagerank) s.finish();  // the batches since the last update scored
    memory::synchronize();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const fluxgraph::memory_report r = s.memory();
    const std::string kept = !o.pagerank ? "" : o.every == 1 ? ", PageRank kept current after each" : fmt::format(", PageRank kept current every {}", o.every);
    fmt::print("\n{}: {} vertices, {} edges stored, {} batches of {}{}{}: {:.1f} M edges/s\n", e.name, r.vertices, r.edges,
               batches, batch, kept, o.pagerank ? " (memory " + o.memory + ")" : "", double(e.src.size()) / seconds / 1e6);
    print_memory(r, before, memory::peak_bytes());
    const auto& st = s.current_graph().store().stats();
    fmt::print("  store: {} compactions ({} in place), {} buffer grows, {} rows moved past k; {} defragmentations\n",
               st.compactions_segment_limit + st.compactions_buffer_full, st.compactions_in_place, st.buffer_grows,
               st.rows_relocated, s.totals().defragmentations);
  }
  return 0;
}
}  // namespace

void print_memory(const fluxgraph::memory_report& r, std::size_t base, std::size_t peak) {
  for (const auto& p : r.parts) line(p.name, p.bytes, r);
  const std::size_t total = r.total(), in_use = r.in_use - std::min(base, r.in_use);
  line("resident (the parts above)", total, r);
  line("allocator in use, the graph's", in_use, r, in_use > total ? fmt::format(" ({:.1f} MB not itemized)", double(in_use - total) / 1e6) : "");
  if (peak > base) line("peak", peak - base, r, fmt::format(" ({:.2f}x resident)", total ? double(peak - base) / double(total) : 0.0));
  line("CSR of one orientation (floor)", r.packed, r);
  if (r.host_ids > 0) line("id map (host memory)", r.host_ids, r);
}

void add_memory(CLI::App& bench, int& status) {
  auto [app, o] = subcommand<memory_bench_options>(bench, "memory", "what a streamed graph costs in memory, part by part, in bytes per edge", status, run_memory);
  app->add_option("--batch", o->batch, "edges a batch")->check(CLI::PositiveNumber)->capture_default_str();
  app->add_flag("!--no-pagerank", o->pagerank, "the store alone: no PageRank kept current");
  app->add_option("--memory", o->memory, "the footprint kept for PageRank (stream --memory)")
      ->check(CLI::IsMember({"fast", "compact"}))->capture_default_str();
  app->add_option("--pagerank-every", o->every, "PageRank brought within its bound every N batches")
      ->check(CLI::PositiveNumber)->capture_default_str();
  app->add_option("GRAPH", o->graphs, matrix_help)->required();
}

}  // namespace fg::bench
