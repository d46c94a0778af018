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

template <class T>
void dist_kernels<device_space>::gather(const vertex_t* index, std::int64_t count, const T* in, T* out) {
  parallel_for(count, FG_LAMBDA(std::int64_t i) { out[i] = in[index[i]]; });
}
template <class T>
void dist_kernels<device_space>::scatter(const vertex_t* index, std::int64_t count, const T* in, T* out) {
  parallel_for(count, FG_LAMBDA(std::int64_t i) { out[index[i]] = in[i]; });
}
void dist_kernels<device_space>::mark(const vertex_t* col, std::int64_t count, std::uint8_t* named) {
  parallel_for(count, FG_LAMBDA(std::int64_t j) { named[col[j]] = 1; });  // racing writes of the same 1
}

#define FG_INSTANTIATE(T) \
  template void dist_kernels<device_space>::spread<T>(const partition_view&, const std::int64_t*, const T*, vertex_t, T*); \
  template void dist_kernels<device_space>::gather<T>(const vertex_t*, std::int64_t, const T*, T*);                      \
  template void dist_kernels<device_space>::scatter<T>(const vertex_t*, std::int64_t, const T*, T*);
FG_FOR_EACH_DIST_VECTOR(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
