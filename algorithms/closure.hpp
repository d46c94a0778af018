// Transitive closure and multi-source reachability by semi-naive evaluation over DCSR SpMM:
//   Δ₀ = R;  Δₖ₊₁ = (Δₖ · R) \ R⁺  (or-and SpMM masked by the closure so far);  R⁺ ∪= Δₖ₊₁
// until Δ is empty. R⁺ is a DCSR store that each slice of Δₖ₊₁ is appended to as a sorted batch
// (no sort, no duplicate probe: the mask already made it new), so the work per iteration is the new
// pairs times R's degrees plus one read of R⁺'s active rows for the set difference.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/types.hpp"
#include "storage/spmm.hpp"

namespace fg {

struct closure_options {
  /// Workspace budget of each SpMM; when `spmm.timed` is set it also times the phase "insert".
  spmm_options spmm;
  /// R⁺'s membership bitmap for the set differences (device twin only; see closure.cpp): -1 when
  /// R⁺ has at least 32768 rows and the bitmap fits (the default), 0 never, 1 whenever it fits.
  int bitmap = -1;
  /// Called after every iteration with (iteration, pairs it added, pairs so far).
  std::function<void(int, offset_t, offset_t)> progress;
};

struct closure_stats {
  offset_t pairs = 0;     ///< distinct (x, y) with a path x -> ... -> y of length >= 1
  /// SpMMs (joins) run, the last of which found nothing new: Δ₀ = R, ..., Δₖ₋₁ non-empty, Δₖ empty
  /// gives k. This is the convention of the published table (GPUJoin: OL.cedge 64, TG.cedge 58).
  int iterations = 0;
  double seconds = 0;     ///< wall time of the iterations (R already built)
  /// High-water mark of memory::bytes_in_use() during the run, R included: device memory in the
  /// CUDA build, the fluxgraph allocator's host memory in the CPU build.
  std::size_t peak_bytes = 0;
  offset_t products = 0;  ///< partial products over all iterations
  std::int64_t slices = 0;
};

/// @brief R⁺ of a square pattern store R (row x lists x's successors).
/// @throws fg::out_of_memory (R⁺ or a single row's products do not fit); fg::invalid_argument.
template <class Space>
dcsr_matrix<pattern, Space> transitive_closure(const dcsr_matrix<pattern, Space>& R, const closure_options& opt = {},
                                               closure_stats* stats = nullptr);

/// @brief Row i: the vertices reachable from sources[i] by a path of length >= 1 (so a source is in
///        its own row only on a cycle) — the rows `sources` of R⁺, computed from those rows alone:
///        frontier x R, masked by what was reached.
template <class Space>
dcsr_matrix<pattern, Space> reachable(const dcsr_matrix<pattern, Space>& R, const std::vector<vertex_t>& sources,
                                      const closure_options& opt = {}, closure_stats* stats = nullptr);

/// @brief Incremental closure: brings `plus`, R⁺ of R before the edges `added` went in, up to R⁺ of
///        R (R holds `added` already and may have grown). Semi-naive from the batch, not from R:
///        Δ₀ = (R⁺·E ∪ E) \ R⁺, then Δ·R \ R⁺ until empty (see closure.cpp for why that is all).
///        The work is one pass over R⁺ plus the new pairs times their degrees in R; equal to
///        transitive_closure(R) as a set of pairs. Deletions cannot be undone this way: after one,
///        recompute. `added` may repeat edges or hold edges R⁺ already has. stats: iterations are
///        the rounds after Δ₀; pairs, time and peak memory as for transitive_closure.
/// @throws fg::out_of_memory (plus is then partly extended: recompute); fg::invalid_argument.
template <class Space>
void extend_closure(dcsr_matrix<pattern, Space>& plus, const dcsr_matrix<pattern, Space>& R,
                    const coo_matrix<pattern, Space>& added, const closure_options& opt = {},
                    closure_stats* stats = nullptr);

/// @brief The same for reachable(): `plus` holds the rows of `sources` (as reachable() returned
///        them for R before `added`); Δ₀ = (R⁺·E ∪ P·E) \ R⁺ with P(i, sources[i]) = 1.
template <class Space>
void extend_reachable(dcsr_matrix<pattern, Space>& plus, const dcsr_matrix<pattern, Space>& R,
                      const std::vector<vertex_t>& sources, const coo_matrix<pattern, Space>& added,
                      const closure_options& opt = {}, closure_stats* stats = nullptr);


}  // namespace fg
