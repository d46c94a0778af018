// SpMM orchestration, written once for both twins (King et al. 2016, §III-B): count partial products,
// cut the rows into slices whose workspace fits the budget, multiply slice by slice and hand each
// slice's sorted batch on. Kernels: storage/detail/spmm_kernels.hpp.
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/spmm_kernels.hpp"
#include "storage/device/spmm_device.hpp"
#include "storage/spmm.hpp"

namespace fg {

namespace {
// Default workspace cap. GPU: beyond a few hundred MB a larger slice is not faster (2 GiB is ~50M
// products, tens of ms), and memory left free is what the result and the caller's stores grow into.
// CPU build: slices that stay near the caches, and blocks small enough that malloc reuses them
// instead of mapping (and page-faulting) fresh memory for every slice.
// Rows short enough for the CUDA bins (2048 products with a mask, 16384 without) need less workspace.
#if defined(FG_WITH_CUDA)
constexpr std::size_t workspace_cap = std::size_t(2) << 30;
constexpr bool has_bins = true;
#else
constexpr std::size_t workspace_cap = std::size_t(64) << 20;
constexpr bool has_bins = false;
#endif

void run_phase(const spmm_options& o, const char* phase, const std::function<void()>& work) {
  if (o.timed) o.timed(phase, work);
  else work();
}

std::string mib(double bytes) { return std::to_string(static_cast<long long>(bytes / 1048576.0 + 0.5)) + " MiB"; }

// Greedy slices [cuts[i], cuts[i+1]): each takes rows while the prefix of their cost stays within
// the budget. cost and products are host copies of the prefix sums (rows + 1 entries). A row that
// alone passes the budget gets a slice of its own if it fits `hard` (the default budget is a cap
// chosen for speed, not what memory allows); beyond that it is an error.
std::vector<vertex_t> cut_slices(const std::vector<offset_t>& cost, const std::vector<offset_t>& products,
                                 std::size_t budget, std::size_t hard) {
  const auto rows = vertex_t(cost.size() - 1);
  std::vector<vertex_t> cuts{0};
  for (vertex_t r = 0; r < rows;) {
    const auto end = std::upper_bound(cost.begin() + r + 1, cost.end(), cost[std::size_t(r)] + offset_t(budget));
    auto r1 = vertex_t(end - cost.begin()) - 1;
    if (r1 == r && cost[std::size_t(r) + 1] - cost[std::size_t(r)] <= offset_t(hard)) r1 = r + 1;
    if (r1 == r)
      throw out_of_memory("spmm: row " + std::to_string(r) + " alone has " +
                          std::to_string(products[std::size_t(r) + 1] - products[std::size_t(r)]) +
                          " partial products and needs " + mib(double(cost[std::size_t(r) + 1] - cost[std::size_t(r)])) +
                          " of workspace, more than the budget of " + mib(double(hard)) +
                          " (spmm_options::workspace_bytes, by default a quarter of the free memory)");
    cuts.push_back(r1);
    r = r1;
  }
  return cuts;
}

// The slices of C = (A (+).(x) B) \ M in row order: on_slice(r0, r1, ptr, base, products, workspace)
// for each slice [r0, r1) that holds products (ptr: count_products's offsets, valid during the
// call), inside the "multiply" phase; it returns the slice's entries.
template <class Sr, class V, class S, class OnSlice>
void for_each_slice(const spmm_operand<V>& A, const spmm_operand<V>& B, const mask_source& mask, const spmm_options& opt,
                    spmm_stats* stats, OnSlice&& on_slice) {
  using K = detail::spmm_kernels<S>;
  using VC = spmm_value_t<Sr, V>;
  FG_EXPECTS(A.rows >= 0 && A.cols >= 0 && B.rows >= 0 && B.cols >= 0, "spmm: negative dimension");
  FG_EXPECTS(A.cols <= B.rows, "spmm: A has " + std::to_string(A.cols) + " columns but B only " +
                                   std::to_string(B.rows) + " rows");
  spmm_stats local;
  spmm_stats& st = stats != nullptr ? *stats : local;
  if (A.rows == 0) return;

  const detail::spmm_cost c = detail::spmm_cost_of(
      is_pattern_v<VC> ? 0 : sizeof(stored_t<VC>),
      !has_bins ? 0 : mask ? detail::spmm_bin_limit : detail::spmm_hash_bin_limit);
  array<offset_t, S> ptr(std::size_t(A.rows) + 1), cost(std::size_t(A.rows) + 1);
  // The CUDA bins come out of the count's pass (one host read for both).
  constexpr bool device_bins = has_bins && std::is_same_v<S, device_space>;
  array<std::uint8_t, S> label(device_bins ? std::size_t(A.rows) : 0);
  // The small path's list of rows by bin (count_small); larger products list them in multiply_rows.
  array<vertex_t, S> order(device_bins && A.rows < detail::spmm_device::small_rows ? std::size_t(A.rows) : 0);
  detail::spmm_row_bins bins;
  bins.label = label.data(), bins.order = order.data(), bins.masked = bool(mask);
  detail::product_totals total;
  run_phase(opt, "count", [&] {
    total = K::count_products(A, B, c, ptr.data(), cost.data(), device_bins ? &bins : nullptr);
  });
  const std::size_t hard = opt.workspace_bytes > 0 ? opt.workspace_bytes : memory::available_bytes() / 4;
  const std::size_t budget = opt.workspace_bytes > 0 ? hard : std::min(hard, workspace_cap);
  st.products += total.products;
  st.workspace_bytes = budget;
  if (total.products == 0) return;

  std::vector<vertex_t> cuts{0, A.rows};
  std::vector<offset_t> products;
  if (total.cost > offset_t(budget)) {  // host copies only when the product must be sliced
    products = to_vector(ptr);
    cuts = cut_slices(to_vector(cost), products, budget, hard);
  }
  cost = {};
  const detail::spmm_row_bins* whole = cuts.size() == 2 && device_bins ? &bins : nullptr;
  for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
    const vertex_t r0 = cuts[s], r1 = cuts[s + 1];
    const offset_t base = products.empty() ? 0 : products[std::size_t(r0)];
    const offset_t n = products.empty() ? total.products : products[std::size_t(r1)] - base;
    if (n == 0) continue;
    const spmm_operand<pattern> m = mask ? mask() : spmm_operand<pattern>{};
    const spmm_operand<pattern>* mp = mask ? &m : nullptr;
    if (mp != nullptr && opt.measure_unmasked)
      run_phase(opt, "unmasked", [&] {
        auto ws = K::template multiply_rows<Sr>(A, B, nullptr, r0, r1, ptr.data(), base, n, nullptr);
        (void)K::pack(r0, r1, ptr.data(), base, std::move(ws), K::scan_counts(ws.count.data(), r1 - r0));
      });
    run_phase(opt, "multiply", [&] {
      st.entries += on_slice(r0, r1, ptr.data(), base, n,
                             K::template multiply_rows<Sr>(A, B, mp, r0, r1, ptr.data(), base, n, whole));
    });
    ++st.slices;
  }
}

// The slices packed: on_part(r0, r1, part).
template <class Sr, class V, class S, class OnPart>
void for_each_part(const spmm_operand<V>& A, const spmm_operand<V>& B, const mask_source& mask, const spmm_options& opt,
                   spmm_stats* stats, OnPart&& on_part) {
  using K = detail::spmm_kernels<S>;
  for_each_slice<Sr, V, S>(A, B, mask, opt, stats,
                           [&](vertex_t r0, vertex_t r1, const offset_t* ptr, offset_t base, offset_t, auto&& ws) {
    const offset_t total = K::scan_counts(ws.count.data(), r1 - r0);
    on_part(r0, r1, K::pack(r0, r1, ptr, base, std::move(ws), total));
    return total;
  });
}
}  // namespace

template <class Sr, class V, class S>
void spmm_slices(const spmm_operand<V>& A, const spmm_operand<V>& B, const mask_source& mask,
                 const std::function<void(coo_matrix<spmm_value_t<Sr, V>, S>&&)>& sink,
                 const spmm_options& opt, spmm_stats* stats) {
  for_each_part<Sr, V, S>(A, B, mask, opt, stats, [&](vertex_t, vertex_t, auto&& part) { sink(std::move(part.batch)); });
}

template <class Sr, class V, class S>
dcsr_matrix<spmm_value_t<Sr, V>, S> spmm_product(const spmm_operand<V>& A, const spmm_operand<V>& B,
                                                 const mask_source& mask, const spmm_options& opt,
                                                 spmm_stats* stats) {
  using K = detail::spmm_kernels<S>;
  using VC = spmm_value_t<Sr, V>;
  dcsr_config cfg = opt.result;
  if (A.rows != B.cols) cfg.square = false;
  csr_matrix<VC, S> csr;
  csr.rows = A.rows, csr.cols = B.cols;
  // A product of one slice with little to spare is kept in its workspace (spmm_options::
  // keep_workspace). Otherwise the slices (rows in order, each sorted) are packed and joined into
  // one batch and the result made from it as CSR: one copy, not the store's insert path; a slice
  // of every row comes with its row offsets.
  std::optional<dcsr_matrix<VC, S>> kept;
  std::vector<coo_matrix<VC, S>> parts;
  for_each_slice<Sr, V, S>(A, B, mask, opt, stats,
                           [&](vertex_t r0, vertex_t r1, const offset_t* ptr, offset_t base, offset_t products, auto&& ws) {
    const offset_t total = K::scan_counts(ws.count.data(), r1 - r0);
    if (r0 == 0 && r1 == A.rows && double(products) <= opt.keep_workspace * double(total)) {
      kept = dcsr_matrix<VC, S>::from_rows(A.rows, B.cols, ptr, ws.count.data(), std::move(ws.col),
                                           std::move(ws.val), total, cfg);
      return total;
    }
    auto part = K::pack(r0, r1, ptr, base, std::move(ws), total);
    if (r0 == 0 && r1 == A.rows) csr.row_ptr = std::move(part.row_ptr);
    if (part.batch.nnz > 0) parts.push_back(std::move(part.batch));
    return total;
  });
  if (kept) return std::move(*kept);
  coo_matrix<VC, S> all;
  if (parts.size() == 1) {
    all = std::move(parts[0]);
  } else {
    std::size_t n = 0;
    for (const auto& p : parts) n += p.nnz;
    all = coo_matrix<VC, S>(n);
    n = 0;
    for (auto& p : parts) {
      copy_range(all.row, n, p.row, 0, p.nnz);
      copy_range(all.col, n, p.col, 0, p.nnz);
      if constexpr (!is_pattern_v<VC>) copy_range(all.val, n, p.val, 0, p.nnz);
      n += p.nnz;
      p = {};
    }
  }
  if (csr.row_ptr.size() != std::size_t(A.rows) + 1) {
    csr.row_ptr = array<offset_t, S>(std::size_t(A.rows) + 1);
    K::row_offsets(all.row.data(), all.nnz, A.rows, csr.row_ptr.data());
  }
  csr.col = std::move(all.col), csr.val = std::move(all.val);
  return dcsr_matrix<VC, S>::from_csr(std::move(csr), cfg);
}

#define FG_INSTANTIATE_IN(Sr, V, S)                                                                      \
  template void spmm_slices<Sr, V, S>(const spmm_operand<V>&, const spmm_operand<V>&, const mask_source&, \
                                      const std::function<void(coo_matrix<spmm_value_t<Sr, V>, S>&&)>&,      \
                                      const spmm_options&, spmm_stats*);                                 \
  template dcsr_matrix<spmm_value_t<Sr, V>, S> spmm_product<Sr, V, S>(                                  \
      const spmm_operand<V>&, const spmm_operand<V>&, const mask_source&, const spmm_options&, spmm_stats*);
#define FG_INSTANTIATE(Sr, V) FG_INSTANTIATE_IN(Sr, V, host_space) FG_INSTANTIATE_IN(Sr, V, device_space)
FG_FOR_EACH_SPMM(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

}  // namespace fg
