// WCC orchestration (algorithms/components.hpp) on the union-find steps of app_kernels.
#include "algorithms/components.hpp"

#include <chrono>

#include "algorithms/detail/app_kernels.hpp"
#include "core/memory.hpp"

namespace fg {


template <class V, class S>
wcc_result wcc(const dcsr_matrix<V, S>& g) {
  using K = detail::app_kernels<S>;
  const auto t0 = std::chrono::steady_clock::now();
  const vertex_t n = g.rows();
  array<vertex_t, S> parent(static_cast<std::size_t>(n));
  K::wcc_init(parent.data(), 0, n);
  const std::int64_t hooks = K::wcc_hook(detail::pattern_view(g.view()), parent.data());
  K::wcc_flatten(parent.data(), n);
  memory::synchronize();  // the flatten is queued without a wait: time it
  wcc_result r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.label = to_vector(parent);
  r.components = std::int64_t(n) - hooks;
  return r;
}

template <class S>
template <class V>
void incremental_wcc<S>::update(const dcsr_matrix<V, S>& g, const edge_batch<S>& inserted, const edge_batch<S>& deleted) {
  using K = detail::app_kernels<S>;
  const vertex_t n = g.rows();
  const std::size_t had = parent_.size();
  if (std::size_t(n) > had) {  // new vertices: components of their own until an edge joins them
    parent_ = grown(parent_, std::size_t(n));
    K::wcc_init(parent_.data(), vertex_t(had), n);
    components_ += std::int64_t(n) - std::int64_t(had);
  }
  recomputed_ = false;
  // Every deleted edge joined two vertices of one component (it was in the graph): removing it may
  // split that component, which the forest cannot tell.
  const bool fresh = !started_ || deleted.size() > 0;
  started_ = false;  // an exception below (out of memory) leaves the forest half done: start over next time
  if (fresh) {
    K::wcc_init(parent_.data(), 0, n);
    components_ = std::int64_t(n) - K::wcc_hook(detail::pattern_view(g.view()), parent_.data());
    started_ = recomputed_ = true;
    return;
  }
  if (inserted.size() > 0) components_ -= K::wcc_hook_pairs(inserted.u.data(), inserted.v.data(), inserted.size(), parent_.data());
  started_ = true;
}

template <class S>
std::vector<vertex_t> incremental_wcc<S>::labels() {
  detail::app_kernels<S>::wcc_flatten(parent_.data(), vertex_t(parent_.size()));
  return to_vector(parent_);
}

#define FG_WCC(V, S)                                \
  template wcc_result wcc<V, S>(const dcsr_matrix<V, S>&); \
  template void incremental_wcc<S>::update<V>(const dcsr_matrix<V, S>&, const edge_batch<S>&, const edge_batch<S>&);
FG_WCC(pattern, host_space)
FG_WCC(pattern, device_space)
FG_WCC(double, host_space)
FG_WCC(double, device_space)
#undef FG_WCC
template class incremental_wcc<host_space>;
template class incremental_wcc<device_space>;

}  // namespace fg
