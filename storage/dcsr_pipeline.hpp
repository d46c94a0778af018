// Deferred batches: a stream of inserts, deletes and mixed batches applied to a dcsr_matrix with no
// host read-back per batch. In the CUDA build each batch's kernels are queued behind the previous
// batch's and read what they need from device memory (the bump allocator's position, the store's
// size for the slack, whether the chain has stalled: detail::batch_chain); the host reads the
// batches' status records once, when it settles. A batch that needs the host (new rows past the
// row table, a row past k segments, a full buffer, a bad edge) stalls the chain: it and every later
// batch write nothing, and settle() runs them again one by one through the synchronous path, which
// grows or compacts the store first. So the store ends exactly as if every batch had been applied
// with insert_batch / delete_batch / apply_batch in order, with the same layout. Elsewhere (the
// reference twin, the OpenMP build) a batch is applied when it is queued.
#pragma once
#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

#include "core/array.hpp"
#include "storage/coo.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/batch_record.hpp"

namespace fg {

/// What one settled batch did.
struct batch_outcome {
  std::int64_t batch = 0;  ///< the store's batch number (stats().batches once it was counted)
  offset_t stored = 0;     ///< entries written (inserts less duplicates)
  offset_t removed = 0;    ///< entries deleted
  bool replayed = false;   ///< it stalled the chain and went through the synchronous path
};

/// @brief Queues batches for `store` (which must outlive the pipeline and must not be used
///        directly while batches are pending: store() settles and hands it out).
template <class V, class Space>
class dcsr_pipeline {
 public:
  /// @param depth  batches queued before the pipeline settles on its own (>= 1)
  explicit dcsr_pipeline(dcsr_matrix<V, Space>& store, int depth = 64);
  /// Settles; a batch that fails there is dropped with the ones after it (none was acknowledged).
  ~dcsr_pipeline();
  dcsr_pipeline(const dcsr_pipeline&) = delete;
  dcsr_pipeline& operator=(const dcsr_pipeline&) = delete;

  /// @brief Queue a batch (insert_batch / delete_batch / apply_batch semantics). The batches must
  ///        stay alive and unchanged until the next settle() (or store()) returns.
  /// @throws fg::out_of_memory (the batch is not queued), or what settle() throws when the
  ///         pipeline settles on its own first (a full queue, the edge set to grow, a buffer about to
  ///         run out): the batch is then not queued either
  void insert(const coo_matrix<V, Space>& batch) { push(&batch, nullptr); }
  void erase(const coo_matrix<V, Space>& batch) { push(nullptr, &batch); }
  void apply(const coo_matrix<V, Space>& inserts, const coo_matrix<V, Space>& deletes) { push(&inserts, &deletes); }

  /// @brief Wait for the device and account every queued batch in order (outcomes()).
  /// @throws what the synchronous call would for the first batch that fails (fg::batch_error naming
  ///         it, fg::out_of_memory); the batches before it are applied, it and the later ones are not
  ///         (the store is as after the last good one), and the queue is empty.
  void settle();
  std::size_t pending() const noexcept { return queue_.size(); }
  /// Outcomes of the batches settled since the last call, in order (moved out).
  std::vector<batch_outcome> outcomes();
  /// The store, settled.
  dcsr_matrix<V, Space>& store() {
    settle();
    return A_;
  }

 private:
  struct queued {
    const coo_matrix<V, Space>* ins;
    const coo_matrix<V, Space>* del;
    std::exception_ptr failed;  ///< its insertion could not be queued after its deletion was
  };
  void push(const coo_matrix<V, Space>* ins, const coo_matrix<V, Space>* del);
  void launch(queued& q);
  bool account(const queued& q, const detail::batch_record& del, const detail::batch_record& ins);
  void replay(const queued& q, const detail::batch_record* stalled);  // the synchronous path; records its outcome

  dcsr_matrix<V, Space>& A_;
  std::size_t depth_;
  std::vector<queued> queue_;
  std::vector<batch_outcome> done_;
  std::size_t queued_inserts_ = 0;  ///< edges the queued batches may add (the edge set's room)
  bool logs_queued_ = false;        ///< a queued mixed batch's undo log is in the workspace
  double per_edge_ = 1;             ///< buffer entries a settled insertion took per edge (moving average)
  array<detail::batch_chain, Space> chain_;
  array<detail::batch_record, Space> records_;  ///< two per queued batch: its deletion, its insertion
  std::vector<detail::batch_record> host_records_;
};

}  // namespace fg
