// Row-length bins of adaptive binning (King et al. 2016, §III-A, after ACSR): shared by the ADCSR
// view (storage/adcsr.hpp) and the DCSR store's size-ordered layout (storage/dcsr.hpp), which
// groups its rows by these bins when it compacts.
#pragma once
#include "core/types.hpp"

namespace fg {

inline constexpr int adcsr_bins = 11;
/// Threads per row in each bin (1-32: lanes of a warp; 64-1024: a block per row).
inline constexpr int adcsr_bin_threads[adcsr_bins] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

/// Bin of a row of n entries: 0: n <= 1, 1: 2-3, 2: 4-8, 3: 9-16, 4: 17-32, ..., 9: 513-1024, 10: > 1024.
FG_HD inline int adcsr_bin(offset_t n) {
  if (n <= 1) return 0;
  if (n <= 3) return 1;
  if (n <= 8) return 2;
  int b = 3;
  for (offset_t hi = 16; n > hi && b < adcsr_bins - 1; hi *= 2) ++b;
  return b;
}

}  // namespace fg
