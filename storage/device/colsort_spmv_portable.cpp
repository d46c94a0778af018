// Portable SpMV of the column-sorted row partitions (CPU build): an OpenMP loop over the partitions,
// each adding its entries into its own rows of y (no other partition writes them) in column order, as
// the reference twin; a long row's pieces into their carry slots, folded in order afterwards. The
// CUDA build compiles storage/cuda/colsort_spmv.cu instead. Twin: storage/reference/colsort.cpp.
#include <omp.h>

#include "core/semiring.hpp"
#include "storage/detail/colsort_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = colsort_kernels<device_space>;

// Partitions differ in work (one of ~nnz/512 entries in the hubs' rows, one of colsort_rows short
// rows in the tail), so they are handed out one at a time: Thrust's static split gave one of two
// threads most of rmat-22's hub partitions (93 ms against 56 ms balanced).
template <class Sr, class V>
void K::spmv(const colsort_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  using T = typename Sr::value_type;
  T* carry = static_cast<T*>(A.carry);  // 8-byte slots: room for any value type
  constexpr std::int64_t slot = 8 / sizeof(T);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t p = 0; p < A.nparts; ++p) {
    const colsort_part q = A.parts[p];
    if (q.piece >= 0) {
      T acc = Sr::zero();
      for (offset_t j = q.begin; j < q.end; ++j) acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
      carry[p * slot] = acc;
      continue;
    }
    T* yp = y + q.row0;
    for (vertex_t i = 0; i < q.rows; ++i) yp[i] = Sr::zero();
    for (offset_t j = q.begin; j < q.end; ++j)
      yp[A.lrow[j]] = Sr::add(yp[A.lrow[j]], Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
  }
  const colsort_view<V> M = A;
  parallel_for(A.nruns, FG_LAMBDA(std::int64_t k) {
    const merge_run run = M.runs[k];
    T acc = Sr::zero();
    for (offset_t p = run.first; p < run.first + run.count; ++p) acc = Sr::add(acc, carry[p * slot]);
    y[run.row] = acc;
  });
}

#define FG_INSTANTIATE(Sr, V) \
  template void K::spmv<Sr, V>(const colsort_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
