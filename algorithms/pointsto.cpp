// The inclusion-constraint fixed point (see pointsto.hpp), written once for both twins on top of
// masked or-and SpMMs (algorithms/detail/fixpoint.hpp).
#include "algorithms/pointsto.hpp"

#include <chrono>

#include "algorithms/detail/fixpoint.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"

namespace fg {

void inclusion_problem::check() const {
  FG_EXPECTS(nodes >= 0 && objects >= 0, "inclusion problem: negative size");
  auto ids = [](const std::vector<vertex_t>& v, vertex_t n, const char* what) {
    for (vertex_t x : v)
      FG_EXPECTS(x >= 0 && x < n, std::string("inclusion problem: ") + what + " id " + std::to_string(x) +
                                      " out of range [0, " + std::to_string(n) + ")");
  };
  auto same = [](std::size_t a, std::size_t b) { FG_EXPECTS(a == b, "inclusion problem: pair lists differ in length"); };
  same(base_node.size(), base_obj.size());
  same(copy_dst.size(), copy_src.size());
  same(load_dst.size(), load_ptr.size());
  ids(base_node, nodes, "node");
  ids(base_obj, objects, "object");
  ids(copy_dst, nodes, "node");
  ids(copy_src, nodes, "node");
  ids(load_dst, nodes, "node");
  ids(load_ptr, nodes, "node");
  FG_EXPECTS(load_dst.empty() || objects == nodes, "inclusion problem: loads need objects == nodes");
  for (const auto& s : stores) {
    same(s.ptr.size(), s.src.size());
    same(s.field_node.size(), s.field_obj.size());
    ids(s.ptr, nodes, "node");
    ids(s.src, nodes, "node");
    ids(s.field_node, nodes, "node");
    ids(s.field_obj, objects, "object");
    FG_EXPECTS(!s.field_node.empty() || objects == nodes, "inclusion problem: an identity store needs objects == nodes");
  }
}

namespace {
using detail::derive;

template <class S>
inclusion_result solve_on(const inclusion_problem& pr, const inclusion_options& opt) {
  pr.check();
  memory::reset_peak();
  const vertex_t n = pr.nodes, m = pr.objects;
  inclusion_result res;
  inclusion_stats& st = res.stats;
  spmm_stats sst;
  dcsr_matrix<pattern, S> P = detail::relation<S>(n, m, pr.base_node, pr.base_obj);
  {
    const auto t0 = std::chrono::steady_clock::now();
    dcsr_matrix<pattern, S> E = detail::relation<S>(n, n, pr.copy_dst, pr.copy_src);
    const dcsr_matrix<pattern, S> Ld = detail::relation<S>(n, n, pr.load_dst, pr.load_ptr);
    struct family {
      dcsr_matrix<pattern, S> S_, F;  // S(ptr, src); F(field(o), o), empty for the identity
      bool identity;
    };
    std::vector<family> fam;
    for (const auto& s : pr.stores)
      fam.push_back({detail::relation<S>(n, n, s.ptr, s.src), detail::relation<S>(n, m, s.field_node, s.field_obj),
                     s.field_node.empty()});
    dcsr_matrix<pattern, S> dP = detail::relation<S>(n, m, pr.base_node, pr.base_obj);
    while (dP.nnz() > 0) {
      ++st.iterations;
      // New copy edges from the new facts: loads and stores read only ΔP (an edge's fact is new
      // exactly when its pointer's fact is).
      dcsr_matrix<pattern, S> dE = detail::empty_relation<S>(n, n);
      derive(Ld, dP, E, &dE, opt.spmm, sst);
      if (!fam.empty()) {
        const dcsr_matrix<pattern, S> dPt = detail::transpose(dP);  // object x node
        for (auto& f : fam) {
          if (f.identity) {
            derive(dPt, f.S_, E, &dE, opt.spmm, sst);
          } else if (f.S_.nnz() > 0) {
            // ΔPᵀ·S (object x src) then F maps each object to its field node.
            dcsr_matrix<pattern, S> X = spmm<or_and>(dPt, f.S_, opt.spmm, &sst);
            derive(f.F, X, E, &dE, opt.spmm, sst);
          }
        }
      }
      // Propagation: new facts along every edge, and every new edge's source's full pts once.
      dcsr_matrix<pattern, S> next = detail::empty_relation<S>(n, m);
      offset_t added = derive(E, dP, P, &next, opt.spmm, sst);
      added += derive(dE, P, P, &next, opt.spmm, sst);
      if (opt.progress) opt.progress(st.iterations, added, P.nnz());
      dP = std::move(next);
    }
    memory::synchronize();
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    st.copy_edges = E.nnz();
  }
  st.facts = P.nnz();
  st.products = sst.products;
  st.peak_bytes = memory::peak_bytes();
  detail::sorted_rows(P, res.row_ptr, res.col);
  return res;
}
}  // namespace

inclusion_result solve_inclusion(const inclusion_problem& p, exec where, const inclusion_options& opt) {
  if (where == exec::reference) return solve_on<host_space>(p, opt);
#if defined(FG_WITH_CUDA)
  return solve_on<device_space>(p, opt);
#else
  return solve_inclusion_wave(p, opt);
#endif
}

}  // namespace fg
