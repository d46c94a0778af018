// Read-optimized views of a DCSR store for the SpMVs of a read-heavy phase (plus-times, double
// vectors: PageRank and the numeric fixed points), and a cache that reuses a view while the store's
// content is unchanged.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/array.hpp"
#include "read/kernel_table.hpp"
#include "storage/csr.hpp"
#include "storage/dcsr.hpp"
#include "storage/reorder.hpp"

namespace fg {

/// A kernel ready to read a matrix: y = A x over plus-times with vectors of X (double for the
/// engine's fixed points; `bench spmv` also reads with float).
template <class V, class Space, class X = double>
struct spmv_view {
  std::string kernel;
  std::function<void(const array<X, Space>&, array<X, Space>&)> run;  ///< y = A x
  std::size_t bytes = 0;    ///< footprint beyond the store (0 for "dcsr")
  bool reads_store = false; ///< reads the store itself ("dcsr"; "adcsr" of a size-ordered store)
  std::uint64_t version = 0;  ///< store content version it was built from
  std::string note;         ///< the format's shape in a few words (tiles, padding, blocks)
  /// Views of a renumbered copy (P A Pᵀ, storage/reorder.hpp: the dbg_* kernels): the order, and
  /// y' = (P A Pᵀ) x' with both vectors in it, for a reader that keeps its vectors in that order
  /// (`run` gathers x and scatters y around it). Null for every other view.
  std::shared_ptr<const vertex_order<Space>> order;
  std::function<void(const array<X, Space>&, array<X, Space>&)> run_ordered;
  /// y = A x with x stored as float and double sums (storage/csr_merge.hpp spmv_mixed): half the
  /// gather's bytes, for a reader whose tolerance allows x's rounding. Empty where the kernel has none
  /// (read_kernel::mixed).
  std::function<void(const array<float, Space>&, array<double, Space>&)> run_mixed;
  /// Y = A X for k vectors at once, row-major (storage/dcsr.hpp spmv_k): one read of A for the k
  /// vectors' gathers. Empty where the kernel has none (read_kernel::multi).
  std::function<void(const array<double, Space>&, array<double, Space>&, int)> run_k;
};

/// @brief Builds kernel `kernel` (a row of read_kernels()) over A. "dcsr" reads A itself, and so
///        does "adcsr" when A is size_ordered(), so A must outlive those views; every other view
///        owns its data (converted from a CSR snapshot; the dbg_* kernels from its renumbered copy).
/// @throws fg::invalid_argument for an unknown kernel
template <class V, class Space>
spmv_view<V, Space> make_view(const dcsr_matrix<V, Space>& A, const std::string& kernel);

/// @brief The same from a CSR matrix, which the view takes over (the snapshot kernels read it as
///        it is; "dcsr" packs it into a store of one segment a row), or, from a const one, copies
///        where it must keep it (`bench spmv` times each build from one CSR).
template <class X, class V, class Space>
spmv_view<V, Space, X> make_view(csr_matrix<V, Space>&& A, const read_kernel& kernel);
template <class X, class V, class Space>
spmv_view<V, Space, X> make_view(const csr_matrix<V, Space>& A, const read_kernel& kernel);

/// @brief Views built lazily and reused while the store's content version is unchanged. A batch
///        that writes entries invalidates every view built from a snapshot; the "dcsr" view reads
///        the store itself and stays valid; an "adcsr" view of the size-ordered store stays valid
///        while the store is size_ordered() (a batch, or a compaction in row order, ends that). (No format here can be patched in place cheaply:
///        they all re-sort or re-pad rows, so a touched view is rebuilt.)
template <class V, class Space>
class view_cache {
 public:
  const spmv_view<V, Space>& get(const dcsr_matrix<V, Space>& A, const std::string& kernel);
  std::size_t builds() const noexcept { return builds_; }
  std::size_t hits() const noexcept { return hits_; }
  std::size_t invalidations() const noexcept { return invalidations_; }
  std::size_t size() const noexcept { return views_.size(); }
  /// Bytes the views hold beyond the store.
  std::size_t bytes() const noexcept {
    std::size_t b = 0;
    for (const auto& [name, v] : views_) b += v.bytes;
    return b;
  }

 private:
  std::map<std::string, spmv_view<V, Space>> views_;
  std::size_t builds_ = 0, hits_ = 0, invalidations_ = 0;
};

}  // namespace fg
