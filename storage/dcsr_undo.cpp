// Undoable batches (dcsr_matrix::apply_batch_undoable, undo_batch, keep_batch): one batch made
// atomic over several stores, for the distributed store (distributed/dist_graph), whose ranks each write
// their share and then all keep it or all take it back. Orchestration only; the kernels are the
// insertion's, the deletion's and its undo log's.
//
// Why truncation takes an insertion back: an insertion only appends. Each touched row's entries
// go after its existing ones (into its last segment's free space or new segments past its chain),
// and a compaction copies every row's entries in order before the batch is appended. So cutting
// every row back to its size before the batch (and the chain to its segment count then) restores
// the content exactly; the segments the batch took are given back by restoring the allocation
// pointer, and a row it moved whole (past k segments: relocate_full_rows) gets its chain back
// (the old chain is untouched below the pointer). When the insertion compacted, the store before
// it is kept instead (adopt()). A batch
// that deleted and inserted keeps a copy of the row table and the entries too: the deletion's undo
// log expects the released segments and row tails as the deletion left them, and the insertion
// writes there (a kernel that saves just those tails would make this O(entries removed)).
#include "core/error.hpp"
#include "core/array.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

template <class V, class S>
void dcsr_matrix<V, S>::apply_batch_undoable(const coo_matrix<V, S>& inserts, const coo_matrix<V, S>& deletes) {
  undo_.reset();
  auto u = std::make_unique<undo_record>();
  u->version = version_;
  u->stats = stats_;
  const detail::erase_status st = erase(deletes, true);  // may throw: nothing written, nothing kept
  u->erased = std::make_shared<const detail::erase_status>(st);
  // The state the insertion starts from (after the deletion): the rows' sizes and chains; with a
  // deletion before it, the whole row table (the insertion may write slots the log needs).
  const bool whole = st.removed > 0 && inserts.nnz > 0;
  const std::size_t n = std::size_t(whole ? row_cap_ : rows_);
  u->sizes = array<vertex_t, S>(n);
  u->nseg = array<std::uint8_t, S>(n);
  copy_prefix(u->sizes, sizes_, n);  // space-aware: host_space stores live in host memory in every build
  copy_prefix(u->nseg, nseg_, n);
  if (whole) u->seg = clone<S>(seg_), u->col = clone<S>(col_), u->val = clone<S>(val_);
  u->rows = rows_, u->cols = cols_, u->row_cap = row_cap_, u->pitch_rows = pitch_rows_, u->nnz = nnz_, u->alloc_ptr = alloc_ptr_;
  u->at_limit = at_limit_, u->max_nseg = max_nseg_;
  undo_ = std::move(u);
  try {
    insert_impl(inserts, false, slack(), cfg_.row_growth);
  } catch (...) {
    undo_->before.reset();  // a failed insertion adopted nothing
    const auto erased = undo_->erased;
    undo_.reset();
    if (erased->removed > 0) {  // as apply_batch: the insertion wrote nothing; the log is intact
      detail::kernels<S>::undo_erase(view(), work_, *erased);
      set_ = {};
      nnz_ += erased->removed;
      --version_;
    }
    throw;
  }
  erased(st, deletes.nnz);
  undo_->after_version = version_;
  undo_->after_batches = stats_.batches;
}

template <class V, class S>
void dcsr_matrix<V, S>::undo_batch() {
  FG_EXPECTS(undo_ != nullptr, "undo_batch: no batch of apply_batch_undoable is kept");
  FG_EXPECTS(undo_->after_version == version_ && undo_->after_batches == stats_.batches,
             "undo_batch: the store was written after the batch");
  std::unique_ptr<undo_record> u = std::move(undo_);
  if (u->before) {  // the insertion compacted: the store before it (after the deletion) comes back
    batch_workspace<S> w = std::move(work_);  // it holds the deletion's log
    *this = std::move(*u->before);
    work_ = std::move(w);
  } else if (!u->seg.empty()) {  // the row table as it was, whatever the insertion grew or wrote
    sizes_ = std::move(u->sizes), nseg_ = std::move(u->nseg), seg_ = std::move(u->seg);
    col_ = std::move(u->col), val_ = std::move(u->val);
    row_cap_ = u->row_cap, pitch_rows_ = u->pitch_rows, rows_ = u->rows, cols_ = u->cols, alloc_ptr_ = u->alloc_ptr;
    at_limit_ = u->at_limit, max_nseg_ = u->max_nseg;
  } else {
    copy_prefix(sizes_, u->sizes, u->sizes.size());
    copy_prefix(nseg_, u->nseg, u->nseg.size());
    if (rows_ > u->rows) {  // rows the batch added were empty: no entries, no chain
      zero_range(sizes_, std::size_t(u->rows), std::size_t(rows_ - u->rows));
      zero_range(nseg_, std::size_t(u->rows), std::size_t(rows_ - u->rows));
    }
    rows_ = u->rows, cols_ = u->cols, alloc_ptr_ = u->alloc_ptr;
    at_limit_ = u->at_limit, max_nseg_ = u->max_nseg;
    put_back(u->moved);  // rows the insertion moved: their chains (and the buffer) as before
  }
  nnz_ = u->nnz;
  if (u->erased->removed > 0) {
    detail::kernels<S>::undo_erase(view(), work_, *u->erased);
    nnz_ += u->erased->removed;
  }
  set_ = {};  // it holds the batch's pairs (or lost the deleted ones): rebuilt by the next insertion
  version_ = u->version;
  stats_ = u->stats;
}

#define FG_INSTANTIATE_IN(V, S)                                                                           \
  template void dcsr_matrix<V, S>::apply_batch_undoable(const coo_matrix<V, S>&, const coo_matrix<V, S>&); \
  template void dcsr_matrix<V, S>::undo_batch();
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE_IN
#undef FG_INSTANTIATE

}  // namespace fg
