// The inclusion-constraint fixed point by masked or-and SpMMs (see pointsto.hpp; the reference twin,
// on the host: algorithms/detail/fixpoint.hpp), and solve_inclusion's choice of solver.
#include "algorithms/pointsto.hpp"

#include <chrono>

#include "algorithms/detail/fixpoint.hpp"
#include "algorithms/detail/indirect_calls.hpp"
#include "core/memory.hpp"
#include "storage/edge_set.hpp"

namespace fg {

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

// The matrix loop has no rule for indirect calls: it solves, resolves every call site against
// the solution, adds the new call edges as copies and solves again, until no call gains an edge.
template <class S>
inclusion_result solve_with_calls(const inclusion_problem& p, const inclusion_options& opt) {
  if (p.icalls.callee.empty()) return solve_on<S>(p, opt);
  p.check();
  inclusion_problem q = p;
  q.icalls = {}, q.functions = {};
  pair_hash_set seen;
  int rounds = 0;
  double seconds = 0;
  for (;;) {
    inclusion_result r = solve_on<S>(q, opt);
    rounds += r.stats.iterations, seconds += r.stats.seconds;
    bool added = false;
    detail::resolved_call_edges(p, r, [&](vertex_t a, vertex_t b) {
      if (seen.insert(a, b)) q.copy_dst.push_back(b), q.copy_src.push_back(a), added = true;
    });
    if (!added) {
      r.stats.iterations = rounds, r.stats.seconds = seconds;
      return r;
    }
  }
}
}  // namespace

inclusion_result solve_inclusion(const inclusion_problem& p, exec where, const inclusion_options& opt) {
  if (where == exec::reference) return solve_with_calls<host_space>(p, opt);
#if defined(FG_WITH_CUDA)
  return solve_inclusion_bits(p, opt);
#else
  return solve_inclusion_wave(p, opt);
#endif
}

}  // namespace fg
