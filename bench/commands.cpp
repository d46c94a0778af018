// The benchmarks mounted under `fluxgraph bench` (and `fluxgraph calibrate`).
#include "bench/bench.hpp"

namespace fg::bench {

const char* matrix_help =
    "MATRIX: a graph file (Matrix Market or edge list, .gz too), rmat:SCALE[:EDGE_FACTOR], "
    "uniform:SCALE:MU, poisson2d:SIDE or poisson3d:SIDE";

void add_benchmarks(CLI::App& bench, CLI::App& top, int& status) {
  add_spmv(bench, top, status);
  add_select(bench, status);
  add_pagerank(bench, status);
  add_ppr(bench, status);
  add_memory(bench, status);
  add_insert(bench, status);
  add_closure(bench, status);
  add_apps(bench, status);
  add_dist(bench, status);
  add_stream(bench, status);
  add_incremental(bench, status);
  add_analyses(bench, status);
}

}  // namespace fg::bench
