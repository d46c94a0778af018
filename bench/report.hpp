// Shared by `fluxgraph bench insert` and `bench stream`: a results table printed as it fills and
// written as JSON, the edges of a graph in device batches, and the SpMV of a fragmented store.
#pragma once
#include <string>
#include <vector>

#include "bench/matrices.hpp"
#include "storage/coo.hpp"
#include "storage/dcsr.hpp"

namespace fg::bench {

class results {
 public:
  /// Prints "  what  value unit" and keeps the row for the JSON file.
  void record(const std::string& graph, const std::string& what, double value, const std::string& unit);
  /// [{"graph", "metric", "value", "unit"}, ...]; throws fg::error when the file cannot be written.
  void write_json(const std::string& path) const;

 private:
  struct row {
    std::string graph, what;
    double value;
    std::string unit;
  };
  std::vector<row> rows_;
};

/// The edges in batches of `batch`, in stream order, on the device.
std::vector<coo_matrix<pattern, device_space>> split(const edge_list& g, std::size_t batch);

/// Random x vectors (float, [0, 1)) whose copies together exceed L2, to rotate through in timed SpMVs.
std::vector<array<float, device_space>> rotating_x(std::size_t n);
/// max |got - want| / (1e-6 + |want|).
double max_rel_error(const std::vector<float>& got, const std::vector<float>& want);

/// SpMV (float, plus-times) on `frag` as it is, then defragmented, then as CSR (csr_vector): times,
/// ratios, CSR GB/s and eta (of copy_gbs), the defragmentation in CSR SpMVs, the error. Leaves
/// `frag` defragmented. Returns the CSR SpMV time (ms).
double spmv_fragmentation(const std::string& graph, dcsr_matrix<pattern, device_space>& frag, double copy_gbs,
                          results& out);

/// A list of sizes as "1e4,1e5" (each >= 1); throws fg::invalid_argument naming the bad item.
std::vector<std::size_t> parse_sizes(const std::string& list);

}  // namespace fg::bench
