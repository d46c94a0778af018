// Matrix profile: the pass itself is in the twins; this file turns moments into the profile.
#include "read/profile.hpp"

#include <cmath>

#include "read/detail/profile_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

namespace {
template <class V>
const char* type_name() {
  if constexpr (is_pattern_v<V>) return "pattern";
  else if constexpr (std::is_same_v<V, float>) return "float";
  else return "double";
}

// The length below which a fraction f of the rows lie, interpolating inside the histogram bin.
double quantile(const matrix_profile& p, double f) {
  const double target = f * double(p.rows);
  double seen = 0;
  for (int b = 0; b < profile_bins; ++b) {
    const double c = double(p.histogram[std::size_t(b)]);
    if (c > 0 && seen + c >= target) {
      if (b == 0) return 0;
      const double lo = std::ldexp(1.0, b - 1), hi = std::ldexp(1.0, b);
      return lo + (hi - lo) * (target - seen) / c;
    }
    seen += c;
  }
  return double(p.max_row);
}

matrix_profile finish(const detail::row_moments& m, vertex_t rows, vertex_t cols, const char* type) {
  matrix_profile p;
  p.rows = rows;
  p.cols = cols;
  p.nnz = offset_t(m.sum);
  p.mu = rows > 0 ? m.sum / rows : 0;
  p.sigma = rows > 0 ? std::sqrt(std::max(0.0, m.sum2 / rows - p.mu * p.mu)) : 0;
  p.max_row = m.max_row;
  for (int b = 0; b < profile_bins; ++b) p.histogram[std::size_t(b)] = m.hist[b];
  p.empty_rows = vertex_t(m.hist[0]);
  p.q1 = quantile(p, 0.25);
  p.median = quantile(p, 0.5);
  p.q3 = quantile(p, 0.75);
  p.value_type = type;
  return p;
}
}  // namespace

double rows_at_least(const matrix_profile& p, double len) {
  const auto& histogram = p.histogram;
  if (len <= 0) return double(p.rows);
  double n = 0;
  for (int b = 1; b < profile_bins; ++b) {
    const double lo = std::ldexp(1.0, b - 1), hi = std::ldexp(1.0, b), c = double(histogram[std::size_t(b)]);
    if (len <= lo) n += c;
    else if (len < hi) n += c * (hi - len) / (hi - lo);  // uniform within the bin
  }
  return n;
}

template <class V, class S>
matrix_profile profile(const csr_matrix<V, S>& A) {
  return finish(detail::profile_kernels<S>::csr_rows(A.row_ptr.data(), A.rows), A.rows, A.cols, type_name<V>());
}

template <class V, class S>
matrix_profile profile(const dcsr_matrix<V, S>& A) {
  const detail::row_moments m = detail::profile_kernels<S>::template dcsr_rows<V>(A.view());
  matrix_profile p = finish(m, A.rows(), A.cols(), type_name<V>());
  p.segments_per_row = m.nonempty > 0 ? double(m.segments) / double(m.nonempty) : 1.0;
  p.gap_fraction = A.allocation_pointer() > 0 ? 1.0 - double(A.nnz()) / double(A.allocation_pointer()) : 0.0;
  p.size_ordered = A.size_ordered();
  return p;
}

#define FG_INSTANTIATE(V)                                                   \
  template matrix_profile profile(const csr_matrix<V, host_space>&);        \
  template matrix_profile profile(const csr_matrix<V, device_space>&);      \
  template matrix_profile profile(const dcsr_matrix<V, host_space>&);       \
  template matrix_profile profile(const dcsr_matrix<V, device_space>&);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg
