// The kernels the SpMV benchmark compares: each builds its format from a device CSR (timed as the
// conversion) and returns a runner y = A x (plus-times).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg::bench {

template <class V>
struct prepared {
  std::function<void(const array<V, device_space>&, array<V, device_space>&)> run;
  std::size_t bytes = 0;  ///< footprint of the built format
  std::string note;       ///< e.g. padding, chosen parameters
};

template <class V>
struct kernel_case {
  std::string name;
  std::function<prepared<V>(const csr_matrix<V, device_space>&)> build;
};

/// Every kernel of this build (cuSPARSE first in the CUDA build: it is the baseline).
template <class V>
std::vector<kernel_case<V>> spmv_kernels();

}  // namespace fg::bench
