// Example: stream a graph file into a fluxgraph graph in batches, keeping PageRank current after
// each one, with the public API only (<fluxgraph/fluxgraph.hpp>, as an installed package offers).
// Usage: streaming_pagerank FILE [BATCH]
#include <fluxgraph/fluxgraph.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <numeric>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: streaming_pagerank FILE [BATCH]\n");
    return 1;
  }
  try {
    // Edges with dense ids [0, n), and original_id to report them in the file's own ids.
    const fluxgraph::edge_file file = fluxgraph::read_edges(argv[1]);
    const std::size_t batch = argc > 2 ? std::stoul(argv[2]) : 1000;

    fluxgraph::graph g(file.num_vertices);  // on the GPU in the CUDA build
    fluxgraph::pagerank_result r;
    int batches = 0;
    for (std::size_t first = 0; first < file.src.size(); first += batch, ++batches) {
      const std::size_t size = std::min(batch, file.src.size() - first);
      g.insert({file.src.data() + first, file.dst.data() + first, size});
      // Kept current: the first call runs from scratch, the later ones push what each batch changed.
      r = g.pagerank();
    }
    std::printf("%d batches, %lld distinct edges; PageRank: %d iterations on %s\n", batches,
                static_cast<long long>(g.num_edges()), r.iterations, g.backend().c_str());

    std::vector<std::size_t> order(r.score.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    const std::size_t k = std::min<std::size_t>(5, order.size());
    std::partial_sort(order.begin(), order.begin() + long(k), order.end(),
                      [&](std::size_t a, std::size_t b) { return r.score[a] > r.score[b]; });
    for (std::size_t i = 0; i < k; ++i)  // in the file's own vertex ids
      std::printf("  %lld  %.6f\n", static_cast<long long>(file.original_id[order[i]]), r.score[order[i]]);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "streaming_pagerank: %s\n", e.what());
    return 1;
  }
}
