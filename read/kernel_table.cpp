// The read kernels' table (read/kernel_table.hpp).
#include "read/kernel_table.hpp"

#include "core/error.hpp"

namespace fg {

const std::vector<read_kernel>& read_kernels() {
  using k = kernel_id;
  using s = row_share;
  //                                  share        in place sized snapshot mixed inner  bits  what  multi
  static const std::vector<read_kernel> table = {
      {k::dcsr, "dcsr", s::sub_warp, true, false, false, false, nullptr, 31, "the store itself: segment walks (DCSR, King et al.)", true},
      {k::csr_vector, "csr_vector", s::sub_warp, false, false, true, false, nullptr, 31, "CSR, a sub-warp a row"},
      {k::csr_scalar, "csr_scalar", s::thread, false, false, true, false, nullptr, 31, "CSR, a thread a row"},
      {k::csr_adaptive, "csr_adaptive", s::split, false, false, false, false, nullptr, 31, "CSR-Adaptive row blocks"},
      {k::csr_merge, "csr_merge", s::split, false, false, false, true, nullptr, 31, "merge-path CSR (Merrill & Garland)"},
      {k::cmrs, "cmrs", s::split, false, false, false, false, nullptr, 28, "CMRS strips (Koza et al.)"},
      {k::cmrs_modified, "cmrs_modified", s::split, false, false, false, false, nullptr, 28, "CMRS, modified variant"},
      {k::sell, "sell", s::split, false, false, false, false, nullptr, 31, "SELL-C-sigma, C 32, sigma 256 (Kreutzer et al.)"},
      {k::hyb, "hyb", s::split, false, false, false, false, nullptr, 31, "ELL + COO tail"},
      {k::suraa_dp, "suraa_dp", s::split, false, false, false, false, nullptr, 31, "SURAA, G1 by dynamic parallelism"},
      {k::suraa_once, "suraa_once", s::split, false, false, false, false, nullptr, 31, "SURAA, one launch a group"},
      {k::adcsr, "adcsr", s::split, false, true, false, false, nullptr, 31, "rows binned by length (ADCSR)"},
      {k::dbg_merge, "dbg_merge", s::split, false, false, false, false, "csr_merge", 31, "merge-path CSR over the DBG renumbering"},
      {k::dbg_vector, "dbg_vector", s::split, false, false, false, false, "csr_vector", 31, "sub-warp CSR over the DBG renumbering"},
      {k::colsort, "colsort", s::split, false, false, false, false, nullptr, 31, "column-sorted row tiles"},
  };
  return table;
}

const read_kernel* find_kernel(const std::string& name) {
  for (const read_kernel& k : read_kernels())
    if (name == k.name) return &k;
  return nullptr;
}

const read_kernel& kernel_named(const std::string& name) {
  if (const read_kernel* k = find_kernel(name)) return *k;
  std::string all;
  for (const read_kernel& k : read_kernels()) all += (all.empty() ? "" : ", ") + std::string(k.name);
  throw invalid_argument("unknown kernel '" + name + "' (auto or one of: " + all + ")");
}

std::string unrenumbered(const std::string& kernel) {
  const read_kernel& k = kernel_named(kernel);
  return k.inner ? k.inner : k.name;
}

std::string why_not(const read_kernel& k, long long rows, long long cols) {
  if (k.column_bits < 31 && cols >= (1LL << k.column_bits))
    return "columns >= 2^" + std::to_string(k.column_bits) + " do not fit " + k.name + "'s column field";
  if (k.inner && rows != cols) return "a renumbering renames rows and columns alike: the matrix must be square";
  return "";
}

}  // namespace fg
