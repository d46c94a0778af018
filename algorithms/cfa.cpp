// 0-CFA as an inclusion-constraint system, solved by solve_inclusion (see cfa.hpp).
#include "algorithms/cfa.hpp"

#include <algorithm>

namespace fg {

namespace {
// Nodes: variables 0..V-1, then one node per lambda term.
vertex_t node_of(const cfa_program& p, const cfa_program::atom& a) {
  return a.is_lambda ? vertex_t(p.vars.size()) + a.id : a.id;
}
}  // namespace

cfa_result analyse_cfa(const cfa_program& p, exec where) {
  inclusion_problem c;
  const auto V = vertex_t(p.vars.size()), L = vertex_t(p.lambdas.size());
  c.nodes = V + L;
  c.objects = L;
  for (vertex_t l = 0; l < L; ++l) c.base_node.push_back(V + l), c.base_obj.push_back(l);
  std::size_t arity = 0;
  for (const auto& call : p.calls) arity = std::max(arity, call.args.size());
  c.stores.resize(arity);  // family i: argument position i
  for (const auto& call : p.calls)
    for (std::size_t i = 0; i < call.args.size(); ++i) {
      c.stores[i].ptr.push_back(node_of(p, call.fn));
      c.stores[i].src.push_back(node_of(p, call.args[i]));
    }
  for (vertex_t l = 0; l < L; ++l) {
    const auto& params = p.lambdas[std::size_t(l)].params;
    for (std::size_t i = 0; i < params.size() && i < arity; ++i)
      c.stores[i].field_node.push_back(params[i]), c.stores[i].field_obj.push_back(l);
  }
  const inclusion_result r = solve_inclusion(c, where);
  cfa_result out;
  out.row_ptr.assign(r.row_ptr.begin(), r.row_ptr.begin() + V + 1);
  out.col.assign(r.col.begin(), r.col.begin() + out.row_ptr.back());
  out.facts = out.row_ptr.back();
  out.iterations = r.stats.iterations;
  out.seconds = r.stats.seconds;
  return out;
}

}  // namespace fg
