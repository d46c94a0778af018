// kernels<device_space>::insert for the CPU build: the step kernels of storage/device/dcsr_insert.cpp
// on OpenMP threads, where reading a count back between steps is a plain load. The CUDA build
// replaces this file with storage/cuda/dcsr_insert.cu (same symbol).
#include "storage/detail/kernels.hpp"
#include "storage/detail/stepwise_insert.hpp"

namespace fg::detail {

template <class V>
insert_status kernels<device_space>::insert(const dcsr_view<V>& A, const coo_matrix<V, device_space>& b,
                                            const insert_request& rq, batch_workspace<device_space>&,
                                            const edge_set_view& set) {
  return stepwise_insert<device_space>(A, b, rq, set);
}

#define FG_INSTANTIATE(V)                                                                          \
  template insert_status kernels<device_space>::insert<V>(const dcsr_view<V>&,                      \
                                                          const coo_matrix<V, device_space>&,       \
                                                          const insert_request&, batch_workspace<device_space>&, \
                                                          const edge_set_view&);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
