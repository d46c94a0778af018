// Kernel selection for read-heavy phases: predicted time of every SpMV kernel for a matrix profile,
// conversion included and amortised over the expected number of reads; the choice and its reason.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "engine/profile.hpp"

namespace fg {

/// Per-kernel constants of the time model t = launch + bytes / (copy_bandwidth x efficiency), with
/// efficiency interpolated between regular (sigma/mu <= 0.5) and skewed (>= 1.5) row lengths, and
/// conversion = convert_fixed + convert_per_nnz x nnz.
struct kernel_constants {
  double launch_us = 10, eff_regular = 0.3, eff_skewed = 0.3, convert_fixed_us = 100, convert_ns_per_nnz = 0.05;
};

struct calibration {
  std::string source;  ///< where the constants come from (built-in measurement or a cache file)
  double copy_gbs = 2990;
  std::map<std::string, kernel_constants> kernels[2];  ///< [0]: 4-byte values, [1]: 8-byte values
};

/// Constants fitted from the H100 SpMV benchmark (bench/NOTES.md, run 8, 34 matrices).
calibration builtin_calibration();
/// The cache file for this device ($XDG_CACHE_HOME or ~/.cache, fluxgraph/calibration-<device>.txt)
/// when present and readable, else the built-in constants. Never throws.
calibration load_calibration(const std::string& device_name);
/// Writes a calibration to the cache file for device_name; returns the path.
std::string save_calibration(const calibration& c, const std::string& device_name);

struct kernel_estimate {
  std::string kernel;
  bool feasible = true;
  std::string why_not;          ///< for an infeasible kernel
  double bytes = 0;             ///< beta+ of the read (CMRS Eq. 6.1)
  double spmv_ms = 0, convert_ms = 0, total_ms = 0;
};

struct selection {
  std::string kernel;           ///< the choice
  std::string reason;           ///< one line a person can check
  std::vector<kernel_estimate> estimates;  ///< every kernel, cheapest total first
};

/// @param value_bytes  bytes of a vector element (4 or 8); the matrix itself may be pattern
/// @param reads        SpMVs expected before the next update batch (>= 1)
/// @param forced       "auto" or a kernel name (an unknown name throws fg::invalid_argument)
selection select_kernel(const matrix_profile& p, int value_bytes, double reads, const calibration& c,
                        const std::string& forced = "auto");

/// Every kernel the selector knows, in a fixed order.
const std::vector<std::string>& selectable_kernels();

}  // namespace fg
