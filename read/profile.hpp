// The matrix profile the kernel selector reads: computed on the device in one pass over the rows.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "fluxgraph/reports.hpp"
#include "storage/csr.hpp"
#include "storage/dcsr.hpp"

namespace fg {

/// The profile of a matrix: the public type (include/fluxgraph/reports.hpp).
using matrix_profile = fluxgraph::graph_profile;
inline constexpr int profile_bins = matrix_profile::bins;

/// Rows of length >= len, from the histogram (exact at powers of two, interpolated in a bin).
double rows_at_least(const matrix_profile& p, double len);

template <class V, class Space>
matrix_profile profile(const csr_matrix<V, Space>& A);
template <class V, class Space>
matrix_profile profile(const dcsr_matrix<V, Space>& A);

}  // namespace fg
