// Device twin of the distributed store's vector kernels (engine/reference/dist_vectors.cpp): a
// thread per global vertex.
#include "engine/detail/dist_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {

template <class T>
void dist_kernels<device_space>::spread(const partition_view& p, const std::int64_t* offset, const T* gathered,
                                        vertex_t n, T* full) {
  parallel_for(n, FG_LAMBDA(std::int64_t v) { full[v] = gathered[offset[p.owner(vertex_t(v))] + p.local(vertex_t(v))]; });
}

#define FG_INSTANTIATE(T) \
  template void dist_kernels<device_space>::spread<T>(const partition_view&, const std::int64_t*, const T*, vertex_t, T*);
FG_FOR_EACH_DIST_VECTOR(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
