// Device twin of read/reference/profile.cpp: one transform_reduce over the rows.
#include <thrust/transform_reduce.h>

#include "read/detail/profile_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using P = profile_kernels<device_space>;

namespace {
struct combine_moments {
  FG_HD row_moments operator()(const row_moments& a, const row_moments& b) const {
    row_moments m;
    m.sum = a.sum + b.sum;
    m.sum2 = a.sum2 + b.sum2;
    m.max_row = a.max_row > b.max_row ? a.max_row : b.max_row;
    m.segments = a.segments + b.segments;
    m.capacity = a.capacity + b.capacity;
    m.nonempty = a.nonempty + b.nonempty;
    for (int i = 0; i < profile_bins; ++i) m.hist[i] = a.hist[i] + b.hist[i];
    return m;
  }
};
FG_HD inline void add_row(row_moments& m, offset_t len) {
  m.sum += double(len);
  m.sum2 += double(len) * double(len);
  m.max_row = m.max_row > vertex_t(len) ? m.max_row : vertex_t(len);
  m.hist[length_bin(len)] += 1;
}
// Rows an item of the reduction: row_moments is ~300 bytes (the histogram), and combining one per
// row was the cost (rmat-24's 16.7 M rows: 1.7 ms, a CUPTI trace of PageRank on the H100); a run of rows
// summed in one thread first leaves the reduction 1/64 of the combines.
constexpr std::int64_t rows_per_item = 64;
FG_HD inline std::int64_t items(std::int64_t rows) { return (rows + rows_per_item - 1) / rows_per_item; }
FG_HD inline std::int64_t item_end(std::int64_t i, std::int64_t rows) {
  return (i + 1) * rows_per_item < rows ? (i + 1) * rows_per_item : rows;
}
}  // namespace

row_moments P::csr_rows(const offset_t* rp, vertex_t rows) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(items(rows)),
      FG_LAMBDA(std::int64_t i) {
        row_moments m;
        for (std::int64_t r = i * rows_per_item; r < item_end(i, rows); ++r) add_row(m, rp[r + 1] - rp[r]);
        return m;
      },
      row_moments{}, combine_moments{});
}

template <class V>
row_moments P::dcsr_rows(const dcsr_view<V>& A) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(items(A.rows)),
      FG_LAMBDA(std::int64_t i) {
        row_moments m;
        for (std::int64_t r = i * rows_per_item; r < item_end(i, A.rows); ++r) {
          add_row(m, A.sizes[r]);
          m.segments += A.nseg[r];
          m.capacity += A.capacity(vertex_t(r));
          m.nonempty += A.sizes[r] > 0 ? 1 : 0;
        }
        return m;
      },
      row_moments{}, combine_moments{});
}

#define FG_INSTANTIATE(V) template row_moments P::dcsr_rows<V>(const dcsr_view<V>&);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
