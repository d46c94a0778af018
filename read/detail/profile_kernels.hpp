// One pass over row lengths: sums, max, empty rows, log2 histogram, segment counts. Twins:
// read/reference/profile.cpp (sequential) and read/device/profile.cpp (Thrust: OpenMP or CUDA).
#pragma once
#include <array>

#include "read/profile.hpp"

namespace fg::detail {

struct row_moments {
  double sum = 0, sum2 = 0;
  vertex_t max_row = 0;
  offset_t segments = 0, capacity = 0, nonempty = 0;
  std::int64_t hist[profile_bins] = {};
};

FG_HD inline int length_bin(offset_t len) {
  int b = 0;
  while (len > 0) {
    ++b;
    len >>= 1;
  }
  return b;  // 0 for empty, else floor(log2 len) + 1
}

template <class Space>
struct profile_kernels;

#define FG_PROFILE_KERNELS                                                                      \
  /* row lengths of a CSR (offsets) or of a DCSR (sizes, segments, capacity) */                \
  static row_moments csr_rows(const offset_t* row_ptr, vertex_t rows);                          \
  template <class V>                                                                            \
  static row_moments dcsr_rows(const dcsr_view<V>& A);

template <>
struct profile_kernels<host_space> {
  FG_PROFILE_KERNELS
};
template <>
struct profile_kernels<device_space> {
  FG_PROFILE_KERNELS
};
#undef FG_PROFILE_KERNELS

}  // namespace fg::detail
