// A user's read-heavy phase: repeated y = A x over a DCSR store that batches may change between
// reads. The engine decides how to read it (the store as it is, or a view built for the kernel the
// selector picks for the reads the caller expects before the next change), keeps the view while the
// store is unchanged, and rebuilds only what a batch made stale (view_cache). A phase follows one
// store: read with another, it drops its views. (PageRank runs its own phase: it also estimates the
// reads from its convergence and races close leaders; algorithms/pagerank.cpp.)
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "read/cost_model.hpp"
#include "read/views.hpp"

namespace fg {

template <class V, class Space>
class read_phase {
 public:
  /// @param kernel  "auto" (the selector, this device's calibration) or a kernel name to force
  explicit read_phase(std::string kernel = "auto");

  /// @brief y = A x (plus-times, double vectors). `expected_reads`: the SpMVs the caller expects
  ///        before A changes again, this one included (>= 1). The kernel is chosen again only when
  ///        A's content or the expectation changed; the view is built only when it is missing or stale.
  /// @throws fg::invalid_argument for a bad expectation, an unknown forced kernel, or x / y sizes
  ///         that do not match A
  void spmv(const dcsr_matrix<V, Space>& A, const array<double, Space>& x, array<double, Space>& y,
            double expected_reads);

  /// The latest choice with its reason and every kernel's estimate (empty before the first read).
  const selection& choice() const noexcept { return choice_; }
  const view_cache<V, Space>& views() const noexcept { return cache_; }
  std::size_t decisions() const noexcept { return decisions_; }

 private:
  std::string forced_;
  std::shared_ptr<const calibration> calibration_;
  view_cache<V, Space> cache_;
  selection choice_;
  std::uint64_t version_ = std::numeric_limits<std::uint64_t>::max();  // A's content when chosen
  const void* store_ = nullptr;                                          // ... and which store
  double reads_ = 0;
  std::size_t decisions_ = 0;
};

}  // namespace fg
