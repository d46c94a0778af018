// SURAA setup phase in Thrust (Algorithm 2 lines 3-5): row lengths, a stable radix sort by key
// (descending), and the rearrangement of the CSR entries into sorted row order, an entry per
// thread so one long row does not serialize it. OpenMP in the CPU build, CUDA in the CUDA build.
// Reference twin: storage/reference/suraa.cpp.
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/sort.h>

#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/detail/suraa_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = suraa_kernels<device_space>;

void K::suraa_sort_rows(const offset_t* row_ptr, vertex_t rows, vertex_t* perm, offset_t* npr) {
  parallel_for(rows, FG_LAMBDA(std::int64_t i) {
    perm[i] = vertex_t(i);
    npr[i] = row_ptr[i + 1] - row_ptr[i];
  });
  // Thrust sorts arithmetic keys under thrust::greater with its radix sort (stable) on CUDA.
  thrust::stable_sort_by_key(policy(), npr, npr + rows, perm, thrust::greater<offset_t>());
}

template <class V>
void K::suraa_rearrange(const csr_view<V>& A, const vertex_t* perm, const offset_t* row_ptr, vertex_t* col,
                        stored_t<V>* val) {
  const vertex_t rows = A.rows;
  parallel_for(A.nnz, FG_LAMBDA(std::int64_t j) {
    // Sorted row holding position j: the last row start <= j (empty rows share their successor's start).
    const std::int64_t i = last_not_greater(row_ptr, std::int64_t(rows), offset_t(j));
    const offset_t src = A.row_ptr[perm[i]] + (j - row_ptr[i]);
    col[j] = A.col[src];
    copy_value<V>(val, j, A.val, src);
  });
}

void K::suraa_read(const offset_t* a, const offset_t* pos, std::size_t n, offset_t* out) {
  if (n == 0) return;
  const auto p = to_space<device_space>(pos, n);
  array<offset_t, device_space> o(n);
  thrust::gather(policy(), p.data(), p.data() + n, a, o.data());
  memory::copy_to_host(out, o.data(), n * sizeof(offset_t));
}

#define FG_INSTANTIATE_V(V) \
  template void K::suraa_rearrange<V>(const csr_view<V>&, const vertex_t*, const offset_t*, vertex_t*, stored_t<V>*);
FG_FOR_EACH_VALUE(FG_INSTANTIATE_V)
#undef FG_INSTANTIATE_V

}  // namespace fg::detail
