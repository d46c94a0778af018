// Defragmentation policy (stream/defrag_policy.hpp): the measured mode reads the kernel selector's
// calibration, so "is a packed store worth a defragmentation" and "which kernel reads it" agree.
#include "stream/defrag_policy.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"

namespace fg {

defrag_mode parse_defrag_mode(const std::string& s) {
  if (s == "none") return defrag_mode::none;
  if (s == "limit" || s == "segment_limit") return defrag_mode::segment_limit;
  if (s == "measured") return defrag_mode::measured;
  throw invalid_argument("unknown defragmentation policy '" + s + "' (none, limit or measured)");
}

std::optional<dcsr_layout> parse_layout(const std::string& s) {
  if (s == "auto") return std::nullopt;
  if (s == "rows") return dcsr_layout::row_order;
  if (s == "size") return dcsr_layout::size_order;
  throw invalid_argument("unknown layout '" + s + "' (auto, rows or size)");
}

const char* to_string(defrag_mode m) {
  switch (m) {
    case defrag_mode::none: return "none";
    case defrag_mode::segment_limit: return "limit";
    default: return "measured";
  }
}

defrag_policy make_defrag_policy(defrag_mode m) {
  defrag_policy p;
  p.mode = m;
  if (m == defrag_mode::measured) p.cal = *load_calibration(device_description());
  return p;
}

defrag_policy make_defrag_policy(defrag_mode m, fluxgraph::row_layout layout) {
  defrag_policy p = make_defrag_policy(m);
  if (layout == fluxgraph::row_layout::rows) p.layout = dcsr_layout::row_order;
  if (layout == fluxgraph::row_layout::size) p.layout = dcsr_layout::size_order;
  return p;
}

defrag_decision decide_defragment(const defrag_policy& pol, const matrix_profile& p, bool at_limit, double reads) {
  FG_EXPECTS(reads >= 0, "defragment policy: expected reads must be >= 0");
  FG_EXPECTS(pol.defrag_spmvs > 0 && pol.defrag_fixed_ms >= 0,
             "defragment policy: defrag_spmvs must be > 0 and defrag_fixed_ms >= 0");
  defrag_decision d;
  d.reads = reads;
  std::ostringstream why;
  why.precision(3);
  const bool packed = p.segments_per_row <= 1.0 && p.gap_fraction <= 0.0;
  if (pol.mode == defrag_mode::none) {
    why << "policy none: never (the store compacts on its own when a row would pass k segments)";
  } else if (packed || p.nnz == 0) {
    why << "store already packed (one segment per row, no unused space)";
  } else if (pol.mode == defrag_mode::segment_limit) {
    d.defragmented = at_limit;
    why << (at_limit ? "a row has reached k segments (the paper's flag)" : "no row at k segments yet") << "; "
        << p.segments_per_row << " segments per row";
  } else {
    matrix_profile packed_p = p;
    packed_p.segments_per_row = 1;
    packed_p.gap_fraction = 0;
    std::vector<std::string> near;
    d.fragmented_ms = predict_spmv_ms(p, pol.value_bytes, "dcsr", pol.cal, &near);
    d.packed_ms = predict_spmv_ms(packed_p, pol.value_bytes, "dcsr", pol.cal);
    const double csr_ms = predict_spmv_ms(packed_p, pol.value_bytes, "csr_vector", pol.cal);
    if (d.fragmented_ms <= 0 || csr_ms <= 0) {  // no usable points: the paper's rule is the safe fallback
      d.defragmented = at_limit;
      why << "calibration has no dcsr/csr_vector points (" << pol.cal.source << "): falling back to the segment limit ("
          << (at_limit ? "reached" : "not reached") << ")";
    } else {
      d.saved_ms = reads * (d.fragmented_ms - d.packed_ms);
      d.cost_ms = pol.defrag_spmvs * csr_ms + pol.defrag_fixed_ms;
      d.defragmented = d.saved_ms > d.cost_ms;
      if (d.defragmented && !pol.layout) {  // which layout: the one the selector's reads of the packed store want
        packed_p.size_ordered = true;
        d.by_size = select_kernel(packed_p, pol.value_bytes, std::max(1.0, reads), pol.cal).kernel == "adcsr";
      }
      why << reads << " read" << (reads == 1 ? "" : "s") << " x " << (d.fragmented_ms - d.packed_ms)
          << " ms saved per read (" << p.segments_per_row << " segments per row: DCSR SpMV " << d.fragmented_ms
          << " vs " << d.packed_ms << " ms packed) = " << d.saved_ms << " ms " << (d.defragmented ? ">" : "<=")
          << " defragment " << d.cost_ms << " ms (" << pol.defrag_spmvs << " CSR SpMVs of " << csr_ms << " ms + "
          << pol.defrag_fixed_ms << " ms); like";
      for (std::size_t i = 0; i < near.size(); ++i) why << (i ? ", " : " ") << near[i];
      why << "; " << 100 * p.gap_fraction << "% of the buffer unused";
      if (d.by_size) why << "; rows by size: the selector reads the packed store with ADCSR, which then needs no copy";
    }
  }
  if (pol.layout) {
    d.by_size = *pol.layout == dcsr_layout::size_order;
    if (d.defragmented && d.by_size) why << "; rows by size (--layout size)";
  }
  d.reason = std::string(d.defragmented ? "defragment: " : "keep: ") + why.str();
  return d;
}

}  // namespace fg
