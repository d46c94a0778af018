// When to defragment a DCSR store between batches. A fragmented store costs every read (segment
// walks); a defragmentation costs a fixed pass over the store. The engine weighs the two for the
// reads the caller expects before the next batch, from the kernel selector's calibration.
//
//   none           never (the store still compacts on its own when a row would pass k segments)
//   segment_limit  the paper's flag: some row has reached k segments (dcsr_matrix::needs_defragment)
//   measured       reads x (predicted fragmented DCSR SpMV - predicted packed SpMV) > defragment cost;
//                  and the rows go in size order (dcsr_layout::size_order, §IV-B) when the selector
//                  would read the packed store with ADCSR, whose kernels then read it with no copy
//                  (the other modes use the store's configured layout)
#pragma once
#include <optional>
#include <string>

#include "fluxgraph/reports.hpp"
#include "fluxgraph/types.hpp"
#include "read/cost_model.hpp"
#include "read/profile.hpp"
#include "storage/dcsr.hpp"

namespace fg {

using fluxgraph::defrag_mode;  // the public type (include/fluxgraph/types.hpp)

/// "none", "limit" (or "segment_limit") or "measured"; throws fg::invalid_argument otherwise.
defrag_mode parse_defrag_mode(const std::string& s);
/// "none", "limit" or "measured" (what parse_defrag_mode reads).
const char* to_string(defrag_mode m);

struct defrag_policy {
  defrag_mode mode = defrag_mode::measured;
  /// A defragmentation's cost: defrag_spmvs packed CSR SpMVs (csr_vector) of the same store plus
  /// defrag_fixed_ms. It reads and writes every entry once (the tiled gather) and rewrites one
  /// segment slot a row, with one allocation. Fitted to the H100 (docs/perf-journal.md, 2026-11-25:
  /// 0.82-0.84 ms on rmat-22 = 1.2 SpMVs; 62-64 us on Slashdot, 115-138 us on cnr-2000, where the
  /// launches dominate); `fluxgraph bench stream` prints it per graph. It was 21-25 SpMVs before.
  double defrag_spmvs = 1.25;
  double defrag_fixed_ms = 0.06;
  int value_bytes = 8;  ///< element size of the vectors the reads multiply (PageRank: 8)
  calibration cal;      ///< measured mode: the selector's points (make_defrag_policy loads this device's)
  /// Where the rows go: unset = the measured mode picks (size order when the selector would read
  /// with ADCSR), the other modes row order; set = always that layout (`--layout rows|size`).
  std::optional<dcsr_layout> layout;
};

/// "auto" (unset), "rows" or "size"; throws fg::invalid_argument otherwise.
std::optional<dcsr_layout> parse_layout(const std::string& s);

/// A policy of mode m with this device's calibration (load_calibration; the built-in H100 points
/// when the device has no cache file).
defrag_policy make_defrag_policy(defrag_mode m);
/// The same with a stream's row layout (stream_options::layout; automatic: the policy picks).
defrag_policy make_defrag_policy(defrag_mode m, fluxgraph::row_layout layout);

using fluxgraph::defrag_decision;  // the public type (include/fluxgraph/reports.hpp)

/// @brief The policy's decision for a store of profile p (segments_per_row, gap_fraction from
///        profile(dcsr)); at_limit = dcsr_matrix::needs_defragment(). Pure: tests feed synthetic
///        profiles. A packed store (one segment per row, no gaps) is never defragmented.
/// @throws fg::invalid_argument for reads < 0 or a non-positive defrag_spmvs.
defrag_decision decide_defragment(const defrag_policy& policy, const matrix_profile& p, bool at_limit, double reads);

}  // namespace fg
