// DCSR construction, row-table growth and views. The kernels are in reference/ and device/.
#include "storage/dcsr.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

namespace {
void check_config(const dcsr_config& c) {
  FG_EXPECTS(c.max_segments >= 2 && c.max_segments <= 255,
             "dcsr_config.max_segments must be in [2, 255]");
  FG_EXPECTS(c.initial_segment >= 0, "dcsr_config.initial_segment must be >= 0");
  FG_EXPECTS(c.reserve >= 0, "dcsr_config.reserve must be >= 0");
  FG_EXPECTS(c.row_growth >= 0 && c.row_growth <= 16, "dcsr_config.row_growth must be in [0, 16]");
  FG_EXPECTS(c.growth > 1.0 && std::isfinite(c.growth), "dcsr_config.growth must be > 1");
}
}  // namespace

template <class V, class S>
dcsr_matrix<V, S>::dcsr_matrix(const dcsr_config& cfg) : dcsr_matrix(cfg, 0, std::max<offset_t>(0, cfg.reserve)) {}

template <class V, class S>
dcsr_matrix<V, S>::dcsr_matrix(const dcsr_config& cfg, vertex_t row_capacity, offset_t capacity)
    : cfg_(cfg),
      row_cap_(row_capacity),
      sizes_(row_capacity),
      nseg_(row_capacity),
      seg_(std::size_t(cfg.max_segments) * 2 * std::size_t(row_capacity)),
      col_(capacity),
      val_(is_pattern_v<V> ? 0 : capacity) {
  check_config(cfg);
  fill_zero(sizes_);
  fill_zero(nseg_);
}

template <class V, class S>
bool dcsr_matrix<V, S>::collapses_duplicates() const noexcept {
  return cfg_.dups == duplicates::collapse || (cfg_.dups == duplicates::automatic && is_pattern_v<V>);
}

template <class V, class S>
dcsr_view<V> dcsr_matrix<V, S>::view() const noexcept {
  auto* self = const_cast<dcsr_matrix*>(this);  // views are shallow; const-ness is the caller's
  return {rows_, cols_, cfg_.max_segments, 2 * offset_t(row_cap_), self->sizes_.data(),
          self->nseg_.data(), self->seg_.data(), self->col_.data(),
          is_pattern_v<V> ? nullptr : self->val_.data(), rows_ > 0 ? double(nnz_) / rows_ : 0.0,
          max_nseg_ <= 1};
}

template <class V, class S>
std::size_t dcsr_matrix<V, S>::bytes() const noexcept {
  return sizes_.bytes() + nseg_.bytes() + seg_.bytes() + col_.bytes() + val_.bytes() + order_.bytes() + order_ptr_.bytes();
}

template <class V, class S>
offset_t dcsr_matrix<V, S>::slack() const noexcept {
  if (cfg_.alpha >= 0) return cfg_.alpha;
  return rows_ > 0 ? std::max<offset_t>(1, (nnz_ + rows_ - 1) / rows_) : 1;
}

template <class V, class S>
dcsr_matrix<V, S> dcsr_matrix<V, S>::blank(vertex_t rows, vertex_t cols, const dcsr_config& cfg) {
  FG_EXPECTS(rows >= 0 && cols >= 0, "dcsr_matrix::blank: negative dimension");
  if (cfg.square) rows = cols = std::max(rows, cols);  // a graph: rows == cols, each with its row
  offset_t mu = cfg.initial_segment;
  dcsr_matrix m(cfg, rows, std::max(offset_t(rows) * mu, cfg.reserve));
  m.rows_ = rows;
  m.cols_ = cols;
  m.alloc_ptr_ = offset_t(rows) * mu;
  m.max_nseg_ = mu > 0 ? 1 : 0;
  if (rows > 0) detail::kernels<S>::blank_segments(m.sizes_.data(), m.nseg_.data(), m.seg_.data(), rows, mu);
  return m;
}

template <class V, class S>
dcsr_matrix<V, S> dcsr_matrix<V, S>::from_coo(const coo_matrix<V, S>& coo, vertex_t rows, vertex_t cols,
                                              const dcsr_config& cfg) {
  dcsr_config packed = cfg;
  packed.alpha = 0;  // construction packs rows exactly; later batches get the configured slack
  packed.row_growth = 0;
  dcsr_matrix m(packed);
  m.resize(rows, cols);
  m.insert_batch(coo);
  m.cfg_ = cfg;
  m.stats_ = {};
  return m;
}

template <class V, class S>
dcsr_matrix<V, S> dcsr_matrix<V, S>::from_csr(const csr_matrix<V, S>& csr, const dcsr_config& cfg) {
  FG_EXPECTS(csr.row_ptr.size() == std::size_t(csr.rows) + 1, "from_csr: row_ptr must have rows + 1 entries");
  // A square store keeps rows == cols: rows past the CSR's are empty (no segment yet).
  const vertex_t rows = cfg.square ? std::max(csr.rows, csr.cols) : csr.rows;
  dcsr_matrix m(cfg, rows, csr.nnz());
  m.rows_ = rows;
  m.cols_ = cfg.square ? rows : csr.cols;
  m.nnz_ = m.alloc_ptr_ = csr.nnz();
  m.max_nseg_ = 1;
  copy(m.col_, csr.col);
  if constexpr (!is_pattern_v<V>) copy(m.val_, csr.val);
  if (csr.rows > 0)
    detail::kernels<S>::single_segments(m.sizes_.data(), m.nseg_.data(), m.seg_.data(), csr.rows,
                                        csr.row_ptr.data(), nullptr, true);
  return m;
}

template <class V, class S>
void dcsr_matrix<V, S>::resize(vertex_t rows, vertex_t cols) {
  FG_EXPECTS(rows >= 0 && cols >= 0, "dcsr_matrix::resize: negative dimension");
  if (cfg_.square) rows = cols = std::max({rows, cols, rows_});
  if (rows > row_cap_) grow_row_table(rows);
  rows_ = std::max(rows_, rows);
  cols_ = std::max(cols_, cols);
}

// New vertices: a larger row table, old rows copied segment slab by segment slab. Capacity only —
// rows_ is unchanged, so a caller that fails afterwards leaves the store logically as it was.
template <class V, class S>
void dcsr_matrix<V, S>::grow_row_table(vertex_t rows_needed) {
  double want = std::max<double>(rows_needed, std::ceil(row_cap_ * cfg_.growth));
  vertex_t cap = vertex_t(std::min<double>(want, 2147483647.0));
  array<vertex_t, S> sizes(cap);
  array<std::uint8_t, S> nseg(cap);
  array<offset_t, S> seg(std::size_t(cfg_.max_segments) * 2 * std::size_t(cap));
  fill_zero(sizes);
  fill_zero(nseg);
  copy_prefix(sizes, sizes_, row_cap_);
  copy_prefix(nseg, nseg_, row_cap_);
  for (int s = 0; s < cfg_.max_segments; ++s)
    copy_range(seg, std::size_t(s) * 2 * cap, seg_, std::size_t(s) * 2 * row_cap_, 2 * std::size_t(row_cap_));
  sizes_ = std::move(sizes);
  nseg_ = std::move(nseg);
  seg_ = std::move(seg);
  row_cap_ = cap;
  ++stats_.row_table_grows;
}

#define FG_INSTANTIATE(V)                    \
  template class dcsr_matrix<V, host_space>; \
  template class dcsr_matrix<V, device_space>;
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg
