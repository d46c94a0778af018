// dcsr_pipeline: see storage/dcsr_pipeline.hpp. The queue's rules, each for a reason:
//  - A chain starts when the queue is empty: the host writes the store's allocator position, size
//    and rows to the device once, and every batch after reads and moves them there.
//  - Work the host must do between batches goes first, after a settle: building or growing the
//    edge set (it reads the store), and giving a mixed batch's undo log larger workspace slots
//    while another queued mixed batch's log lives in them.
//  - settle() reads the records in one copy and accounts the batches in order up to the first one
//    that wrote nothing (every later one skipped). A mixed batch whose insertion stalled after its
//    deletion was written is undone from its log (nothing ran after it). That batch then runs
//    synchronously, where the store grows or compacts as it needs, and the rest are queued again.
//  - A chain ends early when the buffer looks likely to run out before its end (see push()).
#include "storage/dcsr_pipeline.hpp"

#include <algorithm>
#include <exception>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "storage/detail/erase_steps.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

template <class V, class S>
dcsr_pipeline<V, S>::dcsr_pipeline(dcsr_matrix<V, S>& store, int depth) : A_(store) {
  FG_EXPECTS(depth >= 1, "dcsr_pipeline: depth must be >= 1");
  depth_ = std::size_t(depth);
  if constexpr (detail::kernels<S>::defers) {
    chain_ = array<detail::batch_chain, S>(1);
    records_ = array<detail::batch_record, S>(2 * depth_);
    host_records_.resize(2 * depth_);
  }
  queue_.reserve(depth_);
}

template <class V, class S>
dcsr_pipeline<V, S>::~dcsr_pipeline() {
  try {
    settle();
  } catch (...) {  // a failing batch and the ones after it are dropped: none was acknowledged
  }
}

template <class V, class S>
std::vector<batch_outcome> dcsr_pipeline<V, S>::outcomes() {
  std::vector<batch_outcome> out;
  out.swap(done_);
  return out;
}

template <class V, class S>
void dcsr_pipeline<V, S>::push(const coo_matrix<V, S>* ins, const coo_matrix<V, S>* del) {
  queued q{ins, del, nullptr};
  if constexpr (!detail::kernels<S>::defers) {
    replay(q, nullptr);
    return;
  } else {
    const std::size_t adds = ins != nullptr ? ins->nnz : 0;
    // A batch that stalls wastes the kernels of every batch queued after it (they run, skipped):
    // the chain ends before the buffer is likely to run out, judged by the room settled batches
    // took per edge, with a margin of 2 (the first batch of a chain may still stall: only it is lost).
    const double room = per_edge_ * double(queued_inserts_ + adds) * 2;
    if (queue_.size() >= depth_ || (adds > 0 && double(A_.alloc_ptr_) + room > double(A_.capacity()))) settle();
    if (adds > 0 && !A_.set_ready(queued_inserts_ + adds)) {
      settle();
      A_.prepare_set(adds);
    }
    if (adds > 0) A_.move_set_step();  // queued in order with the batches (stream-ordered frees)
    const bool logged = ins != nullptr && del != nullptr && del->nnz > 0;
    if (logged && logs_queued_ &&
        !detail::erase_log_fits<V>(A_.work_, std::max<std::size_t>(del->nnz, detail::erase_min_holes), del->nnz + 1))
      settle();
    if (queue_.empty()) {
      const detail::batch_chain start{A_.alloc_ptr_, A_.nnz_, A_.rows_, A_.cols_, 0};
      memory::copy_to_device(chain_.data(), &start, sizeof start);
    }
    launch(q);
    queue_.push_back(q);
    queued_inserts_ += adds;
    logs_queued_ = logs_queued_ || logged;
    if (q.failed) settle();  // throws it, after the batches before it
  }
}

// The batch's kernels, reading the chain. Its scratch is taken before its kernels, so a launch that
// throws queued nothing; but a mixed batch's deletion is queued before its insertion's scratch is
// taken, so that failure is kept (q.failed) for settle() to take the deletion back and rethrow.
template <class V, class S>
void dcsr_pipeline<V, S>::launch(queued& q) {
  dcsr_view<V> view = A_.view();
  view.rows = view.cols = A_.row_cap_;  // rows past rows_ are empty: the queued batches may add some
  detail::batch_record* rec = records_.data() + 2 * queue_.size();
  if (q.del != nullptr && q.del->nnz > 0) {
    detail::erase_request rq;
    rq.capacity = A_.capacity();
    rq.log = q.ins != nullptr;
    rq.chain = chain_.data();
    rq.record = rec;
    detail::kernels<S>::erase(view, *q.del, rq, A_.work_, A_.set_.view());
  }
  if (q.ins != nullptr && q.ins->nnz > 0) {
    // alpha < 0: the slack follows the chain's mean row, as slack() follows the store's
    detail::insert_request rq = A_.request(false, A_.cfg_.alpha >= 0 ? A_.cfg_.alpha : -1, A_.cfg_.row_growth);
    rq.chain = chain_.data();
    rq.record = rec + 1;
    try {
      detail::kernels<S>::insert(view, *q.ins, rq, A_.work_, A_.set_.view());
    } catch (...) {
      if (q.del == nullptr || q.del->nnz == 0) throw;
      q.failed = std::current_exception();
    }
  }
}

template <class V, class S>
void dcsr_pipeline<V, S>::settle() {
  if (queue_.empty()) return;
  std::vector<queued> queue;
  queue.swap(queue_);
  queued_inserts_ = 0;
  logs_queued_ = false;
  const std::size_t n = queue.size();
  std::size_t i = 0;
  if constexpr (detail::kernels<S>::defers) {
    memory::copy_to_host(host_records_.data(), records_.data(), 2 * n * sizeof(detail::batch_record));
    for (; i < n && account(queue[i], host_records_[2 * i], host_records_[2 * i + 1]); ++i) {
    }
  }
  if (i == n) return;
  // throws: it and the batches after it are dropped
  replay(queue[i], detail::kernels<S>::defers ? &host_records_[2 * i + 1] : nullptr);
  for (++i; i < n; ++i) {  // a new chain, from the grown store
    try {
      push(queue[i].ins, queue[i].del);
    } catch (...) {  // it could not be queued: the ones queued before it still go in, it and the rest not
      const std::exception_ptr failed = std::current_exception();
      settle();  // a failure of its own belongs to an earlier batch: that one is thrown
      std::rethrow_exception(failed);
    }
  }
  settle();
}

// A written batch's host half; false (and nothing accounted) when it wrote nothing. A mixed batch
// whose deletion went in but whose insertion did not is undone first.
template <class V, class S>
bool dcsr_pipeline<V, S>::account(const queued& q, const detail::batch_record& del, const detail::batch_record& ins) {
  const bool has_del = q.del != nullptr && q.del->nnz > 0, has_ins = q.ins != nullptr && q.ins->nnz > 0;
  detail::erase_status es;
  detail::insert_status is;
  if (has_del) {
    es = detail::erase_status_of(del);
    if (!es.written) return false;
  }
  if (has_ins) is = detail::insert_status_of(ins);
  if (q.failed || (has_ins && !is.written)) {
    if (has_del && es.removed > 0) {
      detail::kernels<S>::undo_erase(A_.view(), A_.work_, es);
      A_.set_ = {};  // rare: rebuilt by the next insertion rather than patched
    }
    if (q.failed) std::rethrow_exception(q.failed);  // queued last: nothing after it to drop
    return false;
  }
  if (has_del) {
    A_.shrunk(es);
    A_.erased(es, q.del->nnz);
  }
  if (has_ins) {
    A_.committed(is, q.ins->nnz);
    per_edge_ = 0.75 * per_edge_ + 0.25 * double(is.plan.total) / double(q.ins->nnz);
  } else {
    ++A_.stats_.batches;
  }
  done_.push_back({A_.stats_.batches, has_ins ? is.kept : 0, has_del ? es.removed : 0, false});
  return true;
}

// A plain insertion that stalled its chain starts from its record (why it found no room: the state
// it saw is the state it replays on), which saves the attempt the synchronous path would repeat.
template <class V, class S>
void dcsr_pipeline<V, S>::replay(const queued& q, const detail::batch_record* stalled) {
  const dcsr_stats before = A_.stats();
  if (q.ins != nullptr && q.del != nullptr) {
    A_.apply_batch(*q.ins, *q.del);
  } else if (q.ins != nullptr) {
    const detail::insert_status st = stalled != nullptr ? detail::insert_status_of(*stalled) : detail::insert_status{};
    A_.insert_impl(*q.ins, false, A_.slack(), A_.cfg_.row_growth, stalled != nullptr && q.ins->nnz > 0 ? &st : nullptr);
  } else {
    A_.delete_batch(*q.del);
  }
  const dcsr_stats& after = A_.stats();
  done_.push_back({after.batches, after.entries_inserted - before.entries_inserted,
                   after.entries_deleted - before.entries_deleted, detail::kernels<S>::defers});
}

#define FG_INSTANTIATE(V)                      \
  template class dcsr_pipeline<V, host_space>; \
  template class dcsr_pipeline<V, device_space>;
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg
