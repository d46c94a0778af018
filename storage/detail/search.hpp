// Binary search usable in host and device code.
#pragma once
#include <cstdint>

#include "core/types.hpp"

namespace fg::detail {

/// Index of the last element of the sorted a[0, n) that is <= v (a[0] <= v required): the row of a
/// CSR-style offset array that holds position v.
template <class T>
FG_HD inline std::int64_t last_not_greater(const T* a, std::int64_t n, T v) {
  std::int64_t lo = 0, hi = n;  // invariant: a[lo] <= v, a[hi] > v (hi == n: past the end)
  while (hi - lo > 1) {
    std::int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}

/// Index of the first element of the sorted a[lo, hi) that is >= v (hi when none).
template <class T>
FG_HD inline std::int64_t first_not_less(const T* a, std::int64_t lo, std::int64_t hi, T v) {
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace fg::detail
