// Distributed PageRank (distributed/dist_pagerank.hpp). The vector steps are the single-rank ones
// (algorithms/detail/pagerank_kernels.hpp) on each rank's entries; only the sums and the SpMV's x
// cross ranks.
#include "distributed/dist_pagerank.hpp"

#include <chrono>
#include <cmath>

#include "algorithms/detail/pagerank_kernels.hpp"
#include "core/error.hpp"
#include "core/semiring.hpp"
#include "read/cost_model.hpp"
#include "read/profile.hpp"
#include "distributed/dist_split.hpp"
#include "read/views.hpp"

namespace fg {

template <class V, class S>
dist_pagerank_result pagerank(const dist_graph<V, S>& At, const pagerank_options& opt, const pagerank_start& from) {
  validate(opt);
  FG_EXPECTS(At.oriented() == orientation::in, "distributed pagerank: the graph must keep in-edges (rows are targets)");
  using P = detail::pagerank_kernels<S>;
  communicator& c = At.comm();
  const std::uint64_t sent0 = c.bytes_sent();
  const auto t0 = std::chrono::steady_clock::now();
  const vertex_t n = At.num_vertices(), nl = At.local_vertices();
  dist_pagerank_result res;
  if (n == 0) {
    res.converged = true;
    return res;
  }
  // Out-weights are column sums: every rank's rows add to every column, so one all-reduce of n
  // values, of which each rank keeps its own (once per run).
  std::vector<double> out_all;
  {
    array<double, S> sums(static_cast<std::size_t>(n));
    P::template out_weights<V>(At.local().view(), sums.data(), n);
    out_all = to_vector(sums);
  }
  c.allreduce(out_all.data(), int(n), comm_op::sum);
  std::vector<double> out_local(static_cast<std::size_t>(nl)), start(static_cast<std::size_t>(nl), 1.0 / n);
  for (vertex_t l = 0; l < nl; ++l) out_local[std::size_t(l)] = out_all[std::size_t(At.partition().global(c.rank(), l))];
  out_all = {};
  if (!from.initial.empty()) {  // a warm start: this rank's last scores, new vertices at 1/n, scaled to sum 1
    FG_EXPECTS(from.initial.size() <= start.size(), "distributed pagerank: more initial scores than local vertices");
    double sum = 0;
    for (std::size_t l = 0; l < start.size(); ++l) {
      if (l < from.initial.size()) start[l] = from.initial[l];
      FG_EXPECTS(std::isfinite(start[l]) && start[l] >= 0, "distributed pagerank: a negative or non-finite initial score");
      sum += start[l];
    }
    c.allreduce(&sum, 1, comm_op::sum);
    FG_EXPECTS(sum > 0, "distributed pagerank: the initial vector sums to 0");
    for (double& x : start) x /= sum;
  }
  const array<double, S> out_w = to_space<S>(out_local);
  array<double, S> rank = to_space<S>(start), scaled(static_cast<std::size_t>(nl)), y(static_cast<std::size_t>(nl));
  double dangling = P::resume(rank.data(), scaled.data(), out_w.data(), nl);
  c.allreduce(&dangling, 1, comm_op::sum);
  // Each rank's rows through the view the selector picks for the iterations expected, as the
  // one-rank PageRank does: the store itself (dcsr) read rmat-24's rows at 5.7 ms where csr_merge
  // takes 2.5 (H100), and the local read is most of an iteration.
  const auto tv = std::chrono::steady_clock::now();
  const matrix_profile prof = profile(At.local());
  const selection sel = select_kernel(prof, 8, pagerank_expected_reads(opt, n), *load_calibration(device_description()), opt.kernel);
  // With the sparse exchange, the rows split by column owner (distributed/dist_split.hpp): the own
  // columns' view runs while the others' x is in flight. The renumbered (dbg_*) views need a square
  // matrix, which the remote part is not: it is read by the kernel they renumber for.
  const bool sparse = At.exchange_plan().sparse;
  std::shared_ptr<const dist_split_rows<V, S>> rows;
  spmv_view<V, S> view, remote;
  if (sparse) {
    rows = std::make_shared<const dist_split_rows<V, S>>(split_rows(At));
    view = make_view(rows->own, sel.kernel);
    if (rows->remote.nnz() > 0) remote = make_view(rows->remote, unrenumbered(sel.kernel));
  } else {
    view = make_view(At.local(), sel.kernel);
  }
  res.kernel = sel.kernel;
  res.kernel_reason = sel.reason;
  res.view_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - tv).count();
  res.setup_bytes = c.bytes_sent() - sent0;
  res.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double d = opt.damping, tol_n = opt.tol * double(n);
  array<double, S> part;
  while (res.iterations < opt.max_iter) {
    if (sparse) {  // the own columns while the others' scaled scores are in flight
      multiply_split<plus_times<double>>(At, scaled, y, part, view.run, remote.run);
    } else {
      view.run(gather_all(At, scaled), y);  // every rank's scaled scores, in global ids
    }
    const double base = (d * dangling + (1.0 - d)) / double(n);
    const detail::pagerank_sums s = P::update(y.data(), rank.data(), scaled.data(), nullptr, out_w.data(), nl, d, base);
    double sums[2] = {s.change, s.dangling};
    c.allreduce(sums, 2, comm_op::sum);
    dangling = sums[1];
    res.last_change = sums[0];
    ++res.iterations;
    if (opt.progress) opt.progress(res.iterations, sums[0]);
    if (sums[0] < tol_n) {
      res.converged = true;
      break;
    }
  }
  res.iterate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - res.setup_seconds;
  res.score = to_vector(rank);
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  res.bytes_sent = c.bytes_sent() - sent0;
  return res;
}

#define FG_INSTANTIATE(V, S) template dist_pagerank_result pagerank(const dist_graph<V, S>&, const pagerank_options&, const pagerank_start&);
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE

}  // namespace fg
