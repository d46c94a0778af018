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
  FG_EXPECTS(c.build_slice >= 1, "dcsr_config.build_slice must be >= 1");
}
}  // namespace

template <class V, class S>
dcsr_matrix<V, S>::dcsr_matrix(const dcsr_config& cfg) : dcsr_matrix(cfg, 0, std::max<offset_t>(0, cfg.reserve)) {}

template <class V, class S>
dcsr_matrix<V, S>::dcsr_matrix(const dcsr_config& cfg, vertex_t row_capacity, offset_t capacity, bool zeroed,
                               vertex_t pitch_rows)
    : cfg_(cfg),
      row_cap_(row_capacity),
      sizes_(row_capacity),
      nseg_(row_capacity),
      seg_(std::size_t(cfg.max_segments) * 2 * std::size_t(std::max(pitch_rows, row_capacity))),
      pitch_rows_(std::max(pitch_rows, row_capacity)),
      col_(array<vertex_t, S>::growable(std::size_t(capacity))),
      val_(array<stored_t<V>, S>::growable(is_pattern_v<V> ? 0 : std::size_t(capacity))) {
  check_config(cfg);
  if (!zeroed) return;
  fill_zero(sizes_);
  fill_zero(nseg_);
  zero_range(seg_, 0, 2 * std::size_t(row_capacity));  // an empty row's first segment is read (first_piece)
}

template <class V, class S>
bool dcsr_matrix<V, S>::collapses_duplicates() const noexcept {
  return cfg_.dups == duplicates::collapse || (cfg_.dups == duplicates::automatic && is_pattern_v<V>);
}

template <class V, class S>
dcsr_view<V> dcsr_matrix<V, S>::view() const noexcept {
  auto* self = const_cast<dcsr_matrix*>(this);  // views are shallow; const-ness is the caller's
  return {rows_, cols_, cfg_.max_segments, 2 * offset_t(pitch_rows_), self->sizes_.data(),
          self->nseg_.data(), self->seg_.data(), self->col_.data(),
          is_pattern_v<V> ? nullptr : self->val_.data(), rows_ > 0 ? double(nnz_) / rows_ : 0.0,
          max_nseg_ <= 1, alloc_ptr_ == nnz_ ? nnz_ : -1};
}

template <class V, class S>
std::size_t dcsr_matrix<V, S>::bytes() const noexcept {
  return sizes_.bytes() + nseg_.bytes() + seg_.bytes() + col_.bytes() + val_.bytes() + order_.bytes() + order_ptr_.bytes();
}

template <class V, class S>
void dcsr_matrix<V, S>::account(fluxgraph::memory_report& r, const std::string& name) const {
  std::size_t undo = 0;  // an undoable batch's record until it is kept or undone (the distributed store's)
  if (undo_) {
    const relocation& m = undo_->moved;
    undo = undo_->sizes.bytes() + undo_->nseg.bytes() + undo_->seg.bytes() + undo_->col.bytes() + undo_->val.bytes() +
           m.rows.bytes() + m.pairs.bytes() + m.counts.bytes() + m.buffer.col.bytes() + m.buffer.val.bytes();
    if (undo_->before) {
      fluxgraph::memory_report whole;
      undo_->before->account(whole, name);
      undo += whole.total();
    }
  }
  r.parts.push_back({name + " rows", sizes_.bytes() + nseg_.bytes() + seg_.bytes() + order_.bytes() + order_ptr_.bytes()});
  r.parts.push_back({name + " entries", col_.bytes() + val_.bytes()});
  r.parts.push_back({name + " pair index", index_bytes()});
  r.parts.push_back({name + " batch workspace", work_.bytes() + undo});
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

namespace {
// First index of [lo, hi) whose row is >= r, in rows sorted ascending (host binary search, one
// element read per step: a slice boundary costs ~25 reads).
template <class S>
std::size_t first_row_at_least(const vertex_t* row, std::size_t lo, std::size_t hi, vertex_t r) {
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (read_many<S>(row + mid, 1)[0] < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
}  // namespace

template <class V, class S>
dcsr_matrix<V, S> dcsr_matrix<V, S>::from_coo(const coo_matrix<V, S>& coo, vertex_t rows, vertex_t cols,
                                              const dcsr_config& cfg) {
  dcsr_config packed = cfg;
  packed.alpha = 0;  // construction packs rows exactly; later batches get the configured slack
  packed.row_growth = 0;
  // A batch's scratch is sized by the batch (the CUDA insert's slots take ~100 B per entry), so a
  // graph of 5.4e8 entries built as one batch needed ~150 B per entry and did not fit an 80 GB H100
  // (docs/perf-journal.md, 2026-11-27, "rmat-24 fits"). Larger inputs are sorted once and inserted
  // in slices that end at row boundaries: every row is still written once, packed and in the same
  // place, and the repeats of a pair fall into one slice, so the result is that of one batch.
  const std::size_t build_slice = std::size_t(cfg.build_slice);
  const bool sliced = coo.nnz > build_slice;
  if (sliced) {
    // Bad edges are named by their index in coo, before the sort moves them.
    const detail::batch_summary sum = detail::kernels<S>::summarize(coo);
    if (sum.first_bad >= 0) throw batch_error(0, sum.first_bad, detail::batch_reason(sum.reason));
    packed.reserve = offset_t(coo.nnz);  // packed rows: the slices never outgrow it
    packed.index = edge_index::never;    // slices share no pair: nothing to look up
  }
  dcsr_matrix m(packed);
  m.resize(rows, cols);
  if (!sliced) {
    m.insert_batch(coo);
  } else {
    coo_matrix<V, S> sorted = clone_coo<S>(coo);
    detail::kernels<S>::sort_batch(sorted);
    for (std::size_t begin = 0; begin < sorted.nnz;) {
      std::size_t end = std::min(sorted.nnz, begin + build_slice);
      if (end < sorted.nnz) {  // back to the start of the row the slice would cut (or past it, if it is the only one)
        const vertex_t r = read_many<S>(sorted.row.data() + end, 1)[0];
        const std::size_t cut = first_row_at_least<S>(sorted.row.data(), begin, end, r);
        end = cut > begin ? cut : first_row_at_least<S>(sorted.row.data(), end, sorted.nnz, r + 1);
      }
      coo_matrix<V, S> slice(end - begin);
      copy_range(slice.row, 0, sorted.row, begin, end - begin);
      copy_range(slice.col, 0, sorted.col, begin, end - begin);
      if constexpr (!is_pattern_v<V>) copy_range(slice.val, 0, sorted.val, begin, end - begin);
      m.insert_batch(slice);
      begin = end;
    }
  }
  m.cfg_ = cfg;
  m.stats_ = {};
  m.work_ = {};  // scratch of the construction's size (~100 B per entry): later batches size their own
  return m;
}

template <class V, class S>
dcsr_matrix<V, S> dcsr_matrix<V, S>::from_csr(const csr_matrix<V, S>& csr, const dcsr_config& cfg) {
  return from_csr_arrays(csr.rows, csr.cols, csr.row_ptr, clone<S>(csr.col), clone<S>(csr.val), cfg);
}

template <class V, class S>
dcsr_matrix<V, S> dcsr_matrix<V, S>::from_csr(csr_matrix<V, S>&& csr, const dcsr_config& cfg) {
  return from_csr_arrays(csr.rows, csr.cols, csr.row_ptr, std::move(csr.col), std::move(csr.val), cfg);
}

template <class V, class S>
dcsr_matrix<V, S> dcsr_matrix<V, S>::from_csr_arrays(vertex_t csr_rows, vertex_t csr_cols, const array<offset_t, S>& row_ptr,
                                                     array<vertex_t, S>&& col, array<stored_t<V>, S>&& val,
                                                     const dcsr_config& cfg) {
  FG_EXPECTS(row_ptr.size() == std::size_t(csr_rows) + 1, "from_csr: row_ptr must have rows + 1 entries");
  const auto nnz = offset_t(col.size());
  return from_rows(csr_rows, csr_cols, row_ptr.data(), nullptr, std::move(col), std::move(val), nnz, cfg);
}

template <class V, class S>
dcsr_matrix<V, S> dcsr_matrix<V, S>::from_rows(vertex_t csr_rows, vertex_t csr_cols, const offset_t* start,
                                               const offset_t* fill, array<vertex_t, S>&& col,
                                               array<stored_t<V>, S>&& val, offset_t nnz, const dcsr_config& cfg) {
  // A square store keeps rows == cols: rows past the given ones are empty (no segment yet).
  const vertex_t rows = cfg.square ? std::max(csr_rows, csr_cols) : csr_rows;
  dcsr_matrix m(cfg, rows, 0, /*zeroed=*/rows > csr_rows);  // single_segments writes every given row
  m.rows_ = rows;
  m.cols_ = cfg.square ? rows : csr_cols;
  m.nnz_ = nnz;
  m.alloc_ptr_ = offset_t(col.size());
  m.max_nseg_ = 1;
  m.col_ = std::move(col);
  if constexpr (!is_pattern_v<V>) m.val_ = std::move(val);
  if (csr_rows > 0)
    detail::kernels<S>::single_segments(m.sizes_.data(), m.nseg_.data(), m.seg_.data(), csr_rows, start, nullptr,
                                        true, fill);
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

// New vertices: a larger row table. Capacity only — rows_ is unchanged, so a caller that fails
// afterwards leaves the store logically as it was. The segment table's slabs are copied only when
// it has no room (pitch_rows_): at 16 M rows a copy of its 2 GB into fresh memory stalled a stream
// for 5 s on the 2-core machine (docs/durability.md, "Pauses"). Every allocation comes first.
template <class V, class S>
void dcsr_matrix<V, S>::grow_row_table(vertex_t rows_needed) {
  double want = std::max<double>(rows_needed, std::ceil(row_cap_ * cfg_.growth));
  vertex_t cap = vertex_t(std::min<double>(want, 2147483647.0));
  // Room is kept once a slab passes 16 MB (a mapped block, whose untouched pages cost nothing;
  // smaller tables copy in a few ms); device memory is real memory: no room there.
#if defined(FG_WITH_CUDA)
  const double reserve = 1;
#else
  const double reserve = double(cap) * 16 > double(std::size_t(16) << 20) ? 4 : 1;
#endif
  const vertex_t pitch = cap <= pitch_rows_ ? pitch_rows_ : vertex_t(std::min<double>(reserve * cap, 2147483647.0));
  array<vertex_t, S> sizes(cap);
  array<std::uint8_t, S> nseg(cap);
  array<offset_t, S> seg;
  if (pitch != pitch_rows_) seg = array<offset_t, S>(std::size_t(cfg_.max_segments) * 2 * std::size_t(pitch));
  zero_range(sizes, std::size_t(row_cap_), std::size_t(cap - row_cap_));
  zero_range(nseg, std::size_t(row_cap_), std::size_t(cap - row_cap_));
  copy_prefix(sizes, sizes_, row_cap_);
  copy_prefix(nseg, nseg_, row_cap_);
  if (pitch != pitch_rows_) {
    for (int s = 0; s < cfg_.max_segments; ++s)
      copy_range(seg, std::size_t(s) * 2 * pitch, seg_, std::size_t(s) * 2 * pitch_rows_, 2 * std::size_t(row_cap_));
    seg_ = std::move(seg);
    pitch_rows_ = pitch;
  }
  zero_range(seg_, 2 * std::size_t(row_cap_), 2 * std::size_t(cap - row_cap_));  // the new rows' first segments
  sizes_ = std::move(sizes);
  nseg_ = std::move(nseg);
  row_cap_ = cap;
  ++stats_.row_table_grows;
}

#define FG_INSTANTIATE(V)                    \
  template class dcsr_matrix<V, host_space>; \
  template class dcsr_matrix<V, device_space>;
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg
