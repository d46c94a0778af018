// The copy edges the complex constraints gain when their pointer may point to an object o: a store
// *p = s through a field map writes the nodes the map gives o (without a map, o itself); an
// indirect call site links actuals to the callee's formals and the callee's return to the call's
// result (pointsto.hpp: inclusion_problem::stores, icalls). Shared by every inclusion solver, host
// and device, so they agree on the rules.
#pragma once
#include <cstdint>
#include <vector>

#include "algorithms/pointsto.hpp"

namespace fg::detail {

/// The store families' field maps as CSR rows f * objects + o: the nodes a store of family f
/// writes through object o. identity[f]: family f has no map (rows only when some family has one).
struct field_table {
  std::vector<offset_t> ptr{0};
  std::vector<vertex_t> node;
  std::vector<std::uint8_t> identity;
};

inline field_table field_rows(const inclusion_problem& p) {
  field_table t;
  bool maps = false;
  for (const auto& s : p.stores) t.identity.push_back(s.field_node.empty()), maps |= !s.field_node.empty();
  if (!maps) return t;
  const auto m = std::size_t(p.objects);
  t.ptr.assign(p.stores.size() * m + 1, 0);
  for (std::size_t f = 0; f < p.stores.size(); ++f)  // counts, then offsets, then the nodes
    for (vertex_t o : p.stores[f].field_obj) ++t.ptr[f * m + std::size_t(o) + 1];
  for (std::size_t r = 1; r < t.ptr.size(); ++r) t.ptr[r] += t.ptr[r - 1];
  t.node.resize(std::size_t(t.ptr.back()));
  std::vector<offset_t> at(t.ptr.begin(), t.ptr.end() - 1);
  for (std::size_t f = 0; f < p.stores.size(); ++f)
    for (std::size_t j = 0; j < p.stores[f].field_obj.size(); ++j)
      t.node[std::size_t(at[f * m + std::size_t(p.stores[f].field_obj[j])]++)] = p.stores[f].field_node[j];
  return t;
}

/// A field_table as raw pointers (host vectors or their device copies).
struct field_view {
  const offset_t* ptr = nullptr;
  const vertex_t* node = nullptr;
  const std::uint8_t* identity = nullptr;
  vertex_t objects = 0;
};
inline field_view host_field_view(const field_table& t, vertex_t objects) {
  return {t.ptr.data(), t.node.data(), t.identity.data(), objects};
}

/// edge(src, dst) for each copy edge a store *p = src of `family` gains from object o in pts(p).
template <class F>
FG_HD inline void store_edges(const field_view& t, std::size_t family, vertex_t src, vertex_t o, F&& edge) {
  if (t.identity[family]) {
    edge(src, o);
    return;
  }
  const std::size_t r = family * std::size_t(t.objects) + std::size_t(o);
  for (offset_t j = t.ptr[r]; j < t.ptr[r + 1]; ++j) edge(src, t.node[j]);
}

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
