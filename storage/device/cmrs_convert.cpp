// Device twin of the CMRS conversion in storage/reference/cmrs.cpp, in Thrust (OpenMP in the CPU
// build, CUDA in the CUDA build). The within-strip order is a segmented sort done as one stable
// sort of 64-bit keys (group << 28 | column), group = strip (basic) or row (modified): a radix sort
// on the GPU, and stability keeps ties in CSR order, so the layout equals the reference twin's.
#include <thrust/fill.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include "storage/detail/cmrs_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = cmrs_kernels<device_space>;

namespace {
FG_HD inline offset_t first_row(offset_t s, int height, vertex_t rows) {
  return s * height < offset_t(rows) ? s * height : offset_t(rows);
}
}  // namespace

template <class V>
offset_t K::strip_layout(const csr_view<V>& A, int height, bool modified, offset_t strips, offset_t* strip_ptr) {
  const offset_t* rp = A.row_ptr;
  const vertex_t rows = A.rows;
  if (!modified) {
    parallel_for(strips + 1, FG_LAMBDA(std::int64_t s) { strip_ptr[s] = rp[first_row(s, height, rows)]; });
    return read_one<device_space>(strip_ptr + strips);
  }
  // A strip has at most 16 rows: a thread per strip finds its size and longest row.
  parallel_for(strips + 1, FG_LAMBDA(std::int64_t s) {
    if (s == strips) {
      strip_ptr[s] = 0;
      return;
    }
    const offset_t b = first_row(s, height, rows), e = first_row(s + 1, height, rows);
    offset_t longest = 0;
    for (offset_t r = b; r < e; ++r) longest = rp[r + 1] - rp[r] > longest ? rp[r + 1] - rp[r] : longest;
    strip_ptr[s] = cmrs_warp * cmrs_windows(rp[e] - rp[b], longest);
  });
  thrust::exclusive_scan(policy(), strip_ptr, strip_ptr + strips + 1, strip_ptr);
  return read_one<device_space>(strip_ptr + strips);
}

template <class V>
void K::fill_strips(const csr_view<V>& A, int height, bool modified, offset_t strips, const offset_t* strip_ptr,
                    std::uint32_t* col, stored_t<V>* val) {
  const offset_t n = A.nnz;
  const offset_t* rp = A.row_ptr;
  const vertex_t* acol = A.col;
  const stored_t<V>* aval = A.val;
  const vertex_t rows = A.rows;
  if (modified) {  // every slot starts as padding; the scatter below overwrites the entries' slots
    const offset_t total = read_one<device_space>(strip_ptr + strips);
    thrust::fill_n(policy(), col, total, cmrs_padding);
    if (val != nullptr) thrust::fill_n(policy(), val, total, stored_t<V>(0));
  }
  if (n == 0) return;
  array<std::uint64_t, device_space> keys(static_cast<std::size_t>(n));
  array<offset_t, device_space> perm(static_cast<std::size_t>(n));
  array<vertex_t, device_space> row_of(static_cast<std::size_t>(n));
  std::uint64_t* key = keys.data();
  offset_t* p = perm.data();
  vertex_t* row = row_of.data();
  parallel_for(n, FG_LAMBDA(std::int64_t j) {
    const vertex_t r = vertex_t(last_not_greater(rp, std::int64_t(rows) + 1, offset_t(j)));
    row[j] = r;
    const std::uint64_t group = modified ? std::uint64_t(r) : std::uint64_t(r / height);
    key[j] = (group << cmrs_col_bits) | std::uint64_t(acol[j]);  // < 2^59: rows < 2^31, cols < 2^28
  });
  thrust::sequence(policy(), p, p + n);
  thrust::stable_sort_by_key(policy(), key, key + n, p);
  parallel_for(n, FG_LAMBDA(std::int64_t t) {
    const offset_t j = p[t];
    const vertex_t r = row[j];
    const offset_t s = r / height, b = s * height;
    offset_t out = t;  // basic: strip s holds sorted positions [row_ptr[s h], row_ptr[(s + 1) h])
    if (modified) {    // entry q of the strip: window q mod W, slot q / W
      const offset_t q = t - rp[b], windows = (strip_ptr[s + 1] - strip_ptr[s]) / cmrs_warp;
      out = strip_ptr[s] + q % windows * cmrs_warp + q / windows;
    }
    col[out] = cmrs_pack(int(r - b), acol[j]);
    copy_value<V>(val, out, aval, j);
  });
}

#define FG_INSTANTIATE(V)                                                                           \
  template offset_t K::strip_layout<V>(const csr_view<V>&, int, bool, offset_t, offset_t*);         \
  template void K::fill_strips<V>(const csr_view<V>&, int, bool, offset_t, const offset_t*,         \
                                  std::uint32_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
