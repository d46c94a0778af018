// One process (the "self" transport) and the choice of transport (core/comm.hpp). The MPI transport
// is core/comm_mpi.cpp, built when CMake finds MPI (FG_MPI=auto|ON).
#include "core/comm.hpp"

#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace fg {

#if defined(FG_WITH_MPI)
std::unique_ptr<communicator> make_mpi_communicator();  // core/comm_mpi.cpp
bool launched_by_mpi() noexcept;
#endif
#if defined(FG_WITH_NCCL)
/// NCCL when every rank has a GPU of its own; else MPI, or an error when `required`.
std::unique_ptr<communicator> make_nccl_communicator(bool required);  // core/comm_nccl.cpp
#endif

namespace {
// Rank 0 of 1: every exchange is a copy to itself, nothing is sent.
class self_communicator final : public communicator {
 public:
  const char* transport() const noexcept override { return "self"; }
  void allreduce(std::int64_t*, int, comm_op) override {}
  void allreduce(double*, int, comm_op) override {}
  void broadcast(void*, std::size_t, int) override {}
  void barrier() override {}
  std::vector<std::int64_t> exchange_counts(const std::vector<std::int64_t>& counts) override {
    FG_EXPECTS(counts.size() == 1, "communicator: one count per rank");
    return counts;
  }
  void alltoallv(const void* send, const std::vector<std::int64_t>& send_counts, void* recv,
                 const std::vector<std::int64_t>& recv_counts, std::size_t elem_bytes, bool on_host) override {
    FG_EXPECTS(send_counts.size() == 1 && recv_counts.size() == 1 && send_counts[0] == recv_counts[0],
               "communicator: one rank sends to itself what it receives");
    const std::size_t bytes = std::size_t(send_counts[0]) * elem_bytes;
    if (bytes == 0) return;
    if (on_host) std::memcpy(recv, send, bytes);
    else memory::copy_on_device(recv, send, bytes);
  }
  void allgatherv(const void* send, std::int64_t count, void* recv, const std::vector<std::int64_t>& counts,
                  std::size_t elem_bytes, bool on_host) override {
    FG_EXPECTS(counts.size() == 1 && counts[0] == count, "communicator: one rank gathers its own count");
    const std::size_t bytes = std::size_t(count) * elem_bytes;
    if (bytes == 0) return;
    if (on_host) std::memcpy(recv, send, bytes);
    else memory::copy_on_device(recv, send, bytes);
  }
};
}  // namespace

bool built_with_mpi() noexcept {
#if defined(FG_WITH_MPI)
  return true;
#else
  return false;
#endif
}

bool built_with_nccl() noexcept {
#if defined(FG_WITH_NCCL)
  return true;
#else
  return false;
#endif
}

std::unique_ptr<communicator> make_communicator(const std::string& choice) {
  if (choice == "self") return std::make_unique<self_communicator>();
  if (choice == "nccl") {
#if defined(FG_WITH_NCCL)
    return make_nccl_communicator(true);
#else
    throw invalid_argument("--comm nccl: this build has no NCCL (the CUDA build finds it with FG_NCCL=auto)");
#endif
  }
  if (choice == "mpi") {
#if defined(FG_WITH_MPI)
    return make_mpi_communicator();
#else
    throw invalid_argument("--comm mpi: this build has no MPI (install libopenmpi-dev and rebuild; FG_MPI=auto)");
#endif
  }
  FG_EXPECTS(choice == "auto", "unknown transport '" + choice + "' (auto, mpi, nccl or self)");
#if defined(FG_WITH_NCCL)
  if (launched_by_mpi()) return make_nccl_communicator(false);
#elif defined(FG_WITH_MPI)
  if (launched_by_mpi()) return make_mpi_communicator();
#endif
  return std::make_unique<self_communicator>();
}

}  // namespace fg
