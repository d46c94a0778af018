// Reference twin of the distributed store's vector kernels (engine/detail/dist_kernels.hpp).
#include "engine/detail/dist_kernels.hpp"

namespace fg::detail {

template <class T>
void dist_kernels<host_space>::spread(const partition_view& p, const std::int64_t* offset, const T* gathered,
                                      vertex_t n, T* full) {
  for (vertex_t v = 0; v < n; ++v) full[v] = gathered[offset[p.owner(v)] + p.local(v)];
}

#define FG_INSTANTIATE(T) \
  template void dist_kernels<host_space>::spread<T>(const partition_view&, const std::int64_t*, const T*, vertex_t, T*);
FG_FOR_EACH_DIST_VECTOR(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
