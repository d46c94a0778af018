// `fluxgraph bench spmv|insert|closure ARGS`: the benchmarks behind the CLI.
#pragma once
#include <string>
#include <vector>

namespace fg::bench {

/// SpMV of every registered kernel on every matrix, float and double, against cuSPARSE.
int run_spmv(const std::vector<std::string>& args);
/// Streaming insert into DCSR vs a per-batch CSR rebuild, and SpMV on fragmented/packed DCSR.
int run_insert(const std::vector<std::string>& args);
/// Semi-naive transitive closure per graph: time by phase (SpMM, set difference, insert), pairs,
/// iterations, peak memory, and a check against the published table (--expected).
int run_closure(const std::vector<std::string>& args);
extern const char* bench_usage;

}  // namespace fg::bench
