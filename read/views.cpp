// View factory and cache (read/views.hpp): one entry per selectable kernel.
#include "read/views.hpp"

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/adcsr.hpp"
#include "storage/cmrs.hpp"
#include "storage/colsort.hpp"
#include "storage/csr_adaptive.hpp"
#include "storage/csr_merge.hpp"
#include "storage/csr_scalar.hpp"
#include "storage/hyb.hpp"
#include "storage/reorder.hpp"
#include "storage/sell.hpp"
#include "storage/suraa.hpp"

namespace fg {

namespace {
using Sr = plus_times<double>;

template <class V, class S, class F>
spmv_view<V, S> owning(const std::string& name, F&& format) {
  auto f = std::make_shared<std::decay_t<F>>(std::forward<F>(format));
  spmv_view<V, S> v;
  v.kernel = name;
  v.bytes = f->bytes();
  v.run = [f](const array<double, S>& x, array<double, S>& y) { spmv<Sr>(*f, x, y); };
  return v;
}

// A dbg_* view: `inner` (a read format's conversion) over the DBG renumbering of the snapshot c,
// which is freed once renumbered (the peak holds c, its copy and the format being built).
template <class V, class S, class Convert>
spmv_view<V, S> renumbered(const std::string& name, csr_matrix<V, S>&& c, Convert&& inner) {
  auto order = std::make_shared<const vertex_order<S>>(degree_grouped_order(c));
  csr_matrix<V, S> p = permute(c, *order);
  c = csr_matrix<V, S>{};
  using F = decltype(inner(p));
  auto f = std::make_shared<reordered_matrix<F, S>>(reordered_matrix<F, S>{order, inner(p)});
  spmv_view<V, S> v;
  v.kernel = name;
  v.bytes = f->bytes();
  v.order = order;
  v.run = [f](const array<double, S>& x, array<double, S>& y) { spmv<Sr>(*f, x, y); };
  v.run_ordered = [f](const array<double, S>& x, array<double, S>& y) { spmv<Sr>(f->inner, x, y); };
  return v;
}
}  // namespace

bool has_mixed_read(const std::string& kernel) { return kernel == "csr_merge"; }

std::string unrenumbered(const std::string& kernel) {
  if (kernel == "dbg_merge") return "csr_merge";
  if (kernel == "dbg_vector") return "csr_vector";
  return kernel;
}

template <class V, class S>
spmv_view<V, S> make_view(const dcsr_matrix<V, S>& A, const std::string& kernel) {
  spmv_view<V, S> v;
  if (kernel == "dcsr") {
    v.kernel = kernel;
    v.reads_store = true;
    const dcsr_matrix<V, S>* a = &A;
    v.run = [a](const array<double, S>& x, array<double, S>& y) { spmv<Sr>(*a, x, y); };
  } else if (kernel == "adcsr" && A.size_ordered()) {
    v.kernel = kernel;  // the store already holds its rows in bin order: the ADCSR kernels read it
    v.reads_store = true;
    const dcsr_matrix<V, S>* a = &A;
    v.run = [a](const array<double, S>& x, array<double, S>& y) { spmv_binned<Sr>(*a, x, y); };
  } else {
    csr_matrix<V, S> c = A.to_csr();
    if (kernel == "csr_vector" || kernel == "csr_scalar") {
      auto f = std::make_shared<csr_matrix<V, S>>(std::move(c));
      v.kernel = kernel;
      v.bytes = f->bytes();
      if (kernel == "csr_vector") v.run = [f](const array<double, S>& x, array<double, S>& y) { spmv<Sr>(*f, x, y); };
      else v.run = [f](const array<double, S>& x, array<double, S>& y) { spmv_scalar<Sr>(*f, x, y); };
    } else if (kernel == "csr_adaptive") {
      v = owning<V, S>(kernel, to_csr_adaptive(c));
    } else if (kernel == "csr_merge") {
      auto f = std::make_shared<csr_merge_matrix<V, S>>(to_csr_merge(std::move(c)));
      v.kernel = kernel;
      v.bytes = f->bytes();
      v.run = [f](const array<double, S>& x, array<double, S>& y) { spmv<Sr>(*f, x, y); };
      v.run_mixed = [f](const array<float, S>& x, array<double, S>& y) { spmv_mixed(*f, x, y); };  // has_mixed_read
    } else if (kernel == "cmrs") {
      v = owning<V, S>(kernel, to_cmrs(c));
    } else if (kernel == "cmrs_modified") {
      cmrs_options o;
      o.variant = cmrs_variant::modified;
      v = owning<V, S>(kernel, to_cmrs(c, o));
    } else if (kernel == "sell") {
      v = owning<V, S>(kernel, to_sell(c));
    } else if (kernel == "hyb") {
      v = owning<V, S>(kernel, to_hyb(c));
    } else if (kernel == "suraa_dp" || kernel == "suraa_once") {
      suraa_options o;
      o.dynamic_parallelism = kernel == "suraa_dp";
      v = owning<V, S>(kernel, to_suraa(c, o));
    } else if (kernel == "adcsr") {
      v = owning<V, S>(kernel, to_adcsr(c));
    } else if (kernel == "colsort") {
      v = owning<V, S>(kernel, to_colsort(c));
    } else if (kernel == "dbg_merge") {
      v = renumbered<V, S>(kernel, std::move(c), [](const csr_matrix<V, S>& p) { return to_csr_merge(p); });
    } else if (kernel == "dbg_vector") {
      v = renumbered<V, S>(kernel, std::move(c), [](csr_matrix<V, S>& p) { return std::move(p); });
    } else {
      throw invalid_argument("unknown kernel '" + kernel + "'");
    }
  }
  v.version = A.version();
  return v;
}

template <class V, class S>
const spmv_view<V, S>& view_cache<V, S>::get(const dcsr_matrix<V, S>& A, const std::string& kernel) {
  auto it = views_.find(kernel);
  if (it != views_.end()) {
    // A view of the store itself stays valid while the store can be read that way (DCSR: always;
    // ADCSR: while it is laid out by size); a snapshot, while the content is unchanged.
    const bool valid = it->second.reads_store ? kernel == "dcsr" || A.size_ordered() : it->second.version == A.version();
    if (valid) {
      ++hits_;
      return it->second;
    }
    ++invalidations_;
    views_.erase(it);  // free the stale view before building its replacement
  }
  ++builds_;
  return views_.emplace(kernel, make_view(A, kernel)).first->second;
}

#define FG_INSTANTIATE(V, S)                                                                   \
  template spmv_view<V, S> make_view(const dcsr_matrix<V, S>&, const std::string&);           \
  template class view_cache<V, S>;
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE

}  // namespace fg
