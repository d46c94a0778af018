// Smoothed-aggregation algebraic multigrid (issue 21; the DCSR paper's §IV-E, Algorithm 5): the
// setup builds a hierarchy A_0 = A, A_{k+1} = R_k A_k P_k, with the Galerkin product computed by
// the engine's DCSR SpMM as A·P, then R·(AP); the V-cycle (weighted Jacobi smoothing, a dense
// Cholesky on the coarsest level) is a preconditioner for fg::cg. Strength, aggregation and the
// prolongator's combination run on the host (deterministic); the products and the cycle run in
// Space. Double precision.
#pragma once
#include <cstddef>
#include <vector>

#include "algorithms/cg.hpp"
#include "storage/csr.hpp"

namespace fg {

struct amg_options {
  /// theta: a_ij strong when |a_ij| >= theta sqrt(|a_ii a_jj|) (and != 0). 0.05 leaves out the Q1
  /// elements' corner couplings (1/32 of the diagonal): with them, aggregates of 27 nodes took PCG
  /// from 11 to 25 iterations between 8^3 and 48^3 cubes; without, 12 to 16 (algorithms/fem_poisson).
  /// Level k uses theta / 2^k (Vaněk et al.): coarse operators are denser, their entries smaller
  /// next to the diagonal, and a fixed theta let 3D Poisson's third level reach 177 entries a row.
  double strength = 0.05;
  int max_levels = 12;
  vertex_t coarse_size = 256;        ///< stop coarsening at or below this many rows
  double prolongator_omega = 4.0 / 3.0;  ///< P = (I - (w / rho) D^-1 A) T; rho: Gershgorin bound of D^-1 A
  double smoother_omega = 4.0 / 3.0;     ///< x += (w / rho) D^-1 (b - A x)
  int pre_smooth = 1, post_smooth = 1;
  /// The coarsest level is solved by a dense Cholesky when it has at most this many rows (a strength
  /// threshold that leaves every node alone stalls coarsening early), else by coarse_sweeps Jacobi sweeps.
  vertex_t dense_limit = 4096;
  int coarse_sweeps = 20;
};

struct amg_level_stats {
  vertex_t rows = 0, aggregates = 0;
  offset_t nnz = 0;
  double ap_seconds = 0, rap_seconds = 0;  ///< the Galerkin product's two SpMMs making the next level
};

struct amg_stats {
  std::vector<amg_level_stats> levels;
  double setup_seconds = 0;      ///< the whole setup, the device synchronised
  double galerkin_seconds = 0;   ///< of which in the Galerkin SpMMs
  double operator_complexity = 0;  ///< sum of the levels' nnz / nnz(A)
};

template <class Space>
class amg {
 public:
  /// @throws fg::invalid_argument for a non-square A or a coarsest level that is not SPD.
  explicit amg(const csr_matrix<double, Space>& A, const amg_options& opt = {});

  /// x = one V-cycle applied to b from x = 0 (an SPD approximation of A^-1).
  void vcycle(const array<double, Space>& b, array<double, Space>& x);
  /// The V-cycle as cg's preconditioner (refers to this object).
  linear_operator<double, Space> preconditioner();

  const amg_stats& stats() const noexcept { return stats_; }
  std::size_t levels() const noexcept { return levels_.size(); }
  const csr_matrix<double, Space>& A(std::size_t k) const { return levels_[k].A; }
  const csr_matrix<double, Space>& P(std::size_t k) const { return levels_[k].P; }  ///< empty on the coarsest
  const csr_matrix<double, Space>& R(std::size_t k) const { return levels_[k].R; }  ///< P(k)^T
  const std::vector<vertex_t>& aggregates(std::size_t k) const { return levels_[k].agg; }

 private:
  struct level {
    csr_matrix<double, Space> A, P, R;
    array<double, Space> dinv, b, x, q, r;  // b, x: this level's right side and solution (below the top)
    double w = 0;                           // smoother_omega / rho
    std::vector<vertex_t> agg;
  };
  void cycle(std::size_t k, const array<double, Space>& b, array<double, Space>& x);

  amg_options opt_;
  std::vector<level> levels_;
  std::vector<double> coarse_L_;  // dense Cholesky factor of the coarsest A (empty: Jacobi sweeps there)
  amg_stats stats_;
};

}  // namespace fg
