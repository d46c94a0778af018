// SpGEMM baselines for the Galerkin product of bench/numerics/amg_setup (issue 21), C = A B on device CSR:
//  - spgemm_esc: the CSR/COO path the DCSR paper compares its SpMM with (Bell, Dalton & Olson's
//    expand-sort-compress, CUSP): every product expanded into one COO list, sorted by (row, col),
//    reduced, and turned into CSR;
//  - spgemm_cusparse (CUDA build): cuSPARSE's SpGEMM (cusparseSpGEMM_workEstimation/compute/copy).
#pragma once
#include "storage/csr.hpp"

namespace fg::bench {

/// C = A B by expand-sort-compress; rows of C sorted by column.
/// @throws fg::invalid_argument when A.cols != B.rows.
csr_matrix<double, device_space> spgemm_esc(const csr_matrix<double, device_space>& A, const csr_matrix<double, device_space>& B);

/// Whether this build has cuSPARSE (the CUDA build).
bool have_cusparse_spgemm();
/// C = A B by cuSPARSE; throws fg::error where there is no cuSPARSE.
csr_matrix<double, device_space> spgemm_cusparse(const csr_matrix<double, device_space>& A, const csr_matrix<double, device_space>& B);

}  // namespace fg::bench
