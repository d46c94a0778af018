// `fluxgraph bench spmv|insert|closure ARGS`: the benchmarks behind the CLI.
#pragma once
#include <string>
#include <vector>

namespace fg::bench {

/// SpMV of every registered kernel on every matrix, float and double, against cuSPARSE.
int run_spmv(const std::vector<std::string>& args);
/// Streaming insert into DCSR vs a per-batch CSR rebuild, and SpMV on fragmented/packed DCSR.
int run_insert(const std::vector<std::string>& args);
/// Streaming and iterative updates, DCSR vs HYB vs CSR rebuild, and the post-processing overhead (King et al. §IV-A, §IV-C).
int run_stream(const std::vector<std::string>& args);
/// `fluxgraph calibrate`: the selector's kernels on a small synthetic set -> this device's cache file.
int run_calibrate(const std::vector<std::string>& args);
/// The selector judged on measured points: for each matrix, the choice (the matrix itself left out of
/// the calibration, or a given calibration) against the measured fastest, for each stated read count.
int run_select(const std::vector<std::string>& args);
/// PageRank with --kernel auto vs every forced kernel, end to end from the packed store.
int run_pagerank(const std::vector<std::string>& args);
/// Semi-naive transitive closure per graph: time by phase (SpMM, set difference, insert), pairs,
/// iterations, peak memory, and a check against the published table (--expected).
int run_closure(const std::vector<std::string>& args);
/// Andersen points-to on random constraint sets or files (--check: against the worklist solver).
int run_pointsto_bench(const std::vector<std::string>& args);
/// CFL-reachability of POCR graphs under one grammar (--check: the worklist solver's count too).
int run_cfl_bench(const std::vector<std::string>& args);
extern const char* bench_usage;

}  // namespace fg::bench
