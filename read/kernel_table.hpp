// The read kernels: one row each, the only place a kernel is named. The views build a kernel by its
// row (read/views.cpp), the cost model predicts and checks it by its row (read/cost_model.cpp), and
// `fluxgraph bench spmv` times every row (bench/spmv_kernels.cpp). A new read format is a storage
// format (docs/formats-howto.md) plus one row here and its case in views.cpp's build.
#pragma once
#include <string>
#include <vector>

namespace fg {

/// Each kernel's build case in read/views.cpp (a switch: the compiler names a row without one).
enum class kernel_id {
  dcsr, csr_vector, csr_scalar, csr_adaptive, csr_merge, cmrs, cmrs_modified, sell, hyb, suraa_dp, suraa_once, adcsr,
  dbg_merge, dbg_vector, colsort
};

/// How a kernel lays rows over a warp: a fixed share of it per row (the longest row then bounds the
/// read: the cost model's walk bound), or long rows split over several.
enum class row_share {
  sub_warp,  ///< a sub-warp of W lanes a row (W: the power of two >= mean row length, in [2, 32])
  thread,    ///< one thread a row
  split      ///< merge paths, row blocks, slices, bins: a long row is shared
};

struct read_kernel {
  kernel_id id;
  const char* name;            ///< the name users, calibration points and reports use
  row_share share = row_share::split;
  bool in_place = false;       ///< reads the store itself: no snapshot, no conversion (DCSR)
  bool in_place_sized = false; ///< reads the store itself when it is laid out by size (ADCSR)
  bool is_snapshot = false;    ///< its format is the store's CSR snapshot as it is: no conversion of its own
  bool mixed = false;          ///< has a read with float x and double sums (spmv_view::run_mixed)
  const char* inner = nullptr; ///< a renumbered view (DBG order): the kernel it runs on the renumbered copy
  int column_bits = 31;        ///< columns it can address (CMRS packs a column into 28 bits)
  const char* what = "";       ///< one line: the format and the paper it follows
  bool multi = false;          ///< has a read of k vectors at once (spmv_view::run_k)
};

/// Every read kernel, in the selector's fixed order.
const std::vector<read_kernel>& read_kernels();
/// The kernel of that name, or null.
const read_kernel* find_kernel(const std::string& name);
/// The kernel of that name. @throws fg::invalid_argument naming every kernel when there is none
const read_kernel& kernel_named(const std::string& name);
/// The kernel a renumbered view runs on its copy (dbg_merge -> csr_merge); any other, itself: for a
/// matrix the renumbering does not apply to (not square).
std::string unrenumbered(const std::string& kernel);
/// Why `k` cannot read a rows x cols matrix ("" when it can).
std::string why_not(const read_kernel& k, long long rows, long long cols);

}  // namespace fg
