// HYB construction and SpMV entry points: the K rule's threshold, argument checks and allocation,
// the tail's segments and row blocks, then the twin of the matrix's memory space
// (storage/detail/hyb_kernels.hpp).
#include "storage/hyb.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/csr_adaptive_kernels.hpp"
#include "storage/detail/hyb_kernels.hpp"
#include "storage/detail/kernels.hpp"  // FG_FOR_EACH_VALUE, FG_FOR_EACH_SPMV

namespace fg {

namespace {
void check(const hyb_options& o) {
  FG_EXPECTS(o.relative_speed >= 1, "hyb_options.relative_speed must be >= 1");
  FG_EXPECTS(o.breakeven_rows >= 0, "hyb_options.breakeven_rows must be >= 0");
}

// Alignment of the ELL columns: a multiple of 32 rows, so every column starts on a 128-byte
// boundary for 4-byte columns (CUSP aligns its ELL pitch the same way).
constexpr offset_t ell_alignment = 32;

static_assert(hyb_tail_block_nnz >= 32 && hyb_tail_block_nnz <= csr_adaptive_max_block_nnz,
              "the tail kernel stages a row block (< 2 x hyb_tail_block_nnz products) in shared memory");

/// The tail's segmented reduction, fixed once: its distinct rows and their offsets (a row_ptr over
/// the tail rows), then CSR-Adaptive's row-block cut of that row_ptr (the same rule in both twins).
template <class V, class S>
void build_tail_segments(hyb_matrix<V, S>& m, const array<offset_t, S>& tail_ptr) {
  if (m.tail_rows == 0) return;
  const std::size_t tr = std::size_t(m.tail_rows);
  m.tail_row_key = array<vertex_t, S>(tr);
  m.tail_row_ptr = array<offset_t, S>(tr + 1);
  detail::hyb_kernels<S>::hyb_tail_rows(tail_ptr.data(), m.rows, m.tail_nnz(), m.tail_rows, m.tail_row_key.data(),
                                        m.tail_row_ptr.data());
  array<vertex_t, S> b(tr + 1);
  const offset_t count = detail::csr_adaptive_kernels<S>::row_blocks(m.tail_row_ptr.data(), m.tail_rows,
                                                                     hyb_tail_block_nnz, b.data());
  m.tail_block_count = count - 1;
  m.tail_blocks = array<vertex_t, S>(std::size_t(count));
  copy_prefix(m.tail_blocks, b, std::size_t(count));
}
}  // namespace

template <class V, class S>
vertex_t hyb_auto_width(const csr_matrix<V, S>& A, const hyb_options& opts) {
  check(opts);
  if (A.rows == 0) return 0;
  // At least max(breakeven, ceil(rows / relative_speed)) rows must fill the K-th column.
  const offset_t third = (offset_t(A.rows) + opts.relative_speed - 1) / opts.relative_speed;
  const offset_t min_rows = std::max<offset_t>({offset_t(opts.breakeven_rows), third, 1});
  return detail::hyb_kernels<S>::hyb_width(A.row_ptr.data(), A.rows, min_rows);
}

template <class V, class S>
hyb_matrix<V, S> to_hyb(const csr_matrix<V, S>& A, const hyb_options& opts) {
  check(opts);
  FG_EXPECTS(A.rows >= 0 && A.cols >= 0, "to_hyb: negative dimension");
  using K = detail::hyb_kernels<S>;
  hyb_matrix<V, S> m;
  m.rows = A.rows;
  m.cols = A.cols;
  m.nnz_stored = A.nnz();
  if (A.rows == 0) return m;
  m.ell_width = opts.ell_width >= 0 ? opts.ell_width : hyb_auto_width(A, opts);
  m.pitch = (offset_t(A.rows) + ell_alignment - 1) / ell_alignment * ell_alignment;
  array<offset_t, S> tail_ptr(std::size_t(A.rows) + 1);
  const detail::hyb_tail_size tail = K::hyb_tail_offsets(A.row_ptr.data(), A.rows, m.ell_width, tail_ptr.data());
  const std::size_t slots = std::size_t(m.pitch) * std::size_t(m.ell_width);
  m.tail_rows = tail.rows;
  m.ell_col = array<vertex_t, S>(slots);
  m.ell_val = array<stored_t<V>, S>(is_pattern_v<V> ? 0 : slots);
  m.tail_row = array<vertex_t, S>(std::size_t(tail.nnz));
  m.tail_col = array<vertex_t, S>(std::size_t(tail.nnz));
  m.tail_val = array<stored_t<V>, S>(is_pattern_v<V> ? 0 : std::size_t(tail.nnz));
  K::template hyb_fill<V>(A.view(), m.ell_width, m.pitch, tail_ptr.data(), tail.nnz, m.ell_col.data(),
                          m.ell_val.data(), m.tail_row.data(), m.tail_col.data(), m.tail_val.data());
  build_tail_segments(m, tail_ptr);
  return m;
}

template <class Sr, class V, class S>
void spmv(const hyb_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.rows, A.cols);
  if (A.rows == 0) return;
  const auto v = A.view();
  detail::hyb_kernels<S>::template hyb_ell_spmv<Sr>(v, x.data(), y.data());
  // Ordered after the ELL part (same stream in the CUDA build); allocates nothing, does not wait.
  if (A.tail_rows > 0) detail::hyb_kernels<S>::template hyb_tail_spmv<Sr>(v, x.data(), y.data());
}

#define FG_INSTANTIATE_IN(V, S)                                                                    \
  template vertex_t hyb_auto_width<V, S>(const csr_matrix<V, S>&, const hyb_options&);             \
  template hyb_matrix<V, S> to_hyb<V, S>(const csr_matrix<V, S>&, const hyb_options&);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

#define FG_SPMV_FORMAT hyb_matrix
FG_FOR_EACH_SPMV(FG_SPMV_OF_FORMAT)
#undef FG_SPMV_FORMAT

}  // namespace fg
