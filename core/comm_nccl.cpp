// The NCCL transport (core/comm.hpp): bulk data between GPUs, one GPU per rank, device buffers
// straight into ncclSend / ncclRecv (grouped: an all-to-all-v or an all-gather-v is one group of
// point-to-point calls). MPI bootstraps it (rank 0's ncclUniqueId, broadcast) and carries the small
// host values (counts, sums, votes). Operations run on the legacy default stream, which orders them
// with every kernel fluxgraph launches; the call waits for them (callers read results at once). The
// one exception, alltoallv_start, runs on a stream of its own so that kernels overlap it.
// Built in the CUDA build when NCCL and MPI are found (FG_NCCL=auto).
#if defined(FG_WITH_NCCL) && defined(FG_WITH_MPI)
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <memory>
#include <string>
#include <vector>

#include "core/comm.hpp"
#include "core/cuda_check.hpp"
#include "core/error.hpp"

namespace fg {

std::unique_ptr<communicator> make_mpi_communicator();  // core/comm_mpi.cpp

namespace {
void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw error(std::string("NCCL: ") + what + ": " + ncclGetErrorString(r));
}

class nccl_communicator final : public communicator {
 public:
  explicit nccl_communicator(std::unique_ptr<communicator> mpi) : mpi_(std::move(mpi)) {
    rank_ = mpi_->rank();
    size_ = mpi_->size();
    ncclUniqueId id{};
    if (rank_ == 0) check(ncclGetUniqueId(&id), "get unique id");
    mpi_->broadcast(&id, sizeof id, 0);
    check(ncclCommInitRank(&comm_, size_, id, rank_), "comm init");
  }
  ~nccl_communicator() override {
    if (stream_) {  // no throw from a destructor: errors here are ignored
      cudaStreamSynchronize(stream_);
      cudaEventDestroy(queued_), cudaEventDestroy(arrived_), cudaStreamDestroy(stream_);
    }
    ncclCommDestroy(comm_);
  }
  const char* transport() const noexcept override { return "nccl"; }
  void allreduce(std::int64_t* v, int n, comm_op op) override { control([&] { mpi_->allreduce(v, n, op); }); }
  void allreduce(double* v, int n, comm_op op) override { control([&] { mpi_->allreduce(v, n, op); }); }
  void broadcast(void* data, std::size_t bytes, int root) override { control([&] { mpi_->broadcast(data, bytes, root); }); }
  void barrier() override { mpi_->barrier(); }
  std::vector<std::int64_t> exchange_counts(const std::vector<std::int64_t>& counts) override {
    std::vector<std::int64_t> in;
    control([&] { in = mpi_->exchange_counts(counts); });
    return in;
  }
  void alltoallv(const void* send, const std::vector<std::int64_t>& send_counts, void* recv,
                 const std::vector<std::int64_t>& recv_counts, std::size_t elem_bytes, bool on_host) override {
    if (on_host) return control([&] { mpi_->alltoallv(send, send_counts, recv, recv_counts, elem_bytes, true); });
    post(send, send_counts, recv, recv_counts, elem_bytes, cudaStreamLegacy);
    FG_CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
  }
  // In flight on the exchange stream, after the legacy stream's work so far (the pack); finish makes
  // the legacy stream wait for it on the device, so the kernels queued between the two (a rank's
  // rows that need no other rank's x) overlap the transfer.
  void alltoallv_start(const void* send, const std::vector<std::int64_t>& send_counts, void* recv,
                       const std::vector<std::int64_t>& recv_counts, std::size_t elem_bytes) override {
    if (!stream_) {
      // The highest priority: its kernel is queued beside a many-wave SpMV grid, and the block
    // scheduler favours a high-priority stream's blocks as SMs free up.
    int least = 0, greatest = 0;
    FG_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    FG_CUDA_TRY(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest));
      FG_CUDA_TRY(cudaEventCreateWithFlags(&queued_, cudaEventDisableTiming));
      FG_CUDA_TRY(cudaEventCreateWithFlags(&arrived_, cudaEventDisableTiming));
    }
    FG_CUDA_TRY(cudaEventRecord(queued_, cudaStreamLegacy));
    FG_CUDA_TRY(cudaStreamWaitEvent(stream_, queued_, 0));
    try {
      post(send, send_counts, recv, recv_counts, elem_bytes, stream_);
    } catch (...) {  // part may be queued: alltoallv_finish must order the buffers' frees behind it
      (void)cudaEventRecord(arrived_, stream_);
      throw;
    }
    FG_CUDA_TRY(cudaEventRecord(arrived_, stream_));
  }
  void alltoallv_finish() override {
    if (stream_) FG_CUDA_TRY(cudaStreamWaitEvent(cudaStreamLegacy, arrived_, 0));
  }
  void allgatherv(const void* send, std::int64_t count, void* recv, const std::vector<std::int64_t>& counts,
                  std::size_t elem_bytes, bool on_host) override {
    if (on_host) return control([&] { mpi_->allgatherv(send, count, recv, counts, elem_bytes, true); });
    FG_EXPECTS(count == counts[std::size_t(rank_)], "allgatherv: this rank's count differs from its entry in counts");
    const std::size_t mine = std::size_t(count) * elem_bytes;
    char* r = static_cast<char*>(recv);
    std::size_t at = 0;
    check(ncclGroupStart(), "group start");
    for (int p = 0; p < size_; ++p) {
      const std::size_t b = std::size_t(counts[std::size_t(p)]) * elem_bytes;
      if (p == rank_) {
        if (b) FG_CUDA_TRY(cudaMemcpyAsync(r + at, send, b, cudaMemcpyDeviceToDevice, cudaStreamLegacy));
      } else {
        if (mine) check(ncclSend(send, mine, ncclChar, p, comm_, cudaStreamLegacy), "send"), sent_ += mine;
        if (b) check(ncclRecv(r + at, b, ncclChar, p, comm_, cudaStreamLegacy), "recv");
      }
      at += b;
    }
    check(ncclGroupEnd(), "group end");
    FG_CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
  }

 private:
  // Host control values go through MPI; their bytes count as this transport's.
  template <class F>
  void control(F f) {
    const std::uint64_t before = mpi_->bytes_sent();
    f();
    sent_ += mpi_->bytes_sent() - before;
  }
  // One group of point-to-point calls on `stream` (the rank's own share copied on it).
  void post(const void* send, const std::vector<std::int64_t>& send_counts, void* recv,
            const std::vector<std::int64_t>& recv_counts, std::size_t elem_bytes, cudaStream_t stream) {
    FG_EXPECTS(send_counts[std::size_t(rank_)] == recv_counts[std::size_t(rank_)],
               "alltoallv: a rank sends itself what it receives");  // checked before the group opens
    const char* s = static_cast<const char*>(send);
    char* r = static_cast<char*>(recv);
    std::size_t so = 0, ro = 0;
    check(ncclGroupStart(), "group start");
    for (int p = 0; p < size_; ++p) {
      const std::size_t sb = std::size_t(send_counts[std::size_t(p)]) * elem_bytes, rb = std::size_t(recv_counts[std::size_t(p)]) * elem_bytes;
      if (p == rank_) {
        if (sb) FG_CUDA_TRY(cudaMemcpyAsync(r + ro, s + so, sb, cudaMemcpyDeviceToDevice, stream));
      } else {
        if (sb) check(ncclSend(s + so, sb, ncclChar, p, comm_, stream), "send"), sent_ += sb;
        if (rb) check(ncclRecv(r + ro, rb, ncclChar, p, comm_, stream), "recv");
      }
      so += sb, ro += rb;
    }
    check(ncclGroupEnd(), "group end");
  }
  std::unique_ptr<communicator> mpi_;
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;  // the exchange stream and its two events, made at the first start
  cudaEvent_t queued_ = nullptr, arrived_ = nullptr;
};
}  // namespace

// Whether every rank has a GPU of its own: no node holds more ranks than GPUs.
bool each_rank_has_a_gpu(communicator& mpi);  // core/comm_mpi.cpp

std::unique_ptr<communicator> make_nccl_communicator(bool required) {
  std::unique_ptr<communicator> mpi = make_mpi_communicator();
  if (!each_rank_has_a_gpu(*mpi)) {
    if (required) throw invalid_argument("--comm nccl: some node runs more ranks than it has GPUs (NCCL needs a GPU per rank; --comm mpi shares them)");
    return mpi;
  }
  return std::make_unique<nccl_communicator>(std::move(mpi));
}

}  // namespace fg
#endif  // FG_WITH_NCCL && FG_WITH_MPI
