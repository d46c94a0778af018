// Example: stream a graph file into a DCSR store in batches, then run PageRank on it.
// Usage: streaming_pagerank FILE [BATCH]
#include <fmt/core.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "algorithms/pagerank.hpp"
#include "engine/graph.hpp"
#include "loaders/graph_file.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: streaming_pagerank FILE [BATCH]\n");
    return 1;
  }
  try {
    const fg::edge_file file = fg::read_graph(argv[1]);
    const std::size_t batch = argc > 2 ? std::stoul(argv[2]) : 1000;

    // PageRank pulls along in-edges, so the store's rows are targets: row v lists v's sources.
    fg::graph<fg::pattern, fg::device_space> g(fg::orientation::in, fg::vertex_t(file.num_vertices));
    for (std::size_t first = 0; first < file.src.size(); first += batch)
      g.insert(file, first, std::min(file.src.size(), first + batch));
    const fg::dcsr_stats& s = g.store().stats();
    fmt::print("{} batches, {} distinct edges, {} duplicates dropped, {} segments allocated\n", s.batches,
               g.num_edges(), s.duplicates_dropped, s.segments_allocated);

    g.defragment();  // one packed segment per row: the fastest layout to read
    const fg::pagerank_result r = fg::pagerank(g.store(), fg::pagerank_options{});
    fmt::print("PageRank: {} iterations on {}\n", r.iterations, fg::device_backend_name());

    std::vector<std::size_t> order(r.score.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    const std::size_t k = std::min<std::size_t>(5, order.size());
    std::partial_sort(order.begin(), order.begin() + long(k), order.end(),
                      [&](std::size_t a, std::size_t b) { return r.score[a] > r.score[b]; });
    for (std::size_t i = 0; i < k; ++i)  // report in the file's own vertex ids
      fmt::print("  {}  {:.6f}\n", file.original_id[order[i]], r.score[order[i]]);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "streaming_pagerank: {}\n", e.what());
    return 1;
  }
}
