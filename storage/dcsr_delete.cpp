// DCSR batch deletion and mixed batches, orchestrated once for both twins. Not in King et al. 2016,
// which only inserts; deletion keeps its rules: deterministic layout (the twins stay bit-identical),
// every allocation before the first write, SpMV on the store at any moment.
//
// kernels<S>::erase does the whole deletion (check the keys -> sort -> drop repeats -> locate each
// key's entries in its row -> fill the holes of each row's surviving prefix with the survivors of
// its tail -> sizes and trimmed chains; storage/detail/erase_steps.hpp) and reports what it removed,
// or the bad key that stopped it before any write. The host reads that one status. A mixed batch
// asks it for an undo log (the holes it filled and what was there, the rows' old sizes and segment
// counts: O(entries removed + touched rows)), which puts the store back if the insertion fails.
#include "core/error.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

template <class V, class S>
detail::erase_status dcsr_matrix<V, S>::erase(const coo_matrix<V, S>& batch, bool log) {
  detail::erase_status st;
  if (batch.nnz == 0) return st;
  detail::erase_request rq;
  rq.capacity = capacity();
  rq.log = log;
  st = detail::kernels<S>::erase(view(), batch, rq, work_, set_.view());
  if (st.first_bad >= 0)  // nothing written
    throw batch_error(stats_.batches, st.first_bad, std::string("deletion: ") + detail::batch_reason(st.reason));
  shrunk(st);
  return st;
}

template <class V, class S>
void dcsr_matrix<V, S>::shrunk(const detail::erase_status& st) {
  nnz_ -= st.removed;
  if (st.removed > 0) ++version_;
  // at_limit_ and max_nseg_ stay: they are upper bounds, and recomputing them would cost a pass
  // over every row; the next compaction resets both. An active set lost the matched pairs
  // (tombstones: its count of used slots stays).
}

template <class V, class S>
void dcsr_matrix<V, S>::erased(const detail::erase_status& st, std::size_t received) {
  stats_.entries_deleted += st.removed;
  stats_.deletes_absent += offset_t(received) - st.matched;
}

template <class V, class S>
void dcsr_matrix<V, S>::delete_batch(const coo_matrix<V, S>& batch) {
  const detail::erase_status st = erase(batch, false);  // may throw: *this untouched
  ++stats_.batches;
  erased(st, batch.nnz);
}

template <class V, class S>
void dcsr_matrix<V, S>::apply_batch(const coo_matrix<V, S>& inserts, const coo_matrix<V, S>& deletes) {
  const detail::erase_status st = erase(deletes, true);
  // The deletion's undo log names positions: the insertion must not pack in place under it (a
  // failure after a pack would undo into moved entries).
  erase_logged_ = st.removed > 0;
  try {
    insert_batch(inserts);  // counts the batch; on failure it has left the store as the deletion did
    erase_logged_ = false;
  } catch (...) {
    erase_logged_ = false;
    if (st.removed > 0) {
      // A failed insertion wrote nothing and left the log's workspace slots alone; the released
      // segments' table slots are intact (only a committed batch writes them).
      detail::kernels<S>::undo_erase(view(), work_, st);
      set_ = {};  // rare: rebuilt by the next insertion rather than patched
      nnz_ += st.removed;
      --version_;
    }
    throw;
  }
  erased(st, deletes.nnz);
}

#define FG_INSTANTIATE_IN(V, S)                                                              \
  template void dcsr_matrix<V, S>::delete_batch(const coo_matrix<V, S>&);                    \
  template void dcsr_matrix<V, S>::apply_batch(const coo_matrix<V, S>&, const coo_matrix<V, S>&); \
  template void dcsr_matrix<V, S>::shrunk(const detail::erase_status&);                        \
  template detail::erase_status dcsr_matrix<V, S>::erase(const coo_matrix<V, S>&, bool);       \
  template void dcsr_matrix<V, S>::erased(const detail::erase_status&, std::size_t);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE_IN
#undef FG_INSTANTIATE

}  // namespace fg
