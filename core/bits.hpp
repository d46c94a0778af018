// Bit helpers shared by host and device code (C++17 has no std::bit_width).
#pragma once
#include <cstdint>

#include "core/types.hpp"  // FG_HD

namespace fg {

/// Bits needed to write v: 0 for 0, else 1 + floor(log2 v) (std::bit_width of C++20). Radix sorts
/// use it to sort only the key bits in use; the DBG renumbering to group vertices by degree.
FG_HD inline int bit_width(std::uint64_t v) {
  int b = 0;
  for (; v != 0; v >>= 1) ++b;
  return b;
}

}  // namespace fg
