// CDLP orchestration (algorithms/cdlp.hpp): the neighbour multisets once, then one step per iteration.
#include "algorithms/cdlp.hpp"

#include <chrono>
#include <utility>

#include "algorithms/detail/app_kernels.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"

namespace fg {

template <class V, class S>
cdlp_result cdlp(const dcsr_matrix<V, S>& g, int iterations) {
  using K = detail::app_kernels<S>;
  FG_EXPECTS(iterations >= 0, "cdlp: iterations must be >= 0");
  const auto t0 = std::chrono::steady_clock::now();
  const vertex_t n = g.rows();
  const coo_matrix<V, S> c = g.to_coo();
  const detail::both_ways<S> nb = K::neighbours(c.row.data(), c.col.data(), c.nnz, n);
  array<vertex_t, S> label(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n));
  K::wcc_init(label.data(), 0, n);  // label[v] = v
  for (int i = 0; i < iterations; ++i) {
    K::cdlp_step(nb, label.data(), next.data());
    std::swap(label, next);
  }
  memory::synchronize();
  cdlp_result r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.label = to_vector(label);
  r.iterations = iterations;
  return r;
}

#define FG_CDLP(V, S) template cdlp_result cdlp<V, S>(const dcsr_matrix<V, S>&, int);
FG_CDLP(pattern, host_space)
FG_CDLP(pattern, device_space)
FG_CDLP(double, host_space)
FG_CDLP(double, device_space)
#undef FG_CDLP

}  // namespace fg
