// Semirings for SpMV/SpMM: add is the reduction, mul combines a matrix entry with a vector entry.
// pattern_value() is what a stored entry of a pattern matrix (no values) means in the semiring.
#pragma once
#include <cstdint>
#include <limits>

#include "core/types.hpp"

namespace fg {

template <class T>
struct plus_times {
  using value_type = T;
  static constexpr const char* name = "plus_times";
  FG_HD static constexpr T zero() { return T(0); }
  FG_HD static constexpr T pattern_value() { return T(1); }
  FG_HD static constexpr T add(T a, T b) { return a + b; }
  FG_HD static constexpr T mul(T a, T b) { return a * b; }
};

/// Boolean reachability: x[v] = OR over in-neighbours u of A(v,u) AND x[u].
struct or_and {
  using value_type = std::uint8_t;  // 0/1; bool arrays are avoided because of vector<bool>
  static constexpr const char* name = "or_and";
  FG_HD static constexpr value_type zero() { return 0; }
  FG_HD static constexpr value_type pattern_value() { return 1; }
  FG_HD static constexpr value_type add(value_type a, value_type b) { return a | b; }
  FG_HD static constexpr value_type mul(value_type a, value_type b) { return a & b; }
};

/// Shortest paths (tropical): zero is +inf; a pattern entry is a unit-length edge (hop counts).
template <class T>
struct min_plus {
  using value_type = T;
  static constexpr const char* name = "min_plus";
  FG_HD static constexpr T zero() { return std::numeric_limits<T>::infinity(); }
  FG_HD static constexpr T pattern_value() { return T(1); }
  FG_HD static constexpr T add(T a, T b) { return a < b ? a : b; }
  FG_HD static constexpr T mul(T a, T b) { return a + b; }
};

}  // namespace fg
