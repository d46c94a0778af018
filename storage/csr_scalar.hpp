// CSR-scalar SpMV (Bell & Garland 2009, §4.3 "CSR scalar kernel"): one thread per row, no conversion.
// The textbook baseline the load-balanced formats (SURAA, ADCSR) are measured against: a warp's
// threads walk rows of different lengths, so one long row stalls its warp and loads do not coalesce.
#pragma once
#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg {

/// @brief y = A (+).(x) x over semiring S on CSR, one thread per row.
template <class S, class V, class Space>
void spmv_scalar(const csr_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
                 array<typename S::value_type, Space>& y);

}  // namespace fg
