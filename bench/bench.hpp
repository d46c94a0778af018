// `fluxgraph bench spmv|insert ARGS`: the benchmarks behind the CLI.
#pragma once
#include <string>
#include <vector>

namespace fg::bench {

/// SpMV of every registered kernel on every matrix, float and double, against cuSPARSE.
int run_spmv(const std::vector<std::string>& args);
/// Streaming insert into DCSR vs a per-batch CSR rebuild, and SpMV on fragmented/packed DCSR.
int run_insert(const std::vector<std::string>& args);
extern const char* bench_usage;

}  // namespace fg::bench
