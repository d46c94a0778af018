// Semi-naive transitive closure and reachability (see closure.hpp), written once for both twins on
// top of spmm_slices: each slice of Δₖ₊₁ is sorted, new and disjoint from R⁺, so it is appended to
// both Δₖ₊₁ and R⁺ as it comes.
//
// Memory (pattern stores keep no values): R as CSR; R⁺ as DCSR: 4 bytes a pair, its buffer 1.35-1.8x
// the pairs at the end (measured on the test graphs: new segments' slack, buffer growth by 1.5x),
// plus the segment table (k = 8 pairs of 8-byte offsets a vertex); while R⁺ compacts into a larger
// buffer, old and new coexist (about 2.5x the old capacity); Δ as packed DCSR; one SpMM slice's
// workspace (<= 2 GiB). Expected peak on an 80 GB H100: fe_ocean (1,669,750,513 pairs: 6.7 GB of
// column ids) about 12 GB of R⁺ buffer, 20-25 GB during its last compaction; usroads
// (871,365,688 pairs) about 11-14 GB.
#include "algorithms/closure.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "loaders/graph_file.hpp"

namespace fg {

namespace {
void run_phase(const spmm_options& o, const char* phase, const std::function<void()>& work) {
  if (o.timed) o.timed(phase, work);
  else work();
}

/// A store built row by row (Δ): packed segments, no slack, one segment a row (k = 2, the least,
/// keeps the segment table at 32 bytes a vertex instead of 128).
dcsr_config packed_config(vertex_t rows, vertex_t cols, offset_t reserve) {
  dcsr_config c;
  c.max_segments = 2;
  c.square = rows == cols;
  c.alpha = 0;
  c.row_growth = 0;
  c.reserve = reserve;
  return c;
}

/// R⁺: rows grow by a few pairs per iteration for many iterations. The slack of a new segment is
/// half the row (capacity grows geometrically, O(log) segments a row) and at least 1, not the
/// default mean row length: on meshes that left R⁺'s buffer 1.8x its pairs instead of 1.4x.
dcsr_config closure_config() {
  dcsr_config c;
  c.alpha = 1;
  return c;
}

template <class S>
dcsr_matrix<pattern, S> packed_copy(const dcsr_matrix<pattern, S>& A) {
  return dcsr_matrix<pattern, S>::from_csr(A.to_csr(), packed_config(A.rows(), A.cols(), 0));
}

// The loop. `plus` holds Δ₀ on entry (it is R⁺ so far) and R⁺ on return.
template <class S>
void semi_naive(const csr_matrix<pattern, S>& R, dcsr_matrix<pattern, S>& plus, const closure_options& opt,
                closure_stats& st) {
  const auto t0 = std::chrono::steady_clock::now();
  const spmm_operand<pattern> B = operand(R);
  dcsr_matrix<pattern, S> delta = packed_copy(plus);
  spmm_stats sst;
  while (delta.nnz() > 0) {
    ++st.iterations;
    // Δ sizes change slowly from one iteration to the next: reserving the last one's size saves
    // most buffer growth.
    dcsr_matrix<pattern, S> next(packed_config(delta.rows(), R.cols, delta.nnz()));
    next.resize(delta.rows(), R.cols);
    offset_t added = 0;
    spmm_slices<or_and, pattern, S>(
        operand(delta), B, [&plus] { return operand(plus); },
        [&](const coo_matrix<pattern, S>& part) {
          run_phase(opt.spmm, "insert", [&] {
            next.append_sorted(part, true);
            plus.append_sorted(part);
          });
          added += offset_t(part.nnz);
        },
        opt.spmm, &sst);
    if (opt.progress) opt.progress(st.iterations, added, plus.nnz());
    delta = std::move(next);
  }
  memory::synchronize();
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  st.pairs = plus.nnz();
  st.products = sst.products;
  st.slices = sst.slices;
}

void finish(closure_stats& st, closure_stats* out) {
  st.peak_bytes = memory::peak_bytes();
  if (out != nullptr) *out = st;
}
}  // namespace

template <class S>
dcsr_matrix<pattern, S> transitive_closure(const dcsr_matrix<pattern, S>& R, const closure_options& opt,
                                           closure_stats* stats) {
  FG_EXPECTS(R.rows() == R.cols(), "transitive_closure: R must be square");
  memory::reset_peak();
  closure_stats st;
  // R⁺ starts as R with repeats collapsed (a store may accumulate them); R is read as CSR.
  dcsr_matrix<pattern, S> plus = dcsr_matrix<pattern, S>::from_coo(R.to_coo(), R.rows(), R.cols(), closure_config());
  const csr_matrix<pattern, S> r = plus.to_csr();
  semi_naive(r, plus, opt, st);
  finish(st, stats);
  return plus;
}

template <class S>
dcsr_matrix<pattern, S> reachable(const dcsr_matrix<pattern, S>& R, const std::vector<vertex_t>& sources,
                                  const closure_options& opt, closure_stats* stats) {
  FG_EXPECTS(R.rows() == R.cols(), "reachable: R must be square");
  for (vertex_t s : sources)
    FG_EXPECTS(s >= 0 && s < R.rows(), "reachable: source " + std::to_string(s) + " is not a vertex");
  memory::reset_peak();
  closure_stats st;
  const auto m = vertex_t(sources.size());
  const dcsr_matrix<pattern, S> once = dcsr_matrix<pattern, S>::from_coo(R.to_coo(), R.rows(), R.cols());
  const csr_matrix<pattern, S> r = once.to_csr();
  // Δ₀ = P · R with P(i, sources[i]) = 1: the sources' rows of R, gathered by the SpMM itself.
  std::vector<vertex_t> rows(sources.size());
  std::iota(rows.begin(), rows.end(), 0);
  dcsr_config pick;
  pick.square = false;
  const auto P = dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(rows, sources), m, R.rows(), pick);
  spmm_options first = opt.spmm;
  first.result = closure_config();
  first.result.square = false;
  dcsr_matrix<pattern, S> plus = spmm<or_and>(P, r, first);
  semi_naive(r, plus, opt, st);
  finish(st, stats);
  return plus;
}

namespace {
template <class S>
closure_run closure_on(const edge_file& f, const std::vector<vertex_t>* sources, const closure_options& opt,
                       bool want_pairs) {
  FG_EXPECTS(f.num_vertices < 2147483647, "closure: too many vertices");
  const auto n = vertex_t(f.num_vertices);
  closure_run run;
  dcsr_matrix<pattern, S> plus;
  {
    const auto R = dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(f.src, f.dst), n, n);
    plus = sources != nullptr ? reachable(R, *sources, opt, &run.stats) : transitive_closure(R, opt, &run.stats);
  }
  if (want_pairs) {
    const csr_matrix<pattern, S> c = plus.to_csr();
    plus = dcsr_matrix<pattern, S>();  // free R⁺ before the host copies
    run.row_ptr = to_vector(c.row_ptr);
    run.col = to_vector(c.col);
    // Rows are appended batch by batch: sort each for a deterministic output.
    for (std::size_t i = 0; i + 1 < run.row_ptr.size(); ++i)
      std::sort(run.col.begin() + run.row_ptr[i], run.col.begin() + run.row_ptr[i + 1]);
  }
  return run;
}
}  // namespace

closure_run closure_of_file(const edge_file& f, const std::vector<vertex_t>* sources, const closure_options& opt,
                            exec where, bool want_pairs) {
  return where == exec::reference ? closure_on<host_space>(f, sources, opt, want_pairs)
                                  : closure_on<device_space>(f, sources, opt, want_pairs);
}

#define FG_INSTANTIATE(S)                                                                                  \
  template dcsr_matrix<pattern, S> transitive_closure<S>(const dcsr_matrix<pattern, S>&, const closure_options&, \
                                                         closure_stats*);                                  \
  template dcsr_matrix<pattern, S> reachable<S>(const dcsr_matrix<pattern, S>&, const std::vector<vertex_t>&, \
                                                const closure_options&, closure_stats*);
FG_INSTANTIATE(host_space)
FG_INSTANTIATE(device_space)
#undef FG_INSTANTIATE

}  // namespace fg
