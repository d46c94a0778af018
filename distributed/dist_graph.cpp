// The distributed store (distributed/dist_graph.hpp). A batch, on every rank:
//   1. stage: each rank uploads the edges it was given and, where they are (Space: the GPU in the
//      CUDA build), checks them, keys them (local row << 32 | global column) and orders them by the
//      owner of their row; one all-reduce finds the new vertex count and whether any rank ran out of
//      memory, one more the first bad edge of any rank (nothing is sent or written before every
//      rank knows the batch is good);
//   2. route: the counts (one all-to-all), an all-reduce on whether every rank can take its share,
//      then the keys (and a valued graph's weights) by all-to-allv, device to device;
//   3. write: its share goes into its store as one undoable batch (dcsr_matrix::apply_batch_undoable);
//   4. vote: one all-reduce; all keep their share, or those that wrote take it back.
// So a batch that fails anywhere leaves every rank's store as it was, the host touches only counts,
// and a batch costs a fixed number of collectives whatever P is (docs/distributed.md counts them).
#include "distributed/dist_graph.hpp"

#include <functional>

#include <algorithm>
#include <chrono>
#include <climits>
#include <numeric>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "distributed/detail/dist_kernels.hpp"
#include "storage/detail/kernels.hpp"  // FG_FOR_EACH_VALUE, FG_FOR_EACH_SPMV

namespace fg {

template <class V, class S>
dist_graph<V, S>::dist_graph(communicator& c, orientation o, row_partition p, vertex_t n, const dcsr_config& cfg)
    : comm_(&c), orient_(o), part_(std::move(p)), n_(n), store_([&] {
        dcsr_config local = cfg;
        local.square = false;  // local rows, global columns
        return local;
      }()) {
  FG_EXPECTS(part_.parts == c.size(), "dist_graph: a partition of " + std::to_string(part_.parts) + " parts for " +
                                          std::to_string(c.size()) + " ranks");
  FG_EXPECTS(n >= 0, "dist_graph: negative vertex count");
  if (!part_.starts.empty()) starts_ = to_space<S>(part_.starts);
  set_vertices(n);
}

template <class V, class S>
void dist_graph<V, S>::set_vertices(vertex_t n) {
  n_ = n;
  const int P = comm_->size();
  counts_.assign(static_cast<std::size_t>(P), 0);
  std::vector<std::int64_t> offset(static_cast<std::size_t>(P) + 1, 0);
  for (int p = 0; p < P; ++p) {
    counts_[std::size_t(p)] = part_.count(p, n);
    offset[std::size_t(p) + 1] = offset[std::size_t(p)] + counts_[std::size_t(p)];
  }
  offsets_ = to_space<S>(offset);
  store_.resize(local_vertices(), n_);
}

template <class V, class S>
offset_t dist_graph<V, S>::num_edges() const {
  std::int64_t e = store_.nnz();
  comm_->allreduce(&e, 1, comm_op::sum);
  return e;
}

namespace {
const char* bad_reason(int r) {
  return r == 1 ? "negative vertex id" : r == 2 ? "weight is NaN or infinite" : "bad edge";
}
std::int64_t total(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t(0)); }

// The caller's n values into S: uploaded from the host, or copied where they are when on_device.
template <class S, class T>
array<T, S> staged_copy(const T* p, std::size_t n, bool on_device) {
  if (!on_device) return to_space<S>(p, n);
  FG_EXPECTS((std::is_same_v<S, device_space>), "dist_graph::apply: device edges for a store in host memory");
  array<T, S> a(n);
  memory::copy_on_device(a.data(), p, n * sizeof(T));
  return a;
}

// A step of a batch that may fail on one rank before the next collective: what failed there (1 out
// of memory, 2 any other error, e.g. a CUDA or Thrust error) and why. Every rank then learns the
// worst of them in one all-reduce, so none waits in a collective another has left.
struct step_failure {
  std::int64_t kind = 0;
  std::string what;
};
template <class F>
step_failure attempt(F&& f) {
  try {
    f();
  } catch (const out_of_memory& e) {
    return {1, e.what()};
  } catch (const std::exception& e) {
    return {2, e.what()};
  }
  return {};
}
/// (kind << 32 | rank + 1): the all-reduce's max picks the worst kind, then the highest rank with it.
std::int64_t failure_code(const step_failure& f, int rank) { return f.kind == 0 ? 0 : (f.kind << 32) | (rank + 1); }
[[noreturn]] void fail_everywhere(std::int64_t code, const step_failure& mine, std::int64_t batch, const char* step) {
  const std::string msg = "batch " + std::to_string(batch) + ": rank " + std::to_string((code & 0xffffffff) - 1) +
                          " could not " + step + " (" + (mine.what.empty() ? "see that rank" : mine.what) +
                          "); the batch is rejected on every rank";
  if ((code >> 32) == 1) throw out_of_memory(msg);
  throw error(msg);
}
}  // namespace

// On this rank, in Space: upload, check, key and order by owner. Nothing collective: a rank that
// fails here (out of memory) says so in apply's first all-reduce.
template <class V, class S>
typename dist_graph<V, S>::staged dist_graph<V, S>::stage(const edge_list& e, bool insertions) const {
  using K = detail::dist_kernels<S>;
  const auto n = std::int64_t(e.size);
  const int P = comm_->size();
  const bool given = insertions && e.weight != nullptr;  // a deletion's weights are not read
  const bool travel = !is_pattern_v<V> && insertions;  // a valued graph's insertions carry weights
  staged s;
  const array<vertex_t, S> r = staged_copy<S>(orient_ == orientation::out ? e.src : e.dst, e.size, e.on_device);
  const array<vertex_t, S> c = staged_copy<S>(orient_ == orientation::out ? e.dst : e.src, e.size, e.on_device);
  if (given) s.weight = staged_copy<S>(e.weight, e.size, e.on_device);
  s.check = K::check_batch(r.data(), c.data(), given ? s.weight.data() : nullptr, n);
  s.count.assign(static_cast<std::size_t>(P), 0);
  if (s.check.first_bad != INT64_MAX) return s;  // every rank rejects the batch: nothing to route
  if (travel && !given) {
    s.weight = array<double, S>(static_cast<std::size_t>(n));
    K::weights(static_cast<const double*>(nullptr), n, s.weight.data());
  }
  if (!travel) s.weight = {};
  array<int, S> owner(static_cast<std::size_t>(n));
  s.key = array<std::int64_t, S>(static_cast<std::size_t>(n));
  K::route_keys(view(), r.data(), c.data(), n, owner.data(), s.key.data());
  s.count = K::order_by_owner(owner.data(), s.key.data(), travel ? s.weight.data() : nullptr, n, P);
  return s;
}

template <class V, class S>
void dist_graph<V, S>::reject_bad(const detail::batch_check& ins, const detail::batch_check& del) const {
  // The first bad edge of any rank: rank, then insertions before deletions, then position.
  const std::int64_t none = INT64_MAX;
  std::int64_t key = none, reason = 0;
  if (ins.first_bad != none) key = ins.first_bad, reason = ins.reason;
  else if (del.first_bad != none) key = (std::int64_t(1) << 40) + del.first_bad, reason = del.reason;
  if (key != none) key += std::int64_t(comm_->rank()) << 41;
  std::int64_t first = key;
  comm_->allreduce(&first, 1, comm_op::min);
  if (first == none) return;
  std::int64_t why = key == first ? reason : 0;
  comm_->allreduce(&why, 1, comm_op::max);
  const bool deletion = (first >> 40) & 1;
  throw batch_error(batches_ + 1, first & ((std::int64_t(1) << 40) - 1),
                    "rank " + std::to_string(first >> 41) + "'s " + (deletion ? "deletion" : "insertion") + ": " +
                        bad_reason(int(why)) + " (the batch is rejected on every rank)");
}

// The counts, then one all-reduce on whether every rank could take what it will receive (so no
// rank waits in an exchange another left), then the keys (and weights) on the transport.
template <class V, class S>
std::pair<typename dist_graph<V, S>::routed, typename dist_graph<V, S>::routed> dist_graph<V, S>::route(const staged& ins,
                                                                                                      const staged& del) {
  const std::vector<std::int64_t> in_ins = comm_->exchange_counts(ins.count), in_del = comm_->exchange_counts(del.count);
  constexpr bool valued = !is_pattern_v<V>;
  std::pair<routed, routed> out;
  const step_failure f = attempt([&] {
    out.first.key = array<std::int64_t, S>(static_cast<std::size_t>(total(in_ins)));
    if (valued) out.first.weight = array<double, S>(static_cast<std::size_t>(total(in_ins)));
    out.second.key = array<std::int64_t, S>(static_cast<std::size_t>(total(in_del)));
  });
  std::int64_t code = failure_code(f, comm_->rank());
  comm_->allreduce(&code, 1, comm_op::max);
  if (code > 0) fail_everywhere(code, f, batches_ + 1, "take its share of the batch");
  constexpr bool on_host = std::is_same_v<S, host_space>;
  comm_->alltoallv(ins.key.data(), ins.count, out.first.key.data(), in_ins, sizeof(std::int64_t), on_host);
  if (valued) comm_->alltoallv(ins.weight.data(), ins.count, out.first.weight.data(), in_ins, sizeof(double), on_host);
  comm_->alltoallv(del.key.data(), del.count, out.second.key.data(), in_del, sizeof(std::int64_t), on_host);
  return out;
}

template <class V, class S>
coo_matrix<V, S> dist_graph<V, S>::batch_of(const routed& in) const {
  using K = detail::dist_kernels<S>;
  const auto n = std::int64_t(in.key.size());
  coo_matrix<V, S> c(static_cast<std::size_t>(n));
  K::unpack(in.key.data(), n, c.row.data(), c.col.data());
  if constexpr (!is_pattern_v<V>) K::weights(in.weight.empty() ? nullptr : in.weight.data(), n, c.val.data());
  return c;
}

template <class V, class S>
dist_batch_report dist_graph<V, S>::apply(const std::vector<vertex_t>& src, const std::vector<vertex_t>& dst,
                                          const std::vector<double>& weight, const std::vector<vertex_t>& del_src,
                                          const std::vector<vertex_t>& del_dst) {
  FG_EXPECTS(src.size() == dst.size() && del_src.size() == del_dst.size() && (weight.empty() || weight.size() == src.size()),
             "dist_graph::apply: sources, targets and weights differ in length");
  return apply(edge_list{src.data(), dst.data(), weight.empty() ? nullptr : weight.data(), src.size()},
               edge_list{del_src.data(), del_dst.data(), nullptr, del_src.size()});
}

template <class V, class S>
dist_batch_report dist_graph<V, S>::apply(const edge_list& in, const edge_list& out) {
  FG_EXPECTS((in.size == 0 || (in.src != nullptr && in.dst != nullptr)) && (out.size == 0 || (out.src != nullptr && out.dst != nullptr)),
             "dist_graph::apply: edges without their arrays");
  const std::uint64_t sent0 = comm_->bytes_sent();
  auto t = std::chrono::steady_clock::now();
  auto lap = [&](double& into) {  // the step's seconds, after its device work (set_step_timing)
    if (!time_steps_) return;
    memory::synchronize();
    const auto now = std::chrono::steady_clock::now();
    into = std::chrono::duration<double>(now - t).count();
    t = now;
  };
  dist_batch_report rep;
  rep.batch = batches_ + 1;
  rep.given = std::int64_t(in.size);
  rep.deletes_given = std::int64_t(out.size);
  staged ins, del;
  const step_failure f = attempt([&] {
    ins = stage(in, true);
    del = stage(out, false);
  });
  // The vertices after the batch (insertions name them) and whether any rank could not stage its
  // edges: one all-reduce.
  std::int64_t top_failed[2] = {std::max<std::int64_t>(std::int64_t(n_) - 1, ins.check.top), failure_code(f, comm_->rank())};
  comm_->allreduce(top_failed, 2, comm_op::max);
  if (top_failed[1] > 0) fail_everywhere(top_failed[1], f, rep.batch, "stage its edges");
  reject_bad(ins.check, del.check);
  const std::int64_t top = top_failed[0];
  FG_EXPECTS(top < INT_MAX, "dist_graph::apply: vertex id too large");
  lap(rep.stage_seconds);
  auto [in_ins, in_del] = route(ins, del);
  ins = {}, del = {};
  lap(rep.route_seconds);
  rep.received = std::int64_t(in_ins.key.size());
  rep.deletes_received = std::int64_t(in_del.key.size());
  // The vote: 0 = written, 1 = out of memory, 2 = another error; the worst and the lowest rank
  // that had it. Everything that can fail on one rank happens before it, and nothing collective
  // happens in between.
  std::int64_t outcome = 0;
  std::string why;
  try {
    store_.apply_batch_undoable(batch_of(in_ins), batch_of(in_del));
  } catch (const out_of_memory& e) {
    outcome = 1, why = e.what();
  } catch (const std::exception& e) {  // any other failure is voted too: no rank may leave the vote
    outcome = 2, why = e.what();
  }
  std::int64_t vote[2] = {outcome, outcome > 0 ? comm_->rank() : INT_MAX};
  comm_->allreduce(&vote[0], 1, comm_op::max);
  comm_->allreduce(&vote[1], 1, comm_op::min);
  if (vote[0] > 0) {
    if (outcome == 0) store_.undo_batch();
    const std::string msg = "batch " + std::to_string(rep.batch) + ": rank " + std::to_string(vote[1]) +
                            " could not store its share (" + (why.empty() ? "see that rank" : why) +
                            "); the batch is taken back on every rank";
    if (vote[0] == 1) throw out_of_memory(msg);
    throw error(msg);
  }
  store_.keep_batch();
  ++batches_;
  if (top + 1 != n_) set_vertices(vertex_t(top + 1));
  rep.vertices = n_;
  rep.bytes_sent = comm_->bytes_sent() - sent0;
  lap(rep.write_seconds);
  return rep;
}

template <class V, class S>
const x_exchange_plan<S>& dist_graph<V, S>::exchange_plan() const {
  // Every rank tests the same numbers (batches, vertices, mode), so all rebuild together.
  if (!plan_ || plan_->batches != batches_ || plan_->n != n_ || plan_->mode != xmode_)
    plan_ = std::make_shared<const x_exchange_plan<S>>(plan_exchange(*this, xmode_));
  return *plan_;
}

template <class V, class S>
std::shared_ptr<const dist_split_rows<V, S>> dist_graph<V, S>::split() const {
  const x_exchange_plan<S>& plan = exchange_plan();  // collective, so every rank rebuilds together
  if (!split_ || split_->batches != plan.batches || split_->n != plan.n)
    split_ = std::make_shared<const dist_split_rows<V, S>>(split_rows(*this));
  return split_;
}

template <class T, class V, class S>
array<T, S> gather_all(const dist_graph<V, S>& A, const array<T, S>& local) {
  communicator& c = A.comm();
  const vertex_t n = A.num_vertices();
  const std::vector<std::int64_t>& counts = A.rank_counts();
  FG_EXPECTS(std::int64_t(local.size()) == counts[std::size_t(c.rank())],
             "gather_all: a local vector of " + std::to_string(local.size()) + " entries for " +
                 std::to_string(counts[std::size_t(c.rank())]) + " local vertices");
  array<T, S> gathered(static_cast<std::size_t>(n)), full(static_cast<std::size_t>(n));
  c.allgatherv(local.data(), std::int64_t(local.size()), gathered.data(), counts, sizeof(T));
  detail::dist_kernels<S>::spread(A.view(), A.rank_offsets().data(), gathered.data(), n, full.data());
  return full;
}

template <class T, class V, class S>
x_in_flight<T, S> start_x_exchange(const dist_graph<V, S>& A, const array<T, S>& local) {
  const x_exchange_plan<S>& plan = A.exchange_plan();
  FG_EXPECTS(plan.sparse, "start_x_exchange: the graph's exchange is the all-gather");
  FG_EXPECTS(local.size() == plan.own_global.size(), "x exchange: a local vector of " + std::to_string(local.size()) +
                                                         " entries for " + std::to_string(plan.own_global.size()) + " local vertices");
  const std::int64_t out = total(plan.send_counts), in = total(plan.recv_counts);
  x_in_flight<T, S> f(A.comm(), static_cast<std::size_t>(out), static_cast<std::size_t>(in));
  detail::dist_kernels<S>::gather(plan.send_local.data(), out, local.data(), f.send.data());
  // Marked in flight first: if the start throws after queuing part of the exchange, f's destructor
  // still orders the buffers' frees (and their reuse) behind what was queued.
  f.started();
  A.comm().alltoallv_start(f.send.data(), plan.send_counts, f.recv.data(), plan.recv_counts, sizeof(T));
  return f;
}

template <class Sr, class V, class S>
void spmv(const dist_graph<V, S>& A, const array<typename Sr::value_type, S>& x_local,
          array<typename Sr::value_type, S>& y_local) {
  using T = typename Sr::value_type;
  const vertex_t nl = A.local_vertices();
  if (y_local.size() != std::size_t(nl)) y_local = array<T, S>(std::size_t(nl));
  if (!A.exchange_plan().sparse) return spmv<Sr>(A.local(), gather_all(A, x_local), y_local);
  const std::shared_ptr<const dist_split_rows<V, S>> rows = A.split();
  FG_EXPECTS(x_local.data() != y_local.data() || nl == 0, "distributed spmv: x and y are the same vector");
  using run = std::function<void(const array<T, S>&, array<T, S>&)>;
  array<T, S> part;
  multiply_split<Sr>(A, x_local, y_local, part, [&](const array<T, S>& x, array<T, S>& y) { spmv<Sr>(rows->own, x, y); },
                     rows->remote.nnz() == 0 ? run{} : run{[&](const array<T, S>& x, array<T, S>& y) { spmv<Sr>(rows->remote, x, y); }});
}

#define FG_INSTANTIATE_IN(V, S) template class dist_graph<V, S>;
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN
#define FG_INSTANTIATE_IN(Sr, V, S) \
  template void spmv<Sr, V, S>(const dist_graph<V, S>&, const array<Sr::value_type, S>&, array<Sr::value_type, S>&);
#define FG_INSTANTIATE(Sr, V) FG_INSTANTIATE_IN(Sr, V, host_space) FG_INSTANTIATE_IN(Sr, V, device_space)
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN
#define FG_INSTANTIATE_IN(T, V, S)                                                  \
  template array<T, S> gather_all(const dist_graph<V, S>&, const array<T, S>&); \
  template x_in_flight<T, S> start_x_exchange(const dist_graph<V, S>&, const array<T, S>&);
#define FG_INSTANTIATE_T(T, V) FG_INSTANTIATE_IN(T, V, host_space) FG_INSTANTIATE_IN(T, V, device_space)
#define FG_INSTANTIATE(V) FG_INSTANTIATE_T(float, V) FG_INSTANTIATE_T(double, V) FG_INSTANTIATE_T(std::uint8_t, V)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_T
#undef FG_INSTANTIATE_IN

}  // namespace fg
