// Device SpMM pieces compiled in both builds (OpenMP / CUDA): partial-product counts per row
// (King et al. 2016, §III-B: "for each element a_ij the number of entries in row j of B are
// summed"), the workspace-to-batch gather, and the sortedness check of DCSR append_sorted.
// Reference twin: storage/reference/spmm.cpp.
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>

#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"
#include "storage/device/spmm_device.hpp"

namespace fg::detail {
using K = spmm_kernels<device_space>;

// count_products: below `few_rows` rows (a coarse level, whose rows are long) a row's entries are
// counted by `lanes` threads, not one.
constexpr vertex_t few_rows = 32768;
constexpr std::int64_t lanes = 32;

template <class V>
product_totals K::count_products(const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_cost& c,
                                 offset_t* ptr, offset_t* cost) {
  const vertex_t rows = A.rows;
  if (rows >= few_rows) {  // a thread a row
    parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t r) {
      offset_t n = 0;
      if (r < rows)
        A.for_each_piece(vertex_t(r), [&](offset_t b, offset_t e) {
          for (offset_t j = b; j < e; ++j) n += A.col[j] < B.rows ? B.size(A.col[j]) : 0;
        });
      ptr[r] = n;
      cost[r] = r < rows ? c.of(n, A.size(vertex_t(r))) : 0;
    });
  } else {  // few rows, long ones (a coarse level's): `lanes` threads a row, added atomically
    parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t r) { ptr[r] = 0; });
    parallel_for(std::int64_t(rows) * lanes, FG_LAMBDA(std::int64_t i) {
      const auto r = vertex_t(i / lanes);
      offset_t n = 0;
      for (offset_t p = i % lanes; p < A.size(r); p += lanes) {
        const vertex_t k = A.col[A.locate(r, p)];
        n += k < B.rows ? B.size(k) : 0;
      }
      if (n == 0) return;
#if defined(__CUDA_ARCH__)
      atomicAdd(reinterpret_cast<unsigned long long*>(ptr + r), static_cast<unsigned long long>(n));
#else
      __atomic_fetch_add(ptr + r, n, __ATOMIC_RELAXED);
#endif
    });
    parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t r) { cost[r] = r < rows ? c.of(ptr[r], A.size(vertex_t(r))) : 0; });
  }
  product_totals t;
  // Both arrays end in 0, so each total is its scan's last entry: one read back each.
  thrust::exclusive_scan(policy(), ptr, ptr + rows + 1, ptr);
  thrust::exclusive_scan(policy(), cost, cost + rows + 1, cost);
  t.products = spmm_device::read_offset(ptr + rows);
  t.cost = spmm_device::read_offset(cost + rows);
  return t;
}

bool K::strictly_sorted(const vertex_t* row, const vertex_t* col, std::size_t n) {
  if (n < 2) return true;
  const std::int64_t bad = thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(1), thrust::counting_iterator<std::int64_t>(std::int64_t(n)),
      FG_LAMBDA(std::int64_t i)->std::int64_t {
        return row[i] < row[i - 1] || (row[i] == row[i - 1] && col[i] <= col[i - 1]) ? 1 : 0;
      },
      std::int64_t(0), thrust::plus<std::int64_t>());
  return bad == 0;
}

void K::row_offsets(const vertex_t* row, std::size_t n, vertex_t rows, offset_t* row_ptr) {
  const auto m = std::int64_t(n);
  parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t i) {
    std::int64_t lo = 0, hi = m;  // first entry whose row is >= i
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (std::int64_t(row[mid]) < i) lo = mid + 1;
      else hi = mid;
    }
    row_ptr[i] = offset_t(lo);
  });
}

void K::mark(std::uint32_t* bits, offset_t words, const vertex_t* row, const vertex_t* col, std::size_t n) {
  parallel_for(std::int64_t(n), FG_LAMBDA(std::int64_t i) {
    std::uint32_t* w = bits + offset_t(row[i]) * words + (col[i] >> 5);
    const std::uint32_t bit = 1u << (col[i] & 31);
#if defined(__CUDA_ARCH__)
    atomicOr(w, bit);
#else
    __atomic_fetch_or(w, bit, __ATOMIC_RELAXED);
#endif
  });
}

namespace spmm_device {

offset_t read_offset(const offset_t* p) {
  offset_t v = 0;
  memory::copy_to_host(&v, p, sizeof v);
  return v;
}

template <class VC>
coo_matrix<VC, device_space> gather(vertex_t r0, vertex_t r1, const offset_t* ptr, offset_t base,
                                    const vertex_t* ws_col, const stored_t<VC>* ws_val, offset_t* count) {
  const std::int64_t n = std::int64_t(r1) - r0;
  thrust::exclusive_scan(policy(), count, count + n + 1, count);  // count[n] is 0: the total lands there
  const offset_t total = read_offset(count + n);
  coo_matrix<VC, device_space> out(static_cast<std::size_t>(total));
  vertex_t* row = out.row.data();
  vertex_t* col = out.col.data();
  stored_t<VC>* val = out.val.data();
  // A thread per output entry finds its row by binary search: long rows cost no more than short ones.
  parallel_for(total, FG_LAMBDA(std::int64_t o) {
    const std::int64_t i = last_not_greater(count, n + 1, offset_t(o));
    const offset_t w = ptr[r0 + i] - base + (o - count[i]);
    row[o] = vertex_t(r0 + i);
    col[o] = ws_col[w];
    copy_value<VC>(val, o, ws_val, w);
  });
  return out;
}

#define FG_INSTANTIATE(VC)                                                                             \
  template coo_matrix<VC, device_space> gather<VC>(vertex_t, vertex_t, const offset_t*, offset_t,      \
                                                   const vertex_t*, const stored_t<VC>*, offset_t*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace spmm_device

FG_FOR_EACH_VALUE(FG_SPMM_COUNT_DEVICE)

}  // namespace fg::detail
