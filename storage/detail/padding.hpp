// Helpers shared by the padded formats (SELL-C-sigma, HYB's ELL part), usable in host and device code.
#pragma once
#include "storage/coo.hpp"

namespace fg::detail {

/// dst[i] = 0 for a padded slot; compiles away for pattern (no value array). A function instead of
/// an `if constexpr` in the kernel, because nvcc's extended lambdas cannot first-capture inside one.
template <class V>
FG_HD inline void zero_value(stored_t<V>* dst, offset_t i) {
  if constexpr (!is_pattern_v<V>) dst[i] = stored_t<V>(0);
}

}  // namespace fg::detail
