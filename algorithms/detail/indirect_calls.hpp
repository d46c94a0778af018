// The copy edges an indirect call site gains when its function pointer may point to an object:
// actuals to the callee's formals, the callee's return to the call's result (pointsto.hpp,
// inclusion_problem::icalls). Shared by every inclusion solver, so they agree on the rule.
#pragma once
#include <cstdint>
#include <vector>

#include "algorithms/pointsto.hpp"

namespace fg::detail {

/// index[o]: o's row of the function table, -1 for an object that is no function (empty: no table).
inline std::vector<std::int32_t> function_rows(const inclusion_problem& p) {
  std::vector<std::int32_t> index(p.functions.object.empty() ? 0 : std::size_t(p.objects), -1);
  for (std::size_t k = 0; k < p.functions.object.size(); ++k) index[std::size_t(p.functions.object[k])] = std::int32_t(k);
  return index;
}

/// Call sites by callee node.
inline std::vector<std::vector<std::uint32_t>> sites_by_callee(const inclusion_problem& p) {
  std::vector<std::vector<std::uint32_t>> by(std::size_t(p.nodes));
  for (std::size_t j = 0; j < p.icalls.callee.size(); ++j) by[std::size_t(p.icalls.callee[j])].push_back(std::uint32_t(j));
  return by;
}

/// The call tables as raw pointers (host vectors or their device copies), so that the host solvers
/// and the device kernels apply one rule. fn_row[o]: o's row of the function table, -1 for no
/// function; null when the problem has no functions.
struct call_table {
  const vertex_t *result = nullptr, *args = nullptr, *ret = nullptr, *formals = nullptr;
  const offset_t *arg_ptr = nullptr, *formal_ptr = nullptr;
  const std::int32_t* fn_row = nullptr;
};

inline call_table host_call_table(const inclusion_problem& p, const std::vector<std::int32_t>& rows) {
  return {p.icalls.result.data(), p.icalls.args.data(), p.functions.ret.data(), p.functions.formals.data(),
          p.icalls.arg_ptr.data(), p.functions.formal_ptr.data(), rows.empty() ? nullptr : rows.data()};
}

/// edge(src, dst) for each copy edge call site `site` gains from object o in its callee's pts.
template <class F>
FG_HD inline void call_edges(const call_table& t, std::size_t site, vertex_t o, F&& edge) {
  if (t.fn_row == nullptr || t.fn_row[o] < 0) return;
  const auto k = std::size_t(t.fn_row[o]);
  if (t.result[site] >= 0 && t.ret[k] >= 0) edge(t.ret[k], t.result[site]);
  const offset_t a0 = t.arg_ptr[site], f0 = t.formal_ptr[k];
  const offset_t na = t.arg_ptr[site + 1] - a0, nf = t.formal_ptr[k + 1] - f0;
  for (offset_t i = 0; i < (na < nf ? na : nf); ++i) {
    const vertex_t a = t.args[a0 + i], f = t.formals[f0 + i];
    if (a >= 0 && f >= 0) edge(a, f);
  }
}

/// edge(src, dst) for every copy edge the call sites gain from a solution (rows of pts).
template <class F>
void resolved_call_edges(const inclusion_problem& p, const inclusion_result& solution, F&& edge) {
  const std::vector<std::int32_t> rows = function_rows(p);
  const call_table t = host_call_table(p, rows);
  for (std::size_t j = 0; j < p.icalls.callee.size(); ++j) {
    const auto f = std::size_t(p.icalls.callee[j]);
    for (offset_t e = solution.row_ptr[f]; e < solution.row_ptr[f + 1]; ++e) call_edges(t, j, solution.col[std::size_t(e)], edge);
  }
}

}  // namespace fg::detail
