// `fluxgraph bench NAME ARGS` and `fluxgraph calibrate`: the benchmarks behind the CLI. Each file
// declares its own options (CLI11) beside its code; tools/ only mounts them.
#pragma once
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <utility>

#include "fluxgraph/reports.hpp"

namespace fg::bench {

/// Adds every benchmark under `bench` (`fluxgraph bench spmv|insert|...`) and `calibrate` under
/// `top`. The chosen one runs from its parse callback and leaves its exit status in `status`.
void add_benchmarks(CLI::App& bench, CLI::App& top, int& status);

// The benchmarks (one file each):
/// SpMV of every registered kernel on every matrix, float and double, against cuSPARSE; and
/// `calibrate`: the selector's kernels on a small synthetic set -> this device's cache file.
void add_spmv(CLI::App& bench, CLI::App& top, int& status);
/// Streaming insert into DCSR vs a per-batch CSR rebuild, and SpMV on fragmented/packed DCSR.
void add_insert(CLI::App& bench, int& status);
/// Streaming and iterative updates, DCSR vs HYB vs CSR rebuild, and the post-processing overhead (King et al. §IV-A, §IV-C).
void add_stream(CLI::App& bench, int& status);
/// The selector judged on measured points: for each matrix, the choice (the matrix itself left out of
/// the calibration, or a given calibration) against the measured fastest, for each stated read count.
void add_select(CLI::App& bench, int& status);
/// PageRank with --kernel auto vs every forced kernel, end to end from the packed store.
void add_pagerank(CLI::App& bench, int& status);
/// Personalized PageRank's k-vector read against k SpMVs and cuSPARSE SpMM; k seed sets together vs one by one.
void add_ppr(CLI::App& bench, int& status);
/// Semi-naive transitive closure per graph: time by phase (SpMM, set difference, insert), pairs,
/// iterations, peak memory, and a check against the published table (--expected).
void add_closure(CLI::App& bench, int& status);
/// Andersen points-to on random constraint sets or files, and CFL-reachability of POCR graphs under
/// one grammar (--check: against the worklist solvers).
void add_analyses(CLI::App& bench, int& status);

/// The graph applications: BFS/SSSP GTEPS, WCC, triangles, LCC, CDLP, incremental BFS/WCC, Boost.
void add_apps(CLI::App& bench, int& status);
/// A stream with PageRank kept current per batch against the stream without it and PageRank from scratch.
void add_incremental(CLI::App& bench, int& status);
/// What a streamed graph costs in memory, part by part, in bytes per edge (PageRank kept current).
void add_memory(CLI::App& bench, int& status);
/// Prints r a line a part, "NAME  MB  X bytes per edge", then the parts' sum, the allocator's
/// total less `base` (what was in use before the graph), its peak less base (0: not printed),
/// the CSR floor and the id map's host bytes (`bench memory`, `info --memory`).
void print_memory(const fluxgraph::memory_report& r, std::size_t base, std::size_t peak);
/// The distributed store under mpirun: balance, bytes per batch and per PageRank iteration.
void add_dist(CLI::App& bench, int& status);

/// A subcommand whose options bind into a fresh O; when it is chosen, run(O) gives the exit status.
template <class O, class Run>
std::pair<CLI::App*, std::shared_ptr<O>> subcommand(CLI::App& parent, const std::string& name,
                                                    const std::string& what, int& status, Run run) {
  auto o = std::make_shared<O>();
  CLI::App* app = parent.add_subcommand(name, what);
  app->callback([o, run, &status] { status = run(*o); });
  return {app, o};
}

/// "MATRIX: a graph file, rmat:SCALE[:EDGE_FACTOR], ..." for the benchmarks' help.
extern const char* matrix_help;

}  // namespace fg::bench
