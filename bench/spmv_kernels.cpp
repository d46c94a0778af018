// The kernels `fluxgraph bench spmv` times (bench/spmv_kernels.hpp): every row of the kernel table
// (read/kernel_table.hpp), built by the views from the benchmark's CSR, and beside them cuSPARSE (the
// baseline) and CMRS at other strip heights (the H100 optimum search).
#include "bench/spmv_kernels.hpp"

#include <fmt/core.h>

#include "core/semiring.hpp"
#include "read/kernel_table.hpp"
#include "read/views.hpp"
#include "storage/cmrs.hpp"
#if defined(FG_WITH_CUDA)
#include "bench/cusparse_spmv.hpp"
#endif

namespace fg::bench {

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
  for (const read_kernel& r : read_kernels())
    k.push_back({r.name, [&r](const csr_matrix<V, D>& A) {
                   spmv_view<V, D, V> v = make_view<V>(A, r);  // a dbg_* view's run reads in the caller's order
                   return prepared<V>{std::move(v.run), v.bytes, std::move(v.note)};
                 }});
  // CMRS at strip heights other than the table's (the paper's K20 optimum: 6 float, 4 double).
  for (int h : {2, 4, 6, 8, 12, 16}) {
    if (h == cmrs_default_height<V>()) continue;  // the table's "cmrs"
    k.push_back({"cmrs_h" + std::to_string(h), [h](const csr_matrix<V, D>& A) {
                   cmrs_options o;
                   o.height = h;
                   auto f = std::make_shared<cmrs_matrix<V, D>>(to_cmrs(A, o));
                   return prepared<V>{[f](const array<V, D>& x, array<V, D>& y) { spmv<plus_times<V>>(*f, x, y); },
                                      f->bytes(), fmt::format("height {}, {} warps/block", h, o.warps_per_block)};
                 }});
  }
  return k;
}

template std::vector<kernel_case<float>> spmv_kernels<float>();
template std::vector<kernel_case<double>> spmv_kernels<double>();

}  // namespace fg::bench
