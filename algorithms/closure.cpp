// Semi-naive transitive closure and reachability (see closure.hpp), written once for both twins on
// top of spmm_slices: each slice of Δₖ₊₁ is sorted, new and disjoint from R⁺, so it is appended to
// both Δₖ₊₁ and R⁺ as it comes.
//
// Memory (pattern stores keep no values): R as CSR; R⁺ as DCSR: 4 bytes a pair, its buffer 1.35-1.8x
// the pairs at the end (measured on the test graphs: new segments' slack, buffer growth by 1.5x),
// plus the segment table (k = 8 pairs of 8-byte offsets a vertex); while R⁺ compacts into a larger
// buffer, old and new coexist (about 2.5x the old capacity); Δ as packed DCSR; one SpMM slice's
// workspace (<= 2 GiB); R⁺'s membership bitmap (below). Measured peaks on an H100
// (docs/performance.md#closure): fe_ocean (1,669,750,513 pairs: 6.7 GB of column ids) 19.4 GB,
// usroads (871,365,688) 9.2 GB.
#include "algorithms/closure.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <type_traits>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "storage/detail/spmm_kernels.hpp"

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

// R⁺'s membership bitmap (spmm_operand::bits): a bit per cell, set for every pair R⁺ holds, so a
// round's set difference tests each new product's bit instead of reading every active row of R⁺
// (usroads: 61% of the time went to those reads, rows of ~6,700 pairs for a few products each).
// Device twin only, when rows x cols bits (and the pairs' copy that marks them) fit an eighth of
// free memory and at most 8 GiB: usroads 2.1 GB, fe_ocean 2.6 GB; by default only from 32768 rows
// (below, rows are short or the bitmap outweighs R⁺). Off otherwise: masks read R⁺'s rows.
template <class S>
struct membership {
  array<std::uint32_t, S> bits;
  offset_t words = 0;

  membership(const dcsr_matrix<pattern, S>& plus, int wanted) {
    if constexpr (std::is_same_v<S, device_space>) {
      if (wanted == 0 || (wanted < 0 && plus.rows() < 32768)) return;
      const offset_t w = (offset_t(plus.cols()) + 31) / 32;
      const double bytes = double(plus.rows()) * double(w) * 4 + double(plus.nnz()) * 8;
      if (plus.rows() == 0 || bytes > std::min(double(memory::available_bytes()) / 8, 8.0 * double(1 << 30))) return;
      bits = array<std::uint32_t, S>(std::size_t(plus.rows()) * std::size_t(w));
      memory::zero_on_device(bits.data(), bits.bytes());
      words = w;
      mark(plus.to_coo());
    }
  }
  void mark(const coo_matrix<pattern, S>& part) {
    if (words > 0) detail::spmm_kernels<S>::mark(bits.data(), words, part.row.data(), part.col.data(), part.nnz);
  }
  spmm_operand<pattern> mask(const dcsr_matrix<pattern, S>& plus) const {
    spmm_operand<pattern> m = operand(plus);
    if (words > 0) {
      m.bits = bits.data();
      m.bit_words = words;
    }
    return m;
  }
};

// The loop: Δ·B masked by R⁺ until Δ is empty; `plus` holds R⁺ so far and `delta` the pairs it
// gained last (Δ₀). B is R as CSR (from scratch) or the store itself (after a batch).
template <class S>
void semi_naive(const spmm_operand<pattern>& B, dcsr_matrix<pattern, S>& plus, membership<S>& in_plus,
                dcsr_matrix<pattern, S> delta, const closure_options& opt, closure_stats& st, spmm_stats& sst) {
  while (delta.nnz() > 0) {
    ++st.iterations;
    // Δ sizes change slowly from one iteration to the next: reserving the last one's size saves
    // most buffer growth.
    dcsr_matrix<pattern, S> next(packed_config(delta.rows(), B.cols, delta.nnz()));
    next.resize(delta.rows(), B.cols);
    offset_t added = 0;
    spmm_slices<or_and, pattern, S>(
        operand(delta), B, [&] { return in_plus.mask(plus); },
        [&](const coo_matrix<pattern, S>& part) {
          run_phase(opt.spmm, "insert", [&] {
            next.append_sorted(part, true);
            plus.append_sorted(part);
            in_plus.mark(part);
          });
          added += offset_t(part.nnz);
        },
        opt.spmm, &sst);
    if (opt.progress) opt.progress(st.iterations, added, plus.nnz());
    delta = std::move(next);
  }
}

// Runs `work` and fills the statistics every entry point reports.
template <class S>
void measured(const dcsr_matrix<pattern, S>& plus, closure_stats& st, const std::function<void(spmm_stats&)>& work) {
  const auto t0 = std::chrono::steady_clock::now();
  spmm_stats sst;
  work(sst);
  memory::synchronize();
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  st.pairs = plus.nnz();
  st.products = sst.products;
  st.slices = sst.slices;
}

// Δ₀ of an insert batch E (as CSR) into R, given R⁺ = plus before it; P picks plus's rows out of R's
// (the identity for a closure, P(i, sources[i]) for reachability). Why it is enough: take a new
// pair's path and its prefix pairs; from the first prefix pair not in R⁺ on, every one is new, and
// that first one is an old pair (or P's row) followed by an edge of R that R⁺ did not already
// absorb, so an edge of E. Hence Δ₀ = (R⁺·E ∪ P·E) \ R⁺, and Δ·(R ∪ E) masked by R⁺ finds the rest.
// R⁺·E reads all of R⁺ once (there is no column index to find the pairs ending at E's sources).
template <class S>
dcsr_matrix<pattern, S> batch_delta(dcsr_matrix<pattern, S>& plus, membership<S>& in_plus,
                                    const spmm_operand<pattern>& P, const csr_matrix<pattern, S>& E,
                                    const closure_options& opt, spmm_stats& sst) {
  dcsr_matrix<pattern, S> delta(packed_config(plus.rows(), plus.cols(), E.nnz()));
  delta.resize(plus.rows(), plus.cols());
  // R⁺·E \ R⁺: R⁺ is the left operand, so it must not change until the product is done.
  spmm_slices<or_and, pattern, S>(
      operand(plus), operand(E), [&] { return in_plus.mask(plus); },
      [&](const coo_matrix<pattern, S>& part) { run_phase(opt.spmm, "insert", [&] { delta.append_sorted(part, true); }); },
      opt.spmm, &sst);
  if (delta.nnz() > 0)
    run_phase(opt.spmm, "insert", [&] {
      const coo_matrix<pattern, S> found = delta.to_coo();
      plus.append_sorted(found);
      in_plus.mark(found);
    });
  // P·E \ (R⁺ ∪ the above): the batch's own edges (from the sources' rows).
  spmm_slices<or_and, pattern, S>(
      P, operand(E), [&] { return in_plus.mask(plus); },
      [&](const coo_matrix<pattern, S>& part) {
        run_phase(opt.spmm, "insert", [&] {
          delta.append_sorted(part);
          plus.append_sorted(part);
          in_plus.mark(part);
        });
      },
      opt.spmm, &sst);
  if (opt.progress) opt.progress(0, delta.nnz(), plus.nnz());
  return delta;
}

// The batch as CSR over n x n, repeats collapsed.
template <class S>
csr_matrix<pattern, S> batch_csr(const coo_matrix<pattern, S>& added, vertex_t n) {
  return dcsr_matrix<pattern, S>::from_coo(added, n, n, packed_config(n, n, 0)).to_csr();
}

// The selector of reachable(): P(i, sources[i]) = 1, m x n.
template <class S>
csr_matrix<pattern, S> selector(const std::vector<vertex_t>& sources, vertex_t n) {
  std::vector<vertex_t> rows(sources.size());
  std::iota(rows.begin(), rows.end(), 0);
  dcsr_config pick = packed_config(vertex_t(sources.size()), n, 0);
  pick.square = false;
  return dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(rows, sources), vertex_t(sources.size()), n, pick)
      .to_csr();
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
  measured(plus, st, [&](spmm_stats& sst) {
    membership<S> in_plus(plus, opt.bitmap);
    semi_naive(operand(r), plus, in_plus, packed_copy(plus), opt, st, sst);
  });
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
  const dcsr_matrix<pattern, S> once = dcsr_matrix<pattern, S>::from_coo(R.to_coo(), R.rows(), R.cols());
  const csr_matrix<pattern, S> r = once.to_csr();
  // Δ₀ = P · R with P(i, sources[i]) = 1: the sources' rows of R, gathered by the SpMM itself.
  const csr_matrix<pattern, S> P = selector<S>(sources, R.rows());
  spmm_options first = opt.spmm;
  first.result = closure_config();
  first.result.square = false;
  dcsr_matrix<pattern, S> plus = spmm<or_and>(P, r, first);
  measured(plus, st, [&](spmm_stats& sst) {
    membership<S> in_plus(plus, opt.bitmap);
    semi_naive(operand(r), plus, in_plus, packed_copy(plus), opt, st, sst);
  });
  finish(st, stats);
  return plus;
}

namespace {
template <class S>
void extend(dcsr_matrix<pattern, S>& plus, const dcsr_matrix<pattern, S>& R, const std::vector<vertex_t>* sources,
            const coo_matrix<pattern, S>& added, const closure_options& opt, closure_stats* stats) {
  memory::reset_peak();
  closure_stats st;
  const vertex_t n = R.rows();
  plus.resize(sources ? plus.rows() : n, n);
  if (added.nnz > 0) {
    const csr_matrix<pattern, S> E = batch_csr(added, n);
    // The closure's P is the identity: row u of P·E is row u of E.
    std::vector<vertex_t> all;
    if (sources == nullptr) {
      all.resize(std::size_t(n));
      std::iota(all.begin(), all.end(), 0);
    }
    const csr_matrix<pattern, S> P = selector<S>(sources ? *sources : all, n);
    // Rounds after the batch read R, which holds E, straight from the store: no CSR copy per batch.
    measured(plus, st, [&](spmm_stats& sst) {
      membership<S> in_plus(plus, opt.bitmap);
      semi_naive(operand(R), plus, in_plus, batch_delta(plus, in_plus, operand(P), E, opt, sst), opt, st, sst);
    });
  }
  st.pairs = plus.nnz();
  finish(st, stats);
}
}  // namespace

template <class S>
void extend_closure(dcsr_matrix<pattern, S>& plus, const dcsr_matrix<pattern, S>& R,
                    const coo_matrix<pattern, S>& added, const closure_options& opt, closure_stats* stats) {
  FG_EXPECTS(R.rows() == R.cols(), "extend_closure: R must be square");
  FG_EXPECTS(plus.rows() <= R.rows() && plus.cols() <= R.cols(), "extend_closure: R+ is larger than R");
  extend<S>(plus, R, nullptr, added, opt, stats);
}

template <class S>
void extend_reachable(dcsr_matrix<pattern, S>& plus, const dcsr_matrix<pattern, S>& R,
                      const std::vector<vertex_t>& sources, const coo_matrix<pattern, S>& added,
                      const closure_options& opt, closure_stats* stats) {
  FG_EXPECTS(R.rows() == R.cols(), "extend_reachable: R must be square");
  FG_EXPECTS(plus.rows() == vertex_t(sources.size()) && plus.cols() <= R.cols(),
             "extend_reachable: R+ must have one row per source and no more columns than R");
  for (vertex_t s : sources)
    FG_EXPECTS(s >= 0 && s < R.rows(), "extend_reachable: source " + std::to_string(s) + " is not a vertex");
  extend<S>(plus, R, &sources, added, opt, stats);
}

#define FG_INSTANTIATE(S)                                                                                  \
  template dcsr_matrix<pattern, S> transitive_closure<S>(const dcsr_matrix<pattern, S>&, const closure_options&, \
                                                         closure_stats*);                                  \
  template dcsr_matrix<pattern, S> reachable<S>(const dcsr_matrix<pattern, S>&, const std::vector<vertex_t>&, \
                                                const closure_options&, closure_stats*);     \
  template void extend_closure<S>(dcsr_matrix<pattern, S>&, const dcsr_matrix<pattern, S>&,             \
                                  const coo_matrix<pattern, S>&, const closure_options&, closure_stats*); \
  template void extend_reachable<S>(dcsr_matrix<pattern, S>&, const dcsr_matrix<pattern, S>&,           \
                                    const std::vector<vertex_t>&, const coo_matrix<pattern, S>&,        \
                                    const closure_options&, closure_stats*);
FG_INSTANTIATE(host_space)
FG_INSTANTIATE(device_space)
#undef FG_INSTANTIATE

}  // namespace fg
