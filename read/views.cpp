// View factory and cache (read/views.hpp): a build for each row of the kernel table.
#include "read/views.hpp"

#include <fmt/core.h>

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
// A view that owns its format f: y = A x by the format's plus-times SpMV.
template <class X, class V, class S, class F>
spmv_view<V, S, X> owning(const read_kernel& k, F&& format, std::string note = "") {
  auto f = std::make_shared<std::decay_t<F>>(std::forward<F>(format));
  spmv_view<V, S, X> v;
  v.kernel = k.name;
  v.bytes = f->bytes();
  v.note = std::move(note);
  v.run = [f](const array<X, S>& x, array<X, S>& y) { spmv<plus_times<X>>(*f, x, y); };
  if constexpr (std::is_same_v<X, double> && std::is_same_v<std::decay_t<F>, csr_merge_matrix<V, S>>)
    if (k.mixed) v.run_mixed = [f](const array<float, S>& x, array<double, S>& y) { spmv_mixed(*f, x, y); };
  if constexpr (std::is_same_v<X, double> && std::is_same_v<std::decay_t<F>, dcsr_matrix<V, S>>)
    if (k.multi) v.run_k = [f](const array<double, S>& x, array<double, S>& y, int n) { spmv_k(*f, x, y, n); };
  return v;
}

// A dbg_* view: `inner` (a read format's conversion) over the DBG renumbering of c; a snapshot the
// view was given (owned) is freed once renumbered (the peak holds c, its copy and the format).
template <class X, class V, class S, class Convert>
spmv_view<V, S, X> renumbered(const read_kernel& k, const csr_matrix<V, S>& c, csr_matrix<V, S>* owned, Convert&& inner) {
  auto order = std::make_shared<const vertex_order<S>>(degree_grouped_order(c));
  csr_matrix<V, S> p = permute(c, *order);
  if (owned) *owned = csr_matrix<V, S>{};
  using F = decltype(inner(p));
  auto f = std::make_shared<reordered_matrix<F, S>>(reordered_matrix<F, S>{order, inner(p)});
  spmv_view<V, S, X> v;
  v.kernel = k.name;
  v.bytes = f->bytes();
  v.note = std::string("DBG renumbering, ") + k.inner;
  v.order = order;
  v.run = [f](const array<X, S>& x, array<X, S>& y) { spmv<plus_times<X>>(*f, x, y); };
  v.run_ordered = [f](const array<X, S>& x, array<X, S>& y) { spmv<plus_times<X>>(f->inner, x, y); };
  return v;
}

double share(offset_t part, offset_t whole) { return 100.0 * double(part) / double(std::max<offset_t>(1, whole)); }

// The CSR matrix c itself for a view to keep: the one it was given, or a copy.
template <class V, class S>
csr_matrix<V, S> kept(const csr_matrix<V, S>& c, csr_matrix<V, S>* owned) {
  return owned ? std::move(*owned) : clone_csr<S>(c);
}

// The build of every row of read_kernels() (read/kernel_table.hpp) from a CSR matrix c; `owned`:
// c itself, when the view may take it over (a snapshot), else null.
template <class X, class V, class S>
spmv_view<V, S, X> build(const csr_matrix<V, S>& c, csr_matrix<V, S>* owned, const read_kernel& k) {
  const offset_t nnz = c.nnz();
  switch (k.id) {
    case kernel_id::dcsr: return owning<X, V, S>(k, dcsr_matrix<V, S>::from_csr(c), "packed (one segment a row)");
    case kernel_id::csr_vector: return owning<X, V, S>(k, kept(c, owned), "sub-warp width from mu");
    case kernel_id::csr_scalar: {
      auto f = std::make_shared<csr_matrix<V, S>>(kept(c, owned));
      spmv_view<V, S, X> v;
      v.kernel = k.name, v.bytes = f->bytes(), v.note = "thread per row";
      v.run = [f](const array<X, S>& x, array<X, S>& y) { spmv_scalar<plus_times<X>>(*f, x, y); };
      return v;
    }
    case kernel_id::csr_adaptive: {
      auto f = to_csr_adaptive(c);
      const auto blocks = f.blocks;
      return owning<X, V, S>(k, std::move(f), fmt::format("{} row blocks", blocks));
    }
    case kernel_id::csr_merge: {
      auto f = owned ? to_csr_merge(std::move(*owned)) : to_csr_merge(c);
      std::string note = fmt::format("{} tiles of {}, {} carry runs", f.tiles, f.tile_items, f.runs.size());
      return owning<X, V, S>(k, std::move(f), std::move(note));
    }
    case kernel_id::cmrs:
    case kernel_id::cmrs_modified: {
      cmrs_options o;
      if (k.id == kernel_id::cmrs_modified) o.variant = cmrs_variant::modified;
      auto f = to_cmrs(c, o);
      std::string note = fmt::format("padding {:.1f}%", 100 * f.padding_ratio());
      return owning<X, V, S>(k, std::move(f), std::move(note));
    }
    case kernel_id::sell: {
      auto f = to_sell(c);
      std::string note = fmt::format("padding {:.1f}%", share(f.padded(), nnz) - 100.0);
      return owning<X, V, S>(k, std::move(f), std::move(note));
    }
    case kernel_id::hyb: {
      auto f = to_hyb(c);
      std::string note = fmt::format("K {}, tail {:.1f}% of nnz", f.ell_width, share(f.tail_nnz(), nnz));
      return owning<X, V, S>(k, std::move(f), std::move(note));
    }
    case kernel_id::suraa_dp:
    case kernel_id::suraa_once: {
      suraa_options o;
      o.dynamic_parallelism = k.id == kernel_id::suraa_dp;
      auto f = to_suraa(c, o);
      std::string note = fmt::format("{} segments, {} launches", f.segments.size(), f.launches.size());
      return owning<X, V, S>(k, std::move(f), std::move(note));
    }
    case kernel_id::adcsr: return owning<X, V, S>(k, to_adcsr(c), "bins 1, 2-3, 4-8, ...");
    case kernel_id::colsort: {
      auto f = to_colsort(c);
      std::string note = fmt::format("{} partitions of <= {} entries, {} long rows", f.parts.size(), f.entries_cap, f.runs.size());
      return owning<X, V, S>(k, std::move(f), std::move(note));
    }
    case kernel_id::dbg_merge:
      return renumbered<X>(k, c, owned, [](const csr_matrix<V, S>& p) { return to_csr_merge(p); });
    case kernel_id::dbg_vector: return renumbered<X>(k, c, owned, [](csr_matrix<V, S>& p) { return std::move(p); });
  }
  throw invalid_argument(std::string("make_view: no build for kernel ") + k.name);
}
}  // namespace

template <class X, class V, class S>
spmv_view<V, S, X> make_view(csr_matrix<V, S>&& c, const read_kernel& k) {
  return build<X>(c, &c, k);
}

template <class X, class V, class S>
spmv_view<V, S, X> make_view(const csr_matrix<V, S>& c, const read_kernel& k) {
  return build<X>(c, static_cast<csr_matrix<V, S>*>(nullptr), k);
}

template <class V, class S>
spmv_view<V, S> make_view(const dcsr_matrix<V, S>& A, const std::string& kernel) {
  const read_kernel& k = kernel_named(kernel);
  spmv_view<V, S> v;
  if (k.in_place || (k.in_place_sized && A.size_ordered())) {
    v.kernel = k.name;  // DCSR, or ADCSR of a store that holds its rows in bin order: read the store
    v.reads_store = true;
    const dcsr_matrix<V, S>* a = &A;
    if (k.in_place) {
      v.run = [a](const array<double, S>& x, array<double, S>& y) { spmv<plus_times<double>>(*a, x, y); };
      if (k.multi) v.run_k = [a](const array<double, S>& x, array<double, S>& y, int n) { spmv_k(*a, x, y, n); };
    } else v.run = [a](const array<double, S>& x, array<double, S>& y) { spmv_binned<plus_times<double>>(*a, x, y); };
  } else {
    v = make_view<double>(A.to_csr(), k);
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
    const bool valid = it->second.reads_store ? kernel_named(kernel).in_place || A.size_ordered() : it->second.version == A.version();
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
  template spmv_view<V, S, double> make_view<double>(csr_matrix<V, S>&&, const read_kernel&); \
  template class view_cache<V, S>;
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE
// `bench spmv` reads float and double matrices with vectors of their own type.
template spmv_view<float, device_space, float> make_view<float>(const csr_matrix<float, device_space>&, const read_kernel&);
template spmv_view<double, device_space, double> make_view<double>(const csr_matrix<double, device_space>&, const read_kernel&);

}  // namespace fg
