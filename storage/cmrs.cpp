// CMRS construction and SpMV entry points (storage/cmrs.hpp): option checks, allocation, then the
// twin of the matrix's memory space (storage/detail/cmrs_kernels.hpp).
#include "storage/cmrs.hpp"

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/cmrs_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

template <class V, class S>
cmrs_matrix<V, S> to_cmrs(const csr_matrix<V, S>& A, const cmrs_options& o) {
  const bool mod = o.variant == cmrs_variant::modified;
  FG_EXPECTS(o.height >= 0 && o.height <= cmrs_max_height,
             "cmrs_options.height must be in [1, 16], or 0 for the default");
  FG_EXPECTS(!mod || o.height == 0 || o.height == cmrs_modified_height,
             "cmrs_options.height: the modified CMRS variant (§6.7) has height 16");
  FG_EXPECTS(o.warps_per_block >= 1 && o.warps_per_block <= 32, "cmrs_options.warps_per_block must be in [1, 32]");
  FG_EXPECTS(A.rows >= 0 && A.cols >= 0, "to_cmrs: negative dimension");
  if (A.cols > cmrs_max_cols)
    throw invalid_argument("to_cmrs: " + std::to_string(A.cols) +
                           " columns, but CMRS keeps 28 bits of column index (cols < 2^28 = 268435456; "
                           "the top 4 bits hold the row in the strip): use CSR for this matrix");
  cmrs_matrix<V, S> m;
  m.rows = A.rows;
  m.cols = A.cols;
  m.height = mod ? cmrs_modified_height : o.height > 0 ? o.height : cmrs_default_height<V>();
  m.warps_per_block = o.warps_per_block;
  m.variant = o.variant;
  const offset_t strips = m.strips();
  if (strips == 0) {
    m.strip_ptr = to_space<S>(std::vector<offset_t>{0});
    return m;
  }
  m.strip_ptr = array<offset_t, S>(std::size_t(strips) + 1);
  using K = detail::cmrs_kernels<S>;
  const auto a = A.view();
  const offset_t total = K::strip_layout(a, m.height, mod, strips, m.strip_ptr.data());
  m.col = array<std::uint32_t, S>(std::size_t(total));
  m.val = array<stored_t<V>, S>(is_pattern_v<V> ? 0 : std::size_t(total));
  m.padded = total - A.nnz();
  if (total > 0) K::fill_strips(a, m.height, mod, strips, m.strip_ptr.data(), m.col.data(), m.val.data());
  return m;
}

template <class Sr, class V, class S>
void spmv(const cmrs_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.rows, A.cols);
  if (A.rows > 0) detail::cmrs_kernels<S>::template cmrs_spmv<Sr>(A.view(), x.data(), y.data());
}

#define FG_INSTANTIATE(V)                                                                           \
  template cmrs_matrix<V, host_space> to_cmrs(const csr_matrix<V, host_space>&, const cmrs_options&); \
  template cmrs_matrix<V, device_space> to_cmrs(const csr_matrix<V, device_space>&, const cmrs_options&);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

#define FG_SPMV_FORMAT cmrs_matrix
FG_FOR_EACH_SPMV(FG_SPMV_OF_FORMAT)
#undef FG_SPMV_FORMAT

}  // namespace fg
