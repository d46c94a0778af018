// Reference twin of the distributed store's vector kernels (engine/detail/dist_kernels.hpp).
#include "engine/detail/dist_kernels.hpp"

namespace fg::detail {

template <class T>
void dist_kernels<host_space>::spread(const partition_view& p, const std::int64_t* offset, const T* gathered,
                                      vertex_t n, T* full) {
  for (vertex_t v = 0; v < n; ++v) full[v] = gathered[offset[p.owner(v)] + p.local(v)];
}

template <class T>
void dist_kernels<host_space>::gather(const vertex_t* index, std::int64_t count, const T* in, T* out) {
  for (std::int64_t i = 0; i < count; ++i) out[i] = in[index[i]];
}
template <class T>
void dist_kernels<host_space>::scatter(const vertex_t* index, std::int64_t count, const T* in, T* out) {
  for (std::int64_t i = 0; i < count; ++i) out[index[i]] = in[i];
}
void dist_kernels<host_space>::mark(const vertex_t* col, std::int64_t count, std::uint8_t* named) {
  for (std::int64_t j = 0; j < count; ++j) named[col[j]] = 1;
}

#define FG_INSTANTIATE(T) \
  template void dist_kernels<host_space>::spread<T>(const partition_view&, const std::int64_t*, const T*, vertex_t, T*); \
  template void dist_kernels<host_space>::gather<T>(const vertex_t*, std::int64_t, const T*, T*);                      \
  template void dist_kernels<host_space>::scatter<T>(const vertex_t*, std::int64_t, const T*, T*);
FG_FOR_EACH_DIST_VECTOR(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
