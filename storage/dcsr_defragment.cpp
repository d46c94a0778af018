// DCSR defragmentation and conversion to CSR/COO (King et al. 2016, Algorithm 4): an exclusive scan
// of the row sizes gives every row its packed place; entries move there with no sort. In
// dcsr_layout::size_order the rows are placed bin by bin (§IV-B), and the store keeps the order.
#include <algorithm>

#include "core/error.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/adcsr_kernels.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

template <class V, class S>
dcsr_matrix<V, S> dcsr_matrix<V, S>::compacted(offset_t new_capacity, vertex_t row_capacity, dcsr_layout layout) const {
  using K = detail::kernels<S>;
  dcsr_matrix next(cfg_, row_capacity, std::max(new_capacity, nnz_), true, pitch_rows_);  // the room kept
  next.stats_ = stats_;
  next.rows_ = rows_;
  next.cols_ = cols_;
  next.nnz_ = next.alloc_ptr_ = nnz_;
  next.row_ordered_end_ = layout == dcsr_layout::row_order ? nnz_ : 0;
  next.max_nseg_ = 1;
  next.version_ = version_;  // same entries, new layout
  if (layout == dcsr_layout::size_order) {  // valid for these rows and this content (size_ordered())
    next.ordered_rows_ = rows_;
    next.ordered_version_ = version_;
  }
  if (rows_ == 0) return next;
  array<offset_t, S> row_ptr(std::size_t(rows_) + 1);
  K::scan_sizes(sizes_.data(), rows_, row_ptr.data(), nullptr);
  const vertex_t* order = nullptr;
  if (layout == dcsr_layout::size_order) {
    // The paper's §IV-B reordering: bin the rows by length (the ADCSR bins, a stable sort on the
    // label), then the same scan and gather over the rows in that order. Costs a sort of the row
    // ids and a second scan, nothing per entry.
    next.order_ = array<vertex_t, S>(std::size_t(rows_));
    detail::adcsr_kernels<S>::adcsr_bin_rows(row_ptr.data(), rows_, next.order_.data(), next.bin_ptr_.data());
    K::scan_sizes(sizes_.data(), rows_, row_ptr.data(), next.order_.data());
    next.order_ptr_ = std::move(row_ptr);
    order = next.order_.data();
  }
  const offset_t* ptr = order ? next.order_ptr_.data() : row_ptr.data();
  K::compact(view(), ptr, order, nnz_, next.col_.data(), is_pattern_v<V> ? nullptr : next.val_.data());
  copy_prefix(next.sizes_, sizes_, std::size_t(rows_));
  K::single_segments(next.sizes_.data(), next.nseg_.data(), next.seg_.data(), rows_, ptr, order, false);
  return next;
}

template <class V, class S>
void dcsr_matrix<V, S>::defragment() {
  defragment(cfg_.layout);
}

template <class V, class S>
void dcsr_matrix<V, S>::defragment(dcsr_layout layout) {
  if (layout == dcsr_layout::size_order) adopt(compacted(capacity(), row_cap_, layout));
  else pack();
  ++stats_.defrag_requested;
}

// Row order keeps the row table: only the entries move, into a fresh buffer (the one allocation,
// made before anything is written); sizes stay, and each row's first segment slot is rewritten to
// its packed range (later slots are dead once nseg is 1). compacted() would allocate, zero and fill
// a whole new table (k * 16 bytes a row): on small graphs that fixed cost was most of a defragment
// (Slashdot 0.10 ms, 6 SpMVs, for a packed store). The scan's output lives in the batch workspace.
//
// In place (packs_in_place(), the compact footprint): after a pack the rows lie in row order, and a
// stream that packs after its batches has only the segments added since above that prefix, so the
// pack needs scratch for those and not a second buffer: the peak falls from the store twice to the
// store and its tail, and is never above a second buffer's (the tail is at most every entry). A
// buffer with much room left is then shrunk in place where the memory allows it (config().shrink).
template <class V, class S>
void dcsr_matrix<V, S>::pack() {
  using K = detail::kernels<S>;
  const bool in_place = packs_in_place();
  const offset_t tail = in_place && nnz_ > 0 ? nnz_ - K::prefix_entries(view(), row_ordered_end_) : 0;
  const bool packed = in_place && tail == 0 && alloc_ptr_ == nnz_ && row_ordered_end_ == nnz_;
  const auto cap = std::size_t(in_place ? 0 : packed_capacity(nnz_));
  auto col = array<vertex_t, S>::growable(cap);
  auto val = array<stored_t<V>, S>::growable(is_pattern_v<V> ? 0 : cap);
  offset_t* row_ptr = work_.template get<offset_t>(0, std::size_t(rows_) + 1);
  if (rows_ > 0 && !packed) {
    K::scan_sizes(sizes_.data(), rows_, row_ptr, nullptr);
    if (in_place) K::pack_in_place(view(), row_ptr, row_ordered_end_, tail);
    else K::compact(view(), row_ptr, nullptr, nnz_, col.data(), is_pattern_v<V> ? nullptr : val.data());
    K::single_segments(sizes_.data(), nseg_.data(), seg_.data(), rows_, row_ptr, nullptr, false);
  }
  if (!in_place) {
    col_ = std::move(col);
    val_ = std::move(val);
  }
  alloc_ptr_ = row_ordered_end_ = nnz_;
  max_nseg_ = 1;
  at_limit_ = false;
  ordered_rows_ = -1;
  order_ = {};
  order_ptr_ = {};
  if (!in_place) return;
  const auto was = std::size_t(capacity()), fit = std::size_t(packed_capacity(nnz_));
  if (fit < was && col_.resize_in_place(fit) && !is_pattern_v<V> && !val_.resize_in_place(fit)) col_.resize_in_place(was);
  ++stats_.compactions_in_place;
}

template <class V, class S>
csr_matrix<V, S> dcsr_matrix<V, S>::to_csr() const {
  return to_csr(0, rows_);
}

template <class V, class S>
csr_matrix<V, S> dcsr_matrix<V, S>::to_csr(vertex_t first, vertex_t last) const {
  FG_EXPECTS(0 <= first && first <= last && last <= rows_, "dcsr to_csr: rows out of range");
  using K = detail::kernels<S>;
  dcsr_view<V> part = view();  // rows [first, last) as rows [0, n): the row table's pointers moved on
  part.rows = last - first;
  part.sizes += first, part.nseg += first, part.seg += 2 * offset_t(first);
  part.dense = -1;
  const bool whole = first == 0 && last == rows_;
  csr_matrix<V, S> c;
  c.rows = part.rows;
  c.cols = cols_;
  c.row_ptr = array<offset_t, S>(std::size_t(part.rows) + 1);
  K::scan_sizes(part.sizes, part.rows, c.row_ptr.data(), nullptr);
  const offset_t nnz = whole ? nnz_ : read_one<S>(c.row_ptr.data() + part.rows);
  c.col = array<vertex_t, S>(std::size_t(nnz));
  c.val = array<stored_t<V>, S>(is_pattern_v<V> ? 0 : std::size_t(nnz));
  if (part.rows == 0) return c;
  // A packed store in row order is CSR already: a copy at full bandwidth instead of the gather
  // (rmat-24: 2.4 ms, half of a PageRank's csr_merge view, in a CUPTI trace on the H100).
  if (whole && K::rows_in_place(view(), c.row_ptr.data())) {
    copy_prefix(c.col, col_, std::size_t(nnz));
    if constexpr (!is_pattern_v<V>) copy_prefix(c.val, val_, std::size_t(nnz));
  } else if (nnz > 0) {
    K::compact(part, c.row_ptr.data(), nullptr, nnz, c.col.data(), is_pattern_v<V> ? nullptr : c.val.data());
  }
  return c;
}

template <class V, class S>
coo_matrix<V, S> dcsr_matrix<V, S>::to_coo() const {
  csr_matrix<V, S> c = to_csr();
  coo_matrix<V, S> o;
  o.nnz = std::size_t(c.nnz());
  o.row = array<vertex_t, S>(o.nnz);
  if (rows_ > 0) detail::kernels<S>::expand_rows(c.row_ptr.data(), rows_, o.row.data());
  o.col = std::move(c.col);
  o.val = std::move(c.val);
  return o;
}

#define FG_INSTANTIATE_IN(V, S)                                                              \
  template dcsr_matrix<V, S> dcsr_matrix<V, S>::compacted(offset_t, vertex_t, dcsr_layout) const; \
  template void dcsr_matrix<V, S>::defragment();                                              \
  template void dcsr_matrix<V, S>::defragment(dcsr_layout);                                   \
  template void dcsr_matrix<V, S>::pack();                                                    \
  template csr_matrix<V, S> dcsr_matrix<V, S>::to_csr() const;                                \
  template csr_matrix<V, S> dcsr_matrix<V, S>::to_csr(vertex_t, vertex_t) const;              \
  template coo_matrix<V, S> dcsr_matrix<V, S>::to_coo() const;
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE_IN
#undef FG_INSTANTIATE

}  // namespace fg
