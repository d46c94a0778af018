// Device twin of the distributed store's vector kernels (distributed/reference/dist_vectors.cpp): a
// thread per global vertex.
#include "distributed/detail/dist_kernels.hpp"
#include <thrust/copy.h>
#include <thrust/count.h>

#include "core/semiring.hpp"
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
void dist_kernels<device_space>::mark(const vertex_t* col, std::int64_t count, std::uint8_t* named) {
  parallel_for(count, FG_LAMBDA(std::int64_t j) { named[col[j]] = 1; });  // racing writes of the same 1
}

void dist_kernels<device_space>::number(const vertex_t* index, std::int64_t count, vertex_t first, vertex_t* out) {
  parallel_for(count, FG_LAMBDA(std::int64_t i) { out[index[i]] = first + vertex_t(i); });
}
namespace {
struct on_side {
  vertex_t bound;
  bool lower;
  FG_HD bool operator()(vertex_t k) const { return (k < bound) == lower; }
};
}  // namespace
template <class T>
void dist_kernels<device_space>::select(const vertex_t* key, std::int64_t count, vertex_t bound, bool lower, const T* in,
                                        T* out) {
  thrust::copy_if(policy(), in, in + count, key, out, on_side{bound, lower});  // stable stream compaction
}
std::int64_t dist_kernels<device_space>::count_below(const vertex_t* key, std::int64_t count, vertex_t bound) {
  return std::int64_t(thrust::count_if(policy(), key, key + count, on_side{bound, true}));
}
void dist_kernels<device_space>::shift(vertex_t* v, std::int64_t count, vertex_t delta) {
  parallel_for(count, FG_LAMBDA(std::int64_t i) { v[i] += delta; });
}
template <class Sr>
void dist_kernels<device_space>::join(const typename Sr::value_type* part, std::int64_t n, typename Sr::value_type* y) {
  parallel_for(n, FG_LAMBDA(std::int64_t i) { y[i] = Sr::add(y[i], part[i]); });
}

#define FG_INSTANTIATE(T) \
  template void dist_kernels<device_space>::spread<T>(const partition_view&, const std::int64_t*, const T*, vertex_t, T*); \
  template void dist_kernels<device_space>::gather<T>(const vertex_t*, std::int64_t, const T*, T*);
FG_FOR_EACH_DIST_VECTOR(FG_INSTANTIATE)
FG_INSTANTIATE(vertex_t)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(T) \
  template void dist_kernels<device_space>::select<T>(const vertex_t*, std::int64_t, vertex_t, bool, const T*, T*);
FG_INSTANTIATE(vertex_t) FG_INSTANTIATE(float) FG_INSTANTIATE(double)
#undef FG_INSTANTIATE
#define FG_INSTANTIATE(Sr) \
  template void dist_kernels<device_space>::join<Sr>(const Sr::value_type*, std::int64_t, Sr::value_type*);
FG_FOR_EACH_DIST_SEMIRING(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
