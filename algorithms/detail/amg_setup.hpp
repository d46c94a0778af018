// Host steps of smoothed-aggregation AMG's setup (algorithms/amg.cpp; Vaněk, Mandel & Brezina
// 1996, as CUSP builds it and the DCSR paper's Algorithm 5 lists it): strength of connection,
// aggregation, the tentative prolongator, the smoothed prolongator's combination, the transpose,
// and the coarsest level's dense Cholesky. The Galerkin products themselves are the engine's SpMM.
#pragma once
#include <vector>

#include "storage/csr.hpp"

namespace fg::detail {

/// The strength graph: j is a strong neighbour of i (j != i) when a_ij != 0 and
/// |a_ij| >= theta sqrt(|a_ii a_jj|).
struct strength_graph {
  std::vector<offset_t> ptr{0};
  std::vector<vertex_t> col;
};
strength_graph strength(const csr_matrix<double, host_space>& A, double theta);

/// Each node's aggregate, in [0, count): Vaněk's three phases in node order (deterministic):
/// 1. a node whose strong neighbours are all free roots a new aggregate of itself and them;
/// 2. a free node joins the aggregate of its first aggregated strong neighbour;
/// 3. a node still free roots an aggregate with its free strong neighbours (an isolated node alone).
std::vector<vertex_t> aggregate(const strength_graph& C, vertex_t& count);

/// The tentative prolongator (rows x count): T(i, agg(i)) = B_i / ||B over agg(i)||; B_next gets
/// the norms (the coarse near-null-space vector).
csr_matrix<double, host_space> tentative(const std::vector<vertex_t>& agg, vertex_t count, const std::vector<double>& B,
                                         std::vector<double>& B_next);

/// P = T - w D^-1 (A T), from AT (rows sorted by column, as the SpMM makes them) and T.
csr_matrix<double, host_space> smoothed(const csr_matrix<double, host_space>& AT, const csr_matrix<double, host_space>& T,
                                        const std::vector<double>& dinv, double w);

/// The transpose (rows sorted by column).
csr_matrix<double, host_space> transposed(const csr_matrix<double, host_space>& A);

/// Dense Cholesky factor L (row-major n x n, lower) of an SPD CSR matrix, and the solve L L^T x = b.
/// @throws fg::invalid_argument when A is not positive definite.
std::vector<double> cholesky(const csr_matrix<double, host_space>& A);
void cholesky_solve(const std::vector<double>& L, std::vector<double>& x);

}  // namespace fg::detail
