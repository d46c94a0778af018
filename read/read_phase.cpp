// read_phase (read/read_phase.hpp).
#include "read/read_phase.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "core/types.hpp"
#include "read/profile.hpp"

namespace fg {

template <class V, class S>
read_phase<V, S>::read_phase(std::string kernel) : forced_(std::move(kernel)) {
  const auto& k = selectable_kernels();
  if (forced_ != "auto" && std::find(k.begin(), k.end(), forced_) == k.end())
    throw invalid_argument("read_phase: unknown kernel '" + forced_ + "'");
  calibration_ = load_calibration(device_description());
}

template <class V, class S>
void read_phase<V, S>::spmv(const dcsr_matrix<V, S>& A, const array<double, S>& x, array<double, S>& y,
                            double expected_reads) {
  FG_EXPECTS(expected_reads >= 1, "read_phase: expected reads must be >= 1, got " + std::to_string(expected_reads));
  FG_EXPECTS(x.size() == std::size_t(A.cols()) && y.size() == std::size_t(A.rows()),
             "read_phase: x must have A.cols() and y A.rows() entries");
  // A new store, new content or a new expectation: choose again (one profile pass, the estimates
  // and a ranking). The same content read again, as the caller said it would be, costs nothing.
  if (store_ != &A) cache_ = view_cache<V, S>{};  // another store: none of the views is of it
  if (store_ != &A || version_ != A.version() || reads_ != expected_reads) {
    choice_ = select_kernel(profile(A), 8, expected_reads, *calibration_, forced_);
    store_ = &A;
    version_ = A.version();
    reads_ = expected_reads;
    ++decisions_;
  }
  cache_.get(A, choice_.kernel).run(x, y);
}

#define FG_INSTANTIATE(V, S) template class read_phase<V, S>;
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE

}  // namespace fg
