// Registry of the SpMV benchmark's kernels. A format joins by one entry here.
#include "bench/spmv_kernels.hpp"

#include <fmt/core.h>

#include <memory>

#include "core/semiring.hpp"
#include "storage/dcsr.hpp"
#include "storage/adcsr.hpp"
#include "storage/cmrs.hpp"
#include "storage/csr_adaptive.hpp"
#include "storage/colsort.hpp"
#include "storage/csr_merge.hpp"
#include "storage/csr_scalar.hpp"
#include "storage/hyb.hpp"
#include "storage/reorder.hpp"
#include "storage/suraa.hpp"
#include "storage/sell.hpp"
#if defined(FG_WITH_CUDA)
#include "bench/cusparse_spmv.hpp"
#endif

namespace fg::bench {

namespace {
// Copies the CSR so each kernel owns what it reads (the conversion time of plain CSR is a copy).
template <class V>
std::shared_ptr<csr_matrix<V, device_space>> copy_csr(const csr_matrix<V, device_space>& A) {
  return std::make_shared<csr_matrix<V, device_space>>(clone_csr<device_space>(A));
}
}  // namespace

template <class V>
std::vector<kernel_case<V>> spmv_kernels() {
  using D = device_space;
  std::vector<kernel_case<V>> k;
#if defined(FG_WITH_CUDA)
  k.push_back({"cusparse", [](const csr_matrix<V, D>& A) {
                 auto c = std::make_shared<cusparse_csr<V>>(A);
                 return prepared<V>{[c](const array<V, D>& x, array<V, D>& y) { c->run(x, y); }, A.bytes(), "CSR, ALG_DEFAULT"};
               }});
#endif
  k.push_back({"csr_vector", [](const csr_matrix<V, D>& A) {
                 auto c = copy_csr(A);
                 return prepared<V>{[c](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*c, x, y); },
                                    c->bytes(), "sub-warp width from mu"};
               }});
  k.push_back({"dcsr", [](const csr_matrix<V, D>& A) {
                 auto d = std::make_shared<dcsr_matrix<V, D>>(dcsr_matrix<V, D>::from_csr(A));
                 return prepared<V>{[d](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*d, x, y); },
                                    d->bytes(), "packed (single segment per row)"};
               }});
  k.push_back({"csr_scalar", [](const csr_matrix<V, D>& A) {
                 auto c = copy_csr(A);
                 return prepared<V>{[c](const array<V, D>& x, array<V, D>& y) { spmv_scalar<plus_times<V>>(*c, x, y); },
                                    c->bytes(), "thread per row"};
               }});
  k.push_back({"csr_adaptive", [](const csr_matrix<V, D>& A) {
                 auto f = std::make_shared<csr_adaptive_matrix<V, D>>(to_csr_adaptive(A));
                 return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                    f->bytes(), fmt::format("{} row blocks", f->blocks)};
               }});
  k.push_back({"csr_merge", [](const csr_matrix<V, D>& A) {
                 auto f = std::make_shared<csr_merge_matrix<V, D>>(to_csr_merge(A));
                 return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                    f->bytes(), fmt::format("{} tiles of {}, {} carry runs", f->tiles, f->tile_items,
                                                            f->runs.size())};
               }});
  k.push_back({"colsort", [](const csr_matrix<V, D>& A) {
                 auto f = std::make_shared<colsort_matrix<V, D>>(to_colsort(A));
                 return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                    f->bytes(), fmt::format("{} partitions of <= {} entries, {} long rows", f->parts.size(),
                                                            f->entries_cap, f->runs.size())};
               }});
  for (bool dp : {true, false})
    k.push_back({dp ? "suraa_dp" : "suraa_once", [dp](const csr_matrix<V, D>& A) {
                   suraa_options o;
                   o.dynamic_parallelism = dp;
                   auto f = std::make_shared<suraa_matrix<V, D>>(to_suraa(A, o));
                   vertex_t g1 = 0;
                   for (const auto& sg : f->segments)
                     if (sg.group == suraa_group::g1_dynamic) g1 += sg.end - sg.begin;
                   return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                      f->bytes(), fmt::format("{} segments, {} launches, {} G1 rows", f->segments.size(),
                                                                f->launches.size(), g1)};
                 }});
  k.push_back({"adcsr", [](const csr_matrix<V, D>& A) {
                 auto f = std::make_shared<adcsr_matrix<V, D>>(to_adcsr(A));
                 return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                    f->bytes(), "bins 1, 2-3, 4-8, ..."};
               }});
  // CMRS: strip heights 2..16 for the H100 optimum search (the paper's K20 optimum: 6 float, 4 double).
  for (int h : {2, 4, 6, 8, 12, 16})
    k.push_back({"cmrs_h" + std::to_string(h), [h](const csr_matrix<V, D>& A) {
                   cmrs_options o;
                   o.height = h;
                   auto f = std::make_shared<cmrs_matrix<V, D>>(to_cmrs(A, o));
                   return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                      f->bytes(), fmt::format("height {}, {} warps/block", h, o.warps_per_block)};
                 }});
  k.push_back({"cmrs_modified", [](const csr_matrix<V, D>& A) {
                 cmrs_options o;
                 o.variant = cmrs_variant::modified;
                 auto f = std::make_shared<cmrs_matrix<V, D>>(to_cmrs(A, o));
                 return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                    f->bytes(), fmt::format("height 16, M 8, padding {:.1f}%", 100 * f->padding_ratio())};
               }});
  k.push_back({"sell_c32_s256", [](const csr_matrix<V, D>& A) {
                 auto f = std::make_shared<sell_matrix<V, D>>(to_sell(A));
                 const double pad = double(f->padded()) / double(std::max<offset_t>(1, A.nnz())) - 1.0;
                 return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                    f->bytes(), fmt::format("padding {:.1f}%", 100 * pad)};
               }});
  k.push_back({"hyb", [](const csr_matrix<V, D>& A) {
                 auto f = std::make_shared<hyb_matrix<V, D>>(to_hyb(A));
                 return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                    f->bytes(), fmt::format("K {}, tail {:.1f}% of nnz", f->ell_width,
                                                            100.0 * double(f->tail_nnz()) / double(std::max<offset_t>(1, A.nnz())))};
               }});
  // The locality layer (storage/reorder.hpp): a format over the DBG renumbering, read in the
  // caller's order (x gathered, y scattered back: both are in the time).
  k.push_back({"dbg_merge", [](const csr_matrix<V, D>& A) {
                 auto o = std::make_shared<const vertex_order<D>>(degree_grouped_order(A));
                 using F = reordered_matrix<csr_merge_matrix<V, D>, D>;
                 auto f = std::make_shared<F>(F{o, to_csr_merge(permute(A, *o))});
                 return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                    f->bytes(), "DBG renumbering, merge path"};
               }});
  k.push_back({"dbg_vector", [](const csr_matrix<V, D>& A) {
                 auto o = std::make_shared<const vertex_order<D>>(degree_grouped_order(A));
                 using F = reordered_matrix<csr_matrix<V, D>, D>;
                 auto f = std::make_shared<F>(F{o, permute(A, *o)});
                 return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                    f->bytes(), "DBG renumbering, sub-warp CSR"};
               }});
  return k;
}

template std::vector<kernel_case<float>> spmv_kernels<float>();
template std::vector<kernel_case<double>> spmv_kernels<double>();

}  // namespace fg::bench
