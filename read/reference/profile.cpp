// Reference twin of read/device/profile.cpp: the profile pass, one row at a time.
#include <algorithm>

#include "read/detail/profile_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg::detail {
using P = profile_kernels<host_space>;

namespace {
void add_row(row_moments& m, offset_t len) {
  m.sum += double(len);
  m.sum2 += double(len) * double(len);
  m.max_row = std::max(m.max_row, vertex_t(len));
  m.hist[length_bin(len)] += 1;
}
}  // namespace

row_moments P::csr_rows(const offset_t* rp, vertex_t rows) {
  row_moments m;
  for (vertex_t r = 0; r < rows; ++r) add_row(m, rp[r + 1] - rp[r]);
  return m;
}

template <class V>
row_moments P::dcsr_rows(const dcsr_view<V>& A) {
  row_moments m;
  for (vertex_t r = 0; r < A.rows; ++r) {
    add_row(m, A.sizes[r]);
    m.segments += A.nseg[r];
    m.capacity += A.capacity(r);
    m.nonempty += A.sizes[r] > 0 ? 1 : 0;
  }
  return m;
}

#define FG_INSTANTIATE(V) template row_moments P::dcsr_rows<V>(const dcsr_view<V>&);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
