// The ranks of a distributed run (issue 24, docs/distributed.md) and the exchanges the distributed
// engine makes, behind one interface with a transport per stack:
//   self  one process, no MPI (the default when not launched by mpirun);
//   mpi   Open MPI (or any MPI): launches and bootstraps ranks; moves host buffers (device buffers
//         are staged through the host in the CUDA build). The CPU build's transport, and the CUDA
//         build's when ranks share a GPU.
//   nccl  NCCL over device buffers, one GPU per rank, bootstrapped by MPI (CUDA build with NCCL).
// Bulk calls take device_space memory (host memory in the CPU build) and count the bytes this rank
// sends to other ranks, which the cost report reads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/array.hpp"

namespace fg {

enum class comm_op { sum, min, max };

class communicator {
 public:
  virtual ~communicator() = default;
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  /// "self", "mpi" or "nccl"
  virtual const char* transport() const noexcept = 0;

  /// Small control values on the host; every rank gets the result.
  virtual void allreduce(std::int64_t* v, int n, comm_op op) = 0;
  virtual void allreduce(double* v, int n, comm_op op) = 0;
  /// Host bytes from `root` to every rank.
  virtual void broadcast(void* data, std::size_t bytes, int root) = 0;
  virtual void barrier() = 0;
  /// counts[p] = what this rank sends to rank p, in: what each rank sends to this one.
  virtual std::vector<std::int64_t> exchange_counts(const std::vector<std::int64_t>& counts) = 0;

  /// Bulk exchange: send_counts[p] elements of elem_bytes to rank p (packed in rank order),
  /// recv_counts[p] from rank p (packed in rank order); device_space memory, or host memory when
  /// `on_host` (a batch's routing: its edges arrive on the host).
  virtual void alltoallv(const void* send, const std::vector<std::int64_t>& send_counts, void* recv,
                         const std::vector<std::int64_t>& recv_counts, std::size_t elem_bytes, bool on_host = false) = 0;
  /// The same exchange of device_space memory, left in flight where the transport can (NCCL: on a
  /// stream of its own, after the work queued so far); alltoallv_finish() then orders the work
  /// queued after it behind the data's arrival, without a host wait. The caller leaves both buffers
  /// alone until then. Other transports complete it here. One exchange in flight at a time.
  virtual void alltoallv_start(const void* send, const std::vector<std::int64_t>& send_counts, void* recv,
                               const std::vector<std::int64_t>& recv_counts, std::size_t elem_bytes) {
    alltoallv(send, send_counts, recv, recv_counts, elem_bytes, false);
  }
  virtual void alltoallv_finish() {}
  /// Every rank's `count` elements, concatenated in rank order (counts[p] from rank p) on every
  /// rank; device_space memory, or host memory when `on_host`.
  virtual void allgatherv(const void* send, std::int64_t count, void* recv, const std::vector<std::int64_t>& counts,
                          std::size_t elem_bytes, bool on_host = false) = 0;

  /// Bytes this rank has sent to other ranks since it was made (bulk and control).
  std::uint64_t bytes_sent() const noexcept { return sent_; }

 protected:
  int rank_ = 0, size_ = 1;
  std::uint64_t sent_ = 0;
};

/// @brief The transport for this process. "auto": nccl when built with NCCL and every rank has a GPU
///        of its own, mpi when built with MPI and launched with more than one rank (or `mpirun -np 1`),
///        else self. "mpi" or "nccl" force that transport (an error when not built in); "self" never
///        initialises MPI. MPI is initialised by the first communicator and finalised at exit.
/// @throws fg::invalid_argument for an unknown or unavailable choice.
std::unique_ptr<communicator> make_communicator(const std::string& choice = "auto");

/// @brief Whether this build has each transport (`fluxgraph --version`, the docs' set-up checks).
bool built_with_mpi() noexcept;
bool built_with_nccl() noexcept;

/// @brief Typed alltoallv of host vectors: sends send as send_counts per rank (packed in rank
///        order), given what arrives from each rank (exchange_counts); returns what arrives.
template <class T>
std::vector<T> exchange(communicator& c, const std::vector<T>& send, const std::vector<std::int64_t>& send_counts,
                        const std::vector<std::int64_t>& recv_counts) {
  std::int64_t total = 0;
  for (std::int64_t k : recv_counts) total += k;
  std::vector<T> recv(static_cast<std::size_t>(total));
  c.alltoallv(send.data(), send_counts, recv.data(), recv_counts, sizeof(T), true);
  return recv;
}

}  // namespace fg
