// How the engine reads a DCSR store: which kernel, through which view, and when to choose again.
// One reader serves a user's reads (graph::spmv: y = A x over a store that batches change between
// reads) and the read side of a fixed point (PageRank): it probes the store, chooses for the reads
// the iteration's convergence predicts, races leaders the model cannot tell apart (read/race.hpp),
// corrects the model by the store's measured read, and logs every decision in one reason. The
// algorithm keeps only its iteration: its vectors and its update (docs/architecture.md, "Kernel
// selection").
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "read/cost_model.hpp"
#include "read/profile.hpp"
#include "read/views.hpp"

namespace fg {

struct reader_options {
  std::string kernel = "auto";  ///< "auto": the cost model chooses; else a row of read_kernels()
  double expected_reads = 1;    ///< the reads an iteration expects a priori (PageRank: ln(tol n / 2) / ln d)
  int max_reads = std::numeric_limits<int>::max();  ///< the iteration's cap
  double tol = 0;               ///< the iteration ends when its change < tol (for the reads-left estimate)
  double slowest = 0;           ///< the slowest contraction the iteration can have (PageRank: d); 0: unknown
  bool float_reads = false;     ///< the iteration reads with float x where the kernel can (read_kernel::mixed)
  /// k > 0: the iteration reads k vectors at once (spmv_view::run_k), so only kernels with such a
  /// read (read_kernel::multi) are chosen; 0: one vector a read (spmv_view::run)
  int vectors = 0;
};

/// One iteration as the reader sees it.
struct step_report {
  bool going = true;        ///< false: converged, or out of iterations
  double change = 0;        ///< its convergence measure (PageRank: the L1 change)
  double read_seconds = 0;  ///< its read's device time
};

template <class V, class Space>
class reader {
 public:
  using view_type = spmv_view<V, Space>;
  /// One iteration reading with the view it is given.
  using step_type = std::function<step_report(const view_type&)>;

  /// @throws fg::invalid_argument for an unknown kernel, expected reads < 1 or max reads < 1
  explicit reader(reader_options o = {});

  /// @brief A fixed point over A: runs `step` until it says stop. With kernel "auto" the first
  ///        iterations read the store itself (no conversion) unless a view pays for itself within
  ///        them, while the convergence rate is measured; then the model chooses for the reads that
  ///        rate predicts, again whenever the run outlives its estimate, racing close leaders.
  void iterate(const dcsr_matrix<V, Space>& A, const step_type& step);

  /// @brief y = A x (plus-times, double vectors), one read of a user's phase. `expected_reads`: the
  ///        reads expected before A changes, this one included; 0: unknown, taken as the reads of
  ///        this content so far (chosen again as they double: a view is built once it would have
  ///        paid for itself). The view is kept while A's content is unchanged.
  /// @throws fg::invalid_argument for x / y sizes that do not match A, or expected_reads < 0
  void spmv(const dcsr_matrix<V, Space>& A, const array<double, Space>& x, array<double, Space>& y,
            double expected_reads = 0);

  const std::string& kernel() const noexcept { return kernel_; }
  const std::string& reason() const noexcept { return reason_; }
  double view_seconds() const noexcept { return view_seconds_; }      ///< building views (profile, selection, conversions)
  double decide_seconds() const noexcept { return decide_seconds_; }  ///< host time of decisions (in view_seconds)
  double read_seconds() const noexcept { return read_seconds_; }      ///< the iterations' reads (device time)
  std::size_t decisions() const noexcept { return decisions_; }
  const view_cache<V, Space>& views() const noexcept { return cache_; }
  /// Bytes of the views it holds (a fixed point's, a user's phase's) beyond the store.
  std::size_t bytes() const noexcept { return view_.bytes + cache_.bytes(); }

 private:
  void start(const dcsr_matrix<V, Space>& A);
  bool choose(const dcsr_matrix<V, Space>& A, const std::function<bool(const view_type&)>& counted);
  void note_in_place();

  reader_options opt_;
  std::shared_ptr<const calibration> calibration_;
  std::string kernel_, reason_;
  double view_seconds_ = 0, decide_seconds_ = 0, read_seconds_ = 0;
  std::size_t decisions_ = 0;
  // A fixed point's state (iterate)
  matrix_profile prof_;
  std::vector<kernel_estimate> model_;
  view_type view_;
  std::vector<double> changes_;
  std::vector<std::string> raced_;
  int steps_ = 0, next_choice_ = 0;
  bool fixed_ = false;                      // one kernel can do the reads: nothing to choose after the start
  double store_read_ = 0, store_spmv_ = 0;  // the store's fastest warm step (host) and read (device)
  std::string measured_;                    // the store's measured read, once it replaced the model's
  std::ostringstream log_;
  // A user's phase (spmv)
  view_cache<V, Space> cache_;
  std::uint64_t version_ = std::numeric_limits<std::uint64_t>::max();  // A's content when chosen
  const void* store_ = nullptr;                                          // ... and which store
  double reads_ = 0, reads_of_content_ = 0;
};

/// @brief Vectors an iteration keeps in the order of the view it reads: a renumbered view (dbg_*)
///        reads them in its order, so they move once when a view of another order is read, not at
///        every read. follow(nullptr) puts them back in the store's order.
template <class Space>
class vectors_in_order {
 public:
  explicit vectors_in_order(std::vector<array<double, Space>*> vectors) : vectors_(std::move(vectors)) {}
  void follow(const std::shared_ptr<const vertex_order<Space>>& to);

 private:
  std::vector<array<double, Space>*> vectors_;
  std::shared_ptr<const vertex_order<Space>> order_;
};

}  // namespace fg
