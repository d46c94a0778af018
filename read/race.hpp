// Settling a kernel choice by measurement: the selector's contenders (race_contenders) are each
// built and timed on real reads of the phase, and the fastest keeps the rest of the reads.
//
// Why: the cost model reads a kernel's time off calibration matrices that only resemble this one;
// where its leaders are within its own error (leave-one-out: 10-25% on small matrices) a timed
// read on the matrix itself is the better judge, and it costs the contenders' builds, which
// race_contenders bounds to a few percent of the phase. The probe reads are reads of the phase
// (a PageRank iteration each), not extra work.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "read/views.hpp"

namespace fg {

struct race_lap {
  std::string kernel;
  double build_seconds = 0;  ///< 0 for a view already built (the one in use)
  double read_seconds = 0;   ///< fastest of its timed reads
  int reads = 0;             ///< timed reads it ran (fewer than asked when the phase ended)
};

template <class V, class Space>
struct race_outcome {
  spmv_view<V, Space> view;     ///< the winner (or the view in use when the phase ended first)
  std::vector<race_lap> laps;   ///< in the order raced
  double build_seconds = 0;     ///< all builds together
  bool finished = true;         ///< false when `step` ended the phase before every contender ran
  /// "csr_merge 0.013 ms, dcsr 0.021 ms, ...": what a reason line quotes.
  std::string summary() const;
};

/// @brief Races `contenders` (kernel names; `current.kernel` among them is not rebuilt) on `probes`
///        calls each of `step`, which performs one read of the phase with the view it is given and
///        returns false when the phase is over (converged). `known` holds a lap already measured for
///        `current` (read_seconds > 0), which then runs no probe. Losers are freed as soon as they
///        lose: at most two views are alive at once. The view in use races first.
/// @return the winner: the contender with the fastest timed read.
template <class V, class Space>
race_outcome<V, Space> race(const dcsr_matrix<V, Space>& A, const std::vector<std::string>& contenders, int probes,
                            spmv_view<V, Space> current, const race_lap& known,
                            const std::function<bool(const spmv_view<V, Space>&)>& step);

}  // namespace fg
