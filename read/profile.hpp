// The matrix profile the kernel selector reads: computed on the device in one pass over the rows.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "storage/csr.hpp"
#include "storage/dcsr.hpp"

namespace fg {

/// Row-length histogram bins: bin 0 holds empty rows, bin b >= 1 rows of length in [2^(b-1), 2^b).
inline constexpr int profile_bins = 33;

struct matrix_profile {
  vertex_t rows = 0, cols = 0;
  offset_t nnz = 0;
  double mu = 0, sigma = 0;            ///< mean and standard deviation of the row length
  vertex_t max_row = 0, empty_rows = 0;
  std::array<std::int64_t, profile_bins> histogram{};  ///< rows per log2 length bin
  double q1 = 0, median = 0, q3 = 0;   ///< row-length quartiles, from the histogram (within its bin)
  double segments_per_row = 1;         ///< DCSR: mean segments of the non-empty rows (1 = packed)
  double gap_fraction = 0;             ///< DCSR: allocated but unused share of the buffer up to the allocation pointer
  bool size_ordered = false;           ///< DCSR: laid out by size (dcsr_matrix::size_ordered): ADCSR reads it with no copy
  std::string value_type;              ///< "float", "double" or "pattern"
  /// Rows of length >= len, from the histogram (exact at powers of two, interpolated in a bin).
  double rows_at_least(double len) const;
};

template <class V, class Space>
matrix_profile profile(const csr_matrix<V, Space>& A);
template <class V, class Space>
matrix_profile profile(const dcsr_matrix<V, Space>& A);

}  // namespace fg
