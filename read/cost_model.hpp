// Kernel selection for read-heavy phases: predicted time of every SpMV kernel for a matrix profile,
// conversion included and amortised over the expected number of reads; the choice and its reason.
//
// The model is measured, not derived: a calibration is a set of matrices on which every kernel's
// SpMV and conversion were timed on this GPU (`fluxgraph calibrate`, or `fluxgraph bench spmv
// --points`). A kernel's time on a new matrix is read off the calibration matrices nearest to it in
// (log mean row length, log(1 + sigma/mu), log bytes), scaled by bytes. Why not a closed-form
// bytes/bandwidth model: on the H100 the formats differ by more than their bytes (sub-warp idle
// lanes, hub rows serialised, launches, L2 residency), and a 3-constant model per kernel chose within
// 10% of the fastest on only 26-30 of 34 matrices when each matrix was left out of its own fit
// (docs/architecture.md, "Kernel selection"); nearest neighbours did on 32 of 34.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fluxgraph/reports.hpp"
#include "read/profile.hpp"

namespace fg {

struct measured_kernel {
  double spmv_us = 0, convert_us = 0;  ///< median SpMV; conversion from a packed CSR
};

/// One calibration matrix: its shape and each kernel's measured times, for one vector value size.
struct calibration_point {
  std::string matrix;
  int value_bytes = 8;  ///< 4 (float) or 8 (double) vectors; the matrix carries values of that size
  double rows = 0, nnz = 0, mu = 0, sigma = 0;
  double max_row = 0;  ///< longest row; 0 = not recorded (points written before it was)
  /// The matrix stores no values (a PageRank store: value_bytes vectors, each entry counts 1). Its
  /// reads differ from a valued matrix's by more than the value bytes (rmat-20: DCSR 2.3x
  /// CSR-Adaptive with double values, 1.15x as a pattern), so pattern queries use pattern points.
  bool pattern = false;
  std::map<std::string, measured_kernel> kernels;
};

struct calibration {
  std::string source;  ///< where the points come from (built-in measurement or a cache file)
  double copy_gbs = 0;
  std::vector<calibration_point> points;
  /// The same calibration without the points of one matrix (leave-one-out evaluation).
  calibration without(const std::string& matrix) const;
};

/// Points measured on an H100 by `fluxgraph bench spmv --points` (bench/points/, their date and command).
const calibration& builtin_calibration();
/// Parses the text format written by write_calibration; throws fg::input_error (file:line) on damage.
calibration read_calibration(const std::string& path);
/// Text format: "fluxgraph-calibration 1", "copy_gbs G", then per point "point BYTES NAME ROWS NNZ
/// MU SIGMA [MAX_ROW [pattern]]" followed by its "kernel NAME SPMV_US CONVERT_US" lines.
void write_calibration(const calibration& c, const std::string& path);
/// The cache file for a device ($XDG_CACHE_HOME or ~/.cache, fluxgraph/calibration-<device>.txt).
std::string calibration_path(const std::string& device_name);
/// The cache file for this device when present and readable, else the built-in points. Never throws:
/// a damaged cache file is ignored (and named in the source string), not trusted in part. Shared
/// and immutable: a file is parsed once per version, and no caller pays for a copy.
std::shared_ptr<const calibration> load_calibration(const std::string& device_name);
/// Writes a calibration to the cache file for device_name; returns the path.
std::string save_calibration(const calibration& c, const std::string& device_name);

using fluxgraph::kernel_estimate;  // include/fluxgraph/reports.hpp

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
/// The same in two steps, for a phase that asks again as its reads estimate changes: every kernel's
/// predicted read and conversion (the neighbour search: ~20 us), then the ranking for `reads` (a sort
/// of 12). A caller may replace an estimate by a measurement before ranking (PageRank's DCSR read).
std::vector<kernel_estimate> estimate_kernels(const matrix_profile& p, int value_bytes, const calibration& c);
selection select_kernel(std::vector<kernel_estimate> estimates, const matrix_profile& p, double reads,
                        const std::string& forced = "auto");

/// How much slower DCSR reads a store of this profile than the same store packed (segment walks;
/// 1 when packed). The selector and the defragmentation policy both count it so.
double dcsr_read_factor(const matrix_profile& p);
/// Predicted time (ms) of one SpMV by `kernel` on a matrix of this profile, as the selector predicts
/// it ("dcsr" includes dcsr_read_factor); 0 when the calibration has no point for the kernel.
/// `nearest`, when given, receives the calibration matrices the prediction was read from.
double predict_spmv_ms(const matrix_profile& p, int value_bytes, const std::string& kernel, const calibration& c,
                       std::vector<std::string>* nearest = nullptr);

/// How a choice is settled by measurement when the model cannot tell the leaders apart: the model's
/// choice and the next kernels whose predicted total is within `spread` of it are each built and
/// read `probes` times (real reads of the phase), and the fastest measured keeps the rest.
struct race_rule {
  double spread = 1.25;       ///< a contender's predicted total <= spread x the choice's
  double budget = 0.05;       ///< the contenders' predicted conversions <= budget x the choice's predicted total
  int max_contenders = 3;
  int probes = 2;             ///< timed reads per contender (the first after a build may run cold)
  double probe_share = 0.1;   ///< all probes together take at most this share of the reads
};

/// The kernels to race, the model's choice first; just the choice when racing does not pay (too few
/// reads to probe them all, no contender close enough, or building the contenders would cost more
/// than `budget` of the phase). A forced selection is never raced.
std::vector<std::string> race_contenders(const selection& s, double reads, const race_rule& rule = {});

/// The names of read_kernels() (read/kernel_table.hpp), in its fixed order.
const std::vector<std::string>& selectable_kernels();

/// The fixed-point driver's estimate of the reads left: from the last two changes (contraction
/// ratio) and the stopping tolerance; `fallback` while fewer than two changes are known or the
/// iteration is not contracting. Clamped to [1, max_left]. `slowest`, when > 0, is the slowest rate
/// the iteration can contract at (PageRank: the damping factor): the rate so far is pulled toward it.
double estimate_reads_left(const std::vector<double>& changes, double tol, double fallback, double max_left,
                           double slowest = 0);

}  // namespace fg
