// Reference twin of the distributed store's vector kernels (distributed/detail/dist_kernels.hpp).
#include "distributed/detail/dist_kernels.hpp"

#include "core/semiring.hpp"

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
void dist_kernels<host_space>::mark(const vertex_t* col, std::int64_t count, std::uint8_t* named) {
  for (std::int64_t j = 0; j < count; ++j) named[col[j]] = 1;
}

void dist_kernels<host_space>::number(const vertex_t* index, std::int64_t count, vertex_t first, vertex_t* out) {
  for (std::int64_t i = 0; i < count; ++i) out[index[i]] = first + vertex_t(i);
}
template <class T>
void dist_kernels<host_space>::select(const vertex_t* key, std::int64_t count, vertex_t bound, bool lower, const T* in, T* out) {
  for (std::int64_t i = 0; i < count; ++i)
    if ((key[i] < bound) == lower) *out++ = in[i];
}
std::int64_t dist_kernels<host_space>::count_below(const vertex_t* key, std::int64_t count, vertex_t bound) {
  std::int64_t k = 0;
  for (std::int64_t i = 0; i < count; ++i) k += key[i] < bound;
  return k;
}
void dist_kernels<host_space>::shift(vertex_t* v, std::int64_t count, vertex_t delta) {
  for (std::int64_t i = 0; i < count; ++i) v[i] += delta;
}
template <class Sr>
void dist_kernels<host_space>::join(const typename Sr::value_type* part, std::int64_t n, typename Sr::value_type* y) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = Sr::add(y[i], part[i]);
}

#define FG_INSTANTIATE(T) \
  template void dist_kernels<host_space>::spread<T>(const partition_view&, const std::int64_t*, const T*, vertex_t, T*); \
  template void dist_kernels<host_space>::gather<T>(const vertex_t*, std::int64_t, const T*, T*);
FG_FOR_EACH_DIST_VECTOR(FG_INSTANTIATE)
FG_INSTANTIATE(vertex_t)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(T) \
  template void dist_kernels<host_space>::select<T>(const vertex_t*, std::int64_t, vertex_t, bool, const T*, T*);
FG_INSTANTIATE(vertex_t) FG_INSTANTIATE(float) FG_INSTANTIATE(double)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(Sr) \
  template void dist_kernels<host_space>::join<Sr>(const Sr::value_type*, std::int64_t, Sr::value_type*);
FG_FOR_EACH_DIST_SEMIRING(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
