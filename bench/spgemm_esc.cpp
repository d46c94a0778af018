// Expand-sort-compress SpGEMM (bench/spgemm.hpp): the COO path of CUSP that the DCSR paper's SpMM is
// measured against. The expansion finds each product's A entry by a binary search over the scanned
// product counts.
#include <thrust/binary_search.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include "bench/baselines.hpp"
#include "bench/spgemm.hpp"
#include "core/error.hpp"
#include "storage/device/policy.hpp"

namespace fg::bench {
using detail::parallel_for;
using detail::policy;

csr_matrix<double, device_space> spgemm_esc(const csr_matrix<double, device_space>& A, const csr_matrix<double, device_space>& B) {
  FG_EXPECTS(A.cols == B.rows, "spgemm_esc: A.cols must equal B.rows");
  const std::size_t entries = A.col.size();
  const offset_t* ap = A.row_ptr.data();
  const vertex_t* ac = A.col.data();
  const double* av = A.val.data();
  const offset_t* bp = B.row_ptr.data();
  const vertex_t* bc = B.col.data();
  const double* bv = B.val.data();
  array<offset_t, device_space> start(entries + 1);  // products before each A entry
  offset_t* st = start.data();
  zero(start);
  parallel_for(std::int64_t(entries), FG_LAMBDA(std::int64_t e) { st[e + 1] = bp[ac[e] + 1] - bp[ac[e]]; });
  thrust::inclusive_scan(policy(), st, st + entries + 1, st);
  const auto total = std::size_t(read_many<device_space>(st + entries, 1)[0]);
  array<vertex_t, device_space> row_of(entries);  // each A entry's row
  thrust::upper_bound(policy(), ap + 1, ap + A.rows + 1, thrust::counting_iterator<offset_t>(0),
                      thrust::counting_iterator<offset_t>(offset_t(entries)), row_of.data());
  const vertex_t* ro = row_of.data();
  array<std::uint64_t, device_space> keys(total);
  array<double, device_space> vals(total);
  std::uint64_t* k = keys.data();
  double* v = vals.data();
  parallel_for(std::int64_t(total), FG_LAMBDA(std::int64_t p) {
    std::int64_t lo = 0, hi = std::int64_t(entries) - 1;  // the last e with st[e] <= p
    while (lo < hi) {
      const std::int64_t mid = (lo + hi + 1) / 2;
      if (st[mid] <= p) lo = mid;
      else hi = mid - 1;
    }
    const offset_t j = bp[ac[lo]] + (p - st[lo]);
    k[p] = std::uint64_t(std::uint32_t(ro[lo])) << 32 | std::uint32_t(bc[j]);
    v[p] = av[lo] * bv[j];
  });
  thrust::sort_by_key(policy(), k, k + total, v);
  array<std::uint64_t, device_space> ukeys(total);
  array<double, device_space> uvals(total);
  const auto end = thrust::reduce_by_key(policy(), k, k + total, v, ukeys.data(), uvals.data());
  const auto m = std::size_t(end.first - ukeys.data());
  csr_matrix<double, device_space> C;
  C.rows = A.rows, C.cols = B.cols;
  C.row_ptr = key_row_offsets(ukeys.data(), m, A.rows);
  C.col = array<vertex_t, device_space>(m);
  C.val = array<double, device_space>(m);
  vertex_t* cc = C.col.data();
  double* cv = C.val.data();
  const std::uint64_t* uk = ukeys.data();
  const double* uv = uvals.data();
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) {
    cc[i] = vertex_t(uk[i] & 0xffffffffu);
    cv[i] = uv[i];
  });
  return C;
}

#if !defined(FG_WITH_CUDA)
bool have_cusparse_spgemm() { return false; }
csr_matrix<double, device_space> spgemm_cusparse(const csr_matrix<double, device_space>&, const csr_matrix<double, device_space>&) {
  throw error("spgemm_cusparse: this build has no cuSPARSE (the CUDA build has)");
}
#endif

}  // namespace fg::bench
