// The reader of read/reader.hpp: probe, choose, race, correct, log.
#include "read/reader.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "read/race.hpp"

namespace fg {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// Iterations on the store before choosing: two contraction ratios.
constexpr int probe = 3;
// A read with float x against the calibration's double-x read of the same kernel: the calibration
// times pattern reads with double x only, and a float x gathers half its bytes; 0.92x on the H100
// where the gathers miss (csr_merge, rmat-24; docs/architecture.md, "Float reads").
constexpr double float_read_factor = 0.92;

// The table's kernel that reads the store itself.
const std::string& store_kernel() {
  static const std::string name = [] {
    for (const read_kernel& k : read_kernels())
      if (k.in_place) return std::string(k.name);
    return std::string();
  }();
  return name;
}

// The kernels that read k vectors at once, by name.
std::string multi_kernels() {
  std::string out;
  for (const read_kernel& k : read_kernels())
    if (k.multi) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}
}  // namespace

template <class V, class S>
reader<V, S>::reader(reader_options o) : opt_(std::move(o)) {
  if (opt_.kernel != "auto") {
    const read_kernel& k = kernel_named(opt_.kernel);  // throws for an unknown name
    FG_EXPECTS(opt_.vectors == 0 || k.multi, "reader: kernel " + opt_.kernel + " reads one vector at a time; " +
                                                 std::to_string(opt_.vectors) + " vectors a read need one of: " + multi_kernels());
  }
  FG_EXPECTS(opt_.vectors >= 0, "reader: vectors a read must be >= 0");
  FG_EXPECTS(opt_.expected_reads >= 1 && opt_.max_reads >= 1, "reader: expected and max reads must be >= 1");
  calibration_ = load_calibration(device_description());
  log_.precision(3);
}

template <class V, class S>
void reader<V, S>::note_in_place() {  // ADCSR over a size-ordered store reads it with no copy: say so
  if (view_.reads_store && !kernel_named(view_.kernel).in_place) reason_ += "; reads the size-ordered store itself, no copy";
}

// Every kernel's predicted read and conversion, once: a choice made later only ranks them for the
// reads left (the neighbour search is most of a selection's ~20 us). Then the first view.
template <class V, class S>
void reader<V, S>::start(const dcsr_matrix<V, S>& A) {
  const auto tv = clock_type::now();
  prof_ = profile(A);
  model_ = estimate_kernels(prof_, 8, *calibration_);
  if (opt_.float_reads)
    for (auto& e : model_)
      if (kernel_named(e.kernel).mixed) e.spmv_ms *= float_read_factor;
  kernel_ = store_kernel();
  reason_ = "the store itself while the convergence rate is measured";
  int choices = 0;
  if (opt_.vectors > 0) {  // k vectors a read: only the kernels with such a read
    for (auto& e : model_) {
      if (!kernel_named(e.kernel).multi) e.feasible = false, e.why_not = "reads one vector at a time";
      else choices += e.feasible;
    }
  }
  fixed_ = opt_.vectors > 0 && choices <= 1;
  if (fixed_) {
    for (const read_kernel& k : read_kernels())
      if (k.multi) kernel_ = k.name;
    reason_ = std::to_string(opt_.vectors) + " vectors a read: the one kernel with a k-vector read";
  } else if (opt_.kernel == "auto") {
    // A view that pays for itself within the probe's own reads beats the store for any longer run
    // too (a lower read cost), so it is built at once; the probe then runs on it (rmat-24 on the
    // H100: csr_merge's build and 3 reads, 3.6 + 3 x 2.4 ms, against DCSR's 3 x 4.0).
    const selection early = select_kernel(model_, prof_, probe);
    if (early.kernel != kernel_) kernel_ = early.kernel, reason_ = "pays for itself within the first " + std::to_string(probe) + " reads: " + early.reason;
  } else {  // a forced kernel still gets the model's view of it in the reason
    const selection sel = select_kernel(model_, prof_, opt_.expected_reads, opt_.kernel);
    kernel_ = sel.kernel, reason_ = sel.reason;
  }
  decide_seconds_ += since(tv);
  ++decisions_;
  view_ = make_view(A, kernel_);
  note_in_place();
  if (opt_.kernel == "auto" && kernel_ != store_kernel()) log_ << "at the start, " << kernel_ << " " << reason_;
  view_seconds_ += since(tv);
}

template <class V, class S>
void reader<V, S>::iterate(const dcsr_matrix<V, S>& A, const step_type& step) {
  start(A);
  store_read_ = store_spmv_ = std::numeric_limits<double>::infinity();
  next_choice_ = probe;
  // One step, and what it tells of the store's speed: its warm probe reads (the faster of two)
  // replace the model's, which comes from the nearest calibration matrix.
  const std::function<bool(const view_type&)> counted = [&](const view_type& v) {
    const auto t = clock_type::now();
    const step_report r = step(v);
    read_seconds_ += r.read_seconds;
    if (steps_ > 0 && kernel_named(v.kernel).in_place) {  // the first read runs cold
      store_read_ = std::min(store_read_, since(t));
      if (opt_.kernel == "auto" && steps_ < probe) store_spmv_ = std::min(store_spmv_, r.read_seconds);
    }
    ++steps_;
    if (r.going) changes_.push_back(r.change);
    return r.going;
  };
  for (bool going = true; going;) {
    going = counted(view_);
    if (going && opt_.kernel == "auto" && !fixed_ && steps_ == next_choice_) going = choose(A, counted);
  }
}

// After the probe: the model's choice for the reads left; where its leaders are too close for it to
// tell, a race on the next iterations settles it. The reads left come from the contraction so far,
// which early iterations overstate (Slashdot: 0.39 per iteration at the third, 0.6-0.85 later), so
// the choice is made again whenever the run outlives its estimate; a kernel raced is not raced
// again. Returns false when the run ended in a race.
template <class V, class S>
bool reader<V, S>::choose(const dcsr_matrix<V, S>& A, const std::function<bool(const view_type&)>& counted) {
  const auto tsel = clock_type::now();
  const double left = estimate_reads_left(changes_, opt_.tol, opt_.expected_reads - probe, opt_.max_reads - steps_, opt_.slowest);
  next_choice_ = steps_ + int(std::ceil(left)) + 1;
  // The model's cheapest kernel for `left` reads: a comparison of totals, no strings. A later check
  // that finds the view in use still cheapest ends there (a full decision took 20-50 us on the GPU host).
  auto cheapest = [&] {
    const kernel_estimate* best = nullptr;
    for (const auto& e : model_)
      if (e.feasible && (!best || e.convert_ms + left * e.spmv_ms < best->convert_ms + left * best->spmv_ms)) best = &e;
    return best ? best->kernel : view_.kernel;
  };
  if (steps_ == probe) {
    // The store's read as measured replaces the model's when the two differ by more than a quarter:
    // the nearest point can be another graph (cnr-2000's in-edges read like rmat-20's on the H100:
    // 0.05 ms predicted, 0.08 measured, and auto stayed on DCSR at 1.7x csr_adaptive).
    const double read_ms = 1e3 * store_spmv_;
    for (auto& e : model_)
      if (kernel_named(e.kernel).in_place && e.feasible && std::isfinite(read_ms) &&
          (read_ms > 1.25 * e.spmv_ms || read_ms < e.spmv_ms / 1.25)) {
        std::ostringstream m;
        m.precision(3);
        m << e.kernel << " measured " << read_ms << " ms per read (model " << e.spmv_ms << "); ";
        measured_ = m.str();
        e.spmv_ms = read_ms;
      }
  } else if (cheapest() == view_.kernel) {
    decide_seconds_ += since(tsel);
    return true;  // still the model's choice: nothing new to say
  }
  const selection again = select_kernel(model_, prof_, left);
  std::vector<std::string> field = race_contenders(again, left);
  if (!raced_.empty()) field = {std::find(raced_.begin(), raced_.end(), again.kernel) != raced_.end() ? view_.kernel : again.kernel};
  if (field.size() == 1 && field.front() != view_.kernel) {
    // Switch only for a clear predicted gain: staying costs no build, and a late switch for a few
    // reads is within the model's error (cnr-2000 on the H100: a switch at iteration 39 of 41).
    double stay = 0, go = 0;
    for (const auto& e : again.estimates) {
      if (e.kernel == view_.kernel) stay = left * e.spmv_ms;
      if (e.kernel == field.front()) go = e.total_ms;
    }
    if (stay > 0 && go > 0.9 * stay) field = {view_.kernel};
  }
  decide_seconds_ += since(tsel);
  ++decisions_;
  if (field.size() == 1 && field.front() == view_.kernel && steps_ > probe) return true;  // nothing new to say
  log_ << (log_.tellp() > 0 ? "; " : "") << "at iteration " << steps_ << ", about " << left << " reads left (a priori "
       << opt_.expected_reads << "): " << (steps_ == probe ? measured_ : "") << again.reason;
  bool going = true;
  const auto tb = clock_type::now();
  double built = 0;
  if (field.size() > 1) {
    race_lap known;
    known.kernel = view_.kernel;
    known.read_seconds = std::isfinite(store_read_) ? store_read_ : 0.0;
    race_outcome<V, S> r = race<V, S>(A, field, race_rule{}.probes, std::move(view_), known, counted);
    view_ = std::move(r.view);
    built = r.build_seconds;
    raced_ = field;
    going = r.finished;
    log_ << "; raced " << r.summary() << (r.finished ? " -> " + view_.kernel : ": converged during the race");
  } else if (field.front() != view_.kernel) {
    view_ = make_view(A, field.front());
    built = since(tb);
    log_ << " -> " << view_.kernel;
  } else {
    log_ << " -> stays " << view_.kernel;
  }
  view_seconds_ += built;
  kernel_ = view_.kernel;
  reason_ = log_.str();
  note_in_place();
  return going;
}

template <class V, class S>
void reader<V, S>::spmv(const dcsr_matrix<V, S>& A, const array<double, S>& x, array<double, S>& y, double expected_reads) {
  FG_EXPECTS(expected_reads >= 0, "reader: expected reads must be >= 0, got " + std::to_string(expected_reads));
  FG_EXPECTS(x.size() == std::size_t(A.cols()) && y.size() == std::size_t(A.rows()),
             "reader: x must have A.cols() and y A.rows() entries");
  if (store_ != &A) cache_ = view_cache<V, S>{};  // another store: none of the views is of it
  const bool same = store_ == &A && version_ == A.version();
  reads_of_content_ = same ? reads_of_content_ + 1 : 1;
  // Unknown: the reads this content has had so far, chosen again each time they double.
  const double expect = expected_reads > 0 ? expected_reads : reads_of_content_;
  const bool doubled = expected_reads == 0 && expect >= 2 * reads_;
  // A new store, new content or a new expectation: choose again (one profile pass, the estimates
  // and a ranking). The same content read again, as expected, costs nothing.
  if (!same || (expected_reads > 0 ? expect != reads_ : doubled)) {
    const auto t = clock_type::now();
    const selection s = select_kernel(profile(A), 8, expect, *calibration_, opt_.kernel);
    kernel_ = s.kernel, reason_ = s.reason;
    store_ = &A, version_ = A.version(), reads_ = expect;
    decide_seconds_ += since(t);
    ++decisions_;
  }
  cache_.get(A, kernel_).run(x, y);
}

template <class S>
void vectors_in_order<S>::follow(const std::shared_ptr<const vertex_order<S>>& to) {
  if (to == order_) return;
  array<double, S> moved;
  for (array<double, S>* a : vectors_) {
    if (order_) from_order(*order_, *a, moved), std::swap(*a, moved);
    if (to) to_order(*to, *a, moved), std::swap(*a, moved);
  }
  order_ = to;
}

#define FG_INSTANTIATE(V, S) template class reader<V, S>;
FG_INSTANTIATE(pattern, host_space)
FG_INSTANTIATE(double, host_space)
FG_INSTANTIATE(pattern, device_space)
FG_INSTANTIATE(double, device_space)
#undef FG_INSTANTIATE
template class vectors_in_order<host_space>;
template class vectors_in_order<device_space>;

}  // namespace fg
