// Streams random edge batches into a fluxgraph graph and keeps PageRank current.
#include <fluxgraph/fluxgraph.hpp>

#include <cstdio>
#include <random>

int main() {
  fluxgraph::graph g(1000);  // 1000 vertices; on the GPU in the CUDA build
  std::mt19937 rng(1);
  for (int batch = 1; batch <= 5; ++batch) {
    std::vector<std::int32_t> src(10000), dst(10000);
    for (auto& v : src) v = std::int32_t(rng() % 1000);
    for (auto& v : dst) v = std::int32_t(rng() % 100);  // edges point into 0..99
    g.insert(src, dst);
    const fluxgraph::pagerank_result pr = g.pagerank();  // warm-started from the last scores
    std::printf("batch %d: %lld edges, PageRank %d iterations, score[0] %.5f\n", batch,
                static_cast<long long>(g.num_edges()), pr.iterations, pr.score[0]);
  }
  std::printf("fluxgraph %s (%s)\n", fluxgraph::version().c_str(), g.backend().c_str());
}
