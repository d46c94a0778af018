// The MPI transport (core/comm.hpp): MPI_COMM_WORLD's ranks. Bulk data goes as elements of a
// contiguous datatype (counts stay below 2^31 elements per peer); in the CUDA build device buffers
// are staged through host memory (a CUDA-aware MPI could take them directly; Open MPI from Debian is
// not built so). Built only when CMake finds MPI.
#if defined(FG_WITH_MPI)
#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <vector>

#include "core/comm.hpp"
#include "core/error.hpp"
#include "core/device_select.hpp"
#include "core/memory.hpp"

namespace fg {

namespace {
void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    throw error(std::string("MPI: ") + what + ": " + std::string(msg, std::size_t(len)));
  }
}

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

MPI_Op op_of(comm_op op) { return op == comm_op::sum ? MPI_SUM : op == comm_op::min ? MPI_MIN : MPI_MAX; }

std::vector<int> int_counts(const std::vector<std::int64_t>& c, std::vector<int>& displ) {
  std::vector<int> out(c.size());
  displ.assign(c.size(), 0);
  std::int64_t at = 0;
  for (std::size_t p = 0; p < c.size(); ++p) {
    FG_EXPECTS(c[p] >= 0 && c[p] <= INT_MAX && at <= INT_MAX, "MPI transport: more than 2^31 elements in one exchange");
    out[p] = int(c[p]);
    displ[p] = int(at);
    at += c[p];
  }
  return out;
}

class mpi_communicator final : public communicator {
 public:
  mpi_communicator() {
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited) {
      int provided = 0;
      check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "init");
      std::atexit(finalize_at_exit);
    }
    check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "comm_dup");
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    // One GPU per rank on each node (shared round-robin when a node has fewer GPUs than ranks).
    MPI_Comm node = MPI_COMM_NULL;
    check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "comm_split_type");
    MPI_Comm_rank(node, &local_);
    MPI_Comm_size(node, &local_size_);
    MPI_Comm_free(&node);
    memory::select_device(local_);
  }
  int local_size() const noexcept { return local_size_; }
  ~mpi_communicator() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&comm_);
  }
  const char* transport() const noexcept override { return "mpi"; }
  void allreduce(std::int64_t* v, int n, comm_op op) override {
    sent_ += std::uint64_t(n) * 8 * std::uint64_t(size_ > 1);
    check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, op_of(op), comm_), "allreduce");
  }
  void allreduce(double* v, int n, comm_op op) override {
    sent_ += std::uint64_t(n) * 8 * std::uint64_t(size_ > 1);
    check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, op_of(op), comm_), "allreduce");
  }
  void broadcast(void* data, std::size_t bytes, int root) override {
    FG_EXPECTS(bytes <= INT_MAX, "MPI transport: a broadcast of more than 2^31 bytes");
    if (rank_ == root) sent_ += std::uint64_t(bytes) * std::uint64_t(size_ - 1);
    check(MPI_Bcast(data, int(bytes), MPI_BYTE, root, comm_), "bcast");
  }
  void barrier() override { check(MPI_Barrier(comm_), "barrier"); }
  std::vector<std::int64_t> exchange_counts(const std::vector<std::int64_t>& counts) override {
    FG_EXPECTS(int(counts.size()) == size_, "communicator: one count per rank");
    std::vector<std::int64_t> in(counts.size());
    sent_ += std::uint64_t(size_ - 1) * 8;
    check(MPI_Alltoall(counts.data(), 1, MPI_INT64_T, in.data(), 1, MPI_INT64_T, comm_), "alltoall");
    return in;
  }
  void alltoallv(const void* send, const std::vector<std::int64_t>& send_counts, void* recv,
                 const std::vector<std::int64_t>& recv_counts, std::size_t elem_bytes, bool on_host) override {
    std::vector<int> sd, rd;
    const std::vector<int> sc = int_counts(send_counts, sd), rc = int_counts(recv_counts, rd);
    std::int64_t out = 0, in = 0;
    for (int p = 0; p < size_; ++p) out += send_counts[std::size_t(p)], in += recv_counts[std::size_t(p)];
    sent_ += std::uint64_t(out - send_counts[std::size_t(rank_)]) * elem_bytes;
    const MPI_Datatype t = element(elem_bytes);
    const void* s = on_host ? send : staged_in(send, std::size_t(out) * elem_bytes);
    void* r = on_host ? recv : staged_out(recv, std::size_t(in) * elem_bytes);
    check(MPI_Alltoallv(s, sc.data(), sd.data(), t, r, rc.data(), rd.data(), t, comm_), "alltoallv");
    if (!on_host) unstage(recv, std::size_t(in) * elem_bytes);
  }
  void allgatherv(const void* send, std::int64_t count, void* recv, const std::vector<std::int64_t>& counts,
                  std::size_t elem_bytes, bool on_host) override {
    std::vector<int> rd;
    const std::vector<int> rc = int_counts(counts, rd);
    FG_EXPECTS(count == counts[std::size_t(rank_)], "allgatherv: this rank's count differs from its entry in counts");
    std::int64_t in = 0;
    for (std::int64_t k : counts) in += k;
    sent_ += std::uint64_t(count) * elem_bytes * std::uint64_t(size_ - 1);
    const MPI_Datatype t = element(elem_bytes);
    const void* s = on_host ? send : staged_in(send, std::size_t(count) * elem_bytes);
    void* r = on_host ? recv : staged_out(recv, std::size_t(in) * elem_bytes);
    check(MPI_Allgatherv(s, int(count), t, r, rc.data(), rd.data(), t, comm_), "allgatherv");
    if (!on_host) unstage(recv, std::size_t(in) * elem_bytes);
  }

 private:
  // A committed contiguous type per element size (few sizes: 1, 4, 8, 12, 16 bytes), kept.
  MPI_Datatype element(std::size_t bytes) {
    for (auto& [b, t] : types_)
      if (b == bytes) return t;
    MPI_Datatype t;
    check(MPI_Type_contiguous(int(bytes), MPI_BYTE, &t), "type_contiguous");
    check(MPI_Type_commit(&t), "type_commit");
    types_.push_back({bytes, t});
    return t;
  }
#if defined(FG_WITH_CUDA)
  // Device buffers pass through host copies (Debian's Open MPI is not CUDA-aware).
  const void* staged_in(const void* p, std::size_t bytes) {
    send_host_.resize(bytes);
    if (bytes) memory::copy_to_host(send_host_.data(), p, bytes);
    return send_host_.data();
  }
  void* staged_out(void*, std::size_t bytes) {
    recv_host_.resize(bytes);
    return recv_host_.data();
  }
  void unstage(void* p, std::size_t bytes) {
    if (bytes) memory::copy_to_device(p, recv_host_.data(), bytes);
  }
  std::vector<char> send_host_, recv_host_;
#else
  const void* staged_in(const void* p, std::size_t) { return p; }
  void* staged_out(void* p, std::size_t) { return p; }
  void unstage(void*, std::size_t) {}
#endif
  MPI_Comm comm_ = MPI_COMM_NULL;
  int local_ = 0, local_size_ = 1;  ///< this rank among its node's, and their number
  std::vector<std::pair<std::size_t, MPI_Datatype>> types_;
};
}  // namespace

std::unique_ptr<communicator> make_mpi_communicator() { return std::make_unique<mpi_communicator>(); }

bool each_rank_has_a_gpu(communicator& mpi) {
  std::int64_t crowded = std::int64_t(static_cast<mpi_communicator&>(mpi).local_size() > memory::device_count());
  mpi.allreduce(&crowded, 1, comm_op::max);
  return crowded == 0;
}

// mpirun (Open MPI, MPICH, Slurm's PMI) leaves one of these in every rank's environment.
bool launched_by_mpi() noexcept {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace fg
#endif  // FG_WITH_MPI
