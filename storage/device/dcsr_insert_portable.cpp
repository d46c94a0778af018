// kernels<device_space>::insert for the CPU build: the step kernels of storage/device/dcsr_insert.cpp
// and the plan and write steps below (Algorithms 1-2) on OpenMP threads, where reading a count back
// between steps is a plain load. The CUDA build
// replaces this file with storage/cuda/dcsr_insert.cu (same symbol).
#include <thrust/transform_reduce.h>

#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"
#include "storage/detail/stepwise_insert.hpp"

namespace fg::detail {
using K = kernels<device_space>;

namespace {
struct combine_plan {
  FG_HD plan_totals operator()(const plan_totals& a, const plan_totals& b) const {
    plan_totals t;
    t.total = a.total + b.total;
    t.overflow = a.overflow || b.overflow;
    t.at_limit = a.at_limit || b.at_limit;
    t.segments = a.segments + b.segments;
    t.max_nseg = a.max_nseg > b.max_nseg ? a.max_nseg : b.max_nseg;
    return t;
  }
};
}  // namespace

template <class V>
plan_totals K::plan(const dcsr_view<V>& A, const vertex_t* run_row, const offset_t* run_start,
                    std::size_t m, offset_t alpha, double row_growth, offset_t* need) {
  const offset_t zero = 0;
  memory::copy_to_device(need + m, &zero, sizeof zero);
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::int64_t>(0),
      thrust::counting_iterator<std::int64_t>(std::int64_t(m)),
      FG_LAMBDA(std::int64_t i) {
        const vertex_t r = run_row[i];
        const offset_t b = run_start[i + 1] - run_start[i];
        const offset_t free_space = A.capacity(r) - A.sizes[r];
        const offset_t n = segment_need(b, free_space, A.sizes[r], alpha, row_growth);
        need[i] = n;
        const int segs = A.nseg[r] + (n > 0 ? 1 : 0);
        plan_totals t;
        t.total = n;
        t.overflow = segs > A.k;
        t.at_limit = segs == A.k;
        t.segments = n > 0 ? 1 : 0;
        t.max_nseg = segs;
        return t;
      },
      plan_totals{}, combine_plan{});
}

template <class V>
void K::write(const dcsr_view<V>& A, const vertex_t* run_row, const offset_t* run_start, std::size_t m,
              const offset_t* addr, offset_t base, const coo_matrix<V, device_space>& b) {
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) {  // Algorithm 1: new segments
    if (addr[i + 1] > addr[i]) {
      const vertex_t r = run_row[i];
      const int s = A.nseg[r];
      A.seg[s * A.pitch + 2 * offset_t(r)] = base + addr[i];
      A.seg[s * A.pitch + 2 * offset_t(r) + 1] = base + addr[i + 1];
      A.nseg[r] = std::uint8_t(s + 1);
    }
  });
  const vertex_t* col = b.col.data();
  const stored_t<V>* val = b.val.data();
  parallel_for(std::int64_t(b.nnz), FG_LAMBDA(std::int64_t e) {  // Algorithm 2: the entries
    const std::int64_t i = last_not_greater(run_start, std::int64_t(m) + 1, offset_t(e));
    const vertex_t r = run_row[i];
    const offset_t idx = A.locate(r, A.sizes[r] + (e - run_start[i]));
    A.col[idx] = col[e];
    copy_value<V>(A.val, idx, val, e);
  });
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) {
    A.sizes[run_row[i]] += vertex_t(run_start[i + 1] - run_start[i]);
  });
}


template <class V>
insert_status kernels<device_space>::insert(const dcsr_view<V>& A, const coo_matrix<V, device_space>& b,
                                            const insert_request& rq, batch_workspace<device_space>&,
                                            const edge_set_view& set) {
  return stepwise_insert<device_space>(A, b, rq, set);
}

#define FG_INSTANTIATE(V)                                                                          \
  template plan_totals K::plan<V>(const dcsr_view<V>&, const vertex_t*, const offset_t*, std::size_t,   \
                                  offset_t, double, offset_t*);                                      \
  template void K::write<V>(const dcsr_view<V>&, const vertex_t*, const offset_t*, std::size_t,        \
                            const offset_t*, offset_t, const coo_matrix<V, device_space>&);           \
  FG_INSERT_KERNEL_OF(device_space, V)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
