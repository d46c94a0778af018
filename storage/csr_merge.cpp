// Merge-path CSR orchestration: copy, tile coordinates, fix-up runs and carry scratch (kernels in the
// twins); SpMV dispatch.
#include "storage/csr_merge.hpp"

#include <type_traits>
#include <utility>

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/csr_merge_kernels.hpp"

namespace fg {

template <class V, class S>
csr_merge_matrix<V, S> to_csr_merge(csr_matrix<V, S>&& own) {
  using K = detail::csr_merge_kernels<S>;
  csr_merge_matrix<V, S> m;
  m.csr = std::move(own);
  const csr_matrix<V, S>& A = m.csr;
  m.tile_items = csr_merge_tile_items<V>;
  const offset_t items = offset_t(A.rows) + A.nnz();
  m.tiles = (items + m.tile_items - 1) / m.tile_items;
  if (m.tiles == 0) return m;  // empty matrix: nothing to merge, SpMV writes nothing
  FG_EXPECTS(m.tiles < (offset_t(1) << 31), "csr_merge: more tiles than one grid can launch");
  m.coords = array<merge_coord, S>(static_cast<std::size_t>(m.tiles + 1));
  K::tile_coords(m.csr.row_ptr.data(), A.rows, A.nnz(), m.tile_items, m.tiles, m.coords.data());
  // At most one run per tile; kept at its exact size, as it is part of the footprint.
  array<merge_run, S> runs(static_cast<std::size_t>(m.tiles));
  const offset_t n = K::runs(m.csr.row_ptr.data(), A.rows, m.coords.data(), m.tiles, runs.data());
  m.runs = array<merge_run, S>(static_cast<std::size_t>(n));
  copy_prefix(m.runs, runs, std::size_t(n));
  // Only the device kernel keeps per-tile carries (8 bytes: any semiring's value type) and reads the
  // 32-bit row ends.
  if constexpr (std::is_same_v<S, device_space>) {
    m.carry = array<std::uint64_t, S>(static_cast<std::size_t>(m.tiles));
    if (A.nnz() < (offset_t(1) << 31) && A.rows > 0) {
      m.row_end32 = array<std::uint32_t, S>(static_cast<std::size_t>(A.rows));
      K::narrow_row_ends(m.csr.row_ptr.data(), A.rows, m.row_end32.data());
    }
  }
  return m;
}

template <class V, class S>
csr_merge_matrix<V, S> to_csr_merge(const csr_matrix<V, S>& A) {
  return to_csr_merge(clone_csr<S>(A));
}

template <class Sr, class V, class S>
void spmv(const csr_merge_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  static_assert(sizeof(typename Sr::value_type) <= sizeof(std::uint64_t), "carry slots hold 8 bytes");
  detail::check_spmv_sizes(x.size(), y.size(), A.csr.rows, A.csr.cols);
  if (A.tiles > 0) detail::csr_merge_kernels<S>::template spmv<Sr>(A.view(), x.data(), y.data());
}

template <class V, class S>
void spmv_mixed(const csr_merge_matrix<V, S>& A, const array<float, S>& x, array<double, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.csr.rows, A.csr.cols);
  if (A.tiles > 0) detail::csr_merge_kernels<S>::template spmv<plus_times<double>>(A.view(), x.data(), y.data());
}
#define FG_MIXED(V, S) template void spmv_mixed(const csr_merge_matrix<V, S>&, const array<float, S>&, array<double, S>&);
FG_MIXED(pattern, host_space) FG_MIXED(pattern, device_space) FG_MIXED(double, host_space) FG_MIXED(double, device_space)
#undef FG_MIXED

#define FG_CONVERT(V)                                                                            \
  template csr_merge_matrix<V, host_space> to_csr_merge(const csr_matrix<V, host_space>&);       \
  template csr_merge_matrix<V, device_space> to_csr_merge(const csr_matrix<V, device_space>&);   \
  template csr_merge_matrix<V, host_space> to_csr_merge(csr_matrix<V, host_space>&&);            \
  template csr_merge_matrix<V, device_space> to_csr_merge(csr_matrix<V, device_space>&&);
FG_FOR_EACH_VALUE(FG_CONVERT)
#undef FG_CONVERT
#define FG_SPMV_FORMAT csr_merge_matrix
FG_FOR_EACH_SPMV(FG_SPMV_OF_FORMAT)
#undef FG_SPMV_FORMAT

}  // namespace fg
