// count_copy_edges (algorithms/pointsto.hpp): |E| at a fixed point, counted from the solution, for
// the solvers that do not keep the copy edges in a set while they solve (on objdump 43 M hash
// inserts were half the wave solver's time).
#include "algorithms/detail/indirect_calls.hpp"
#include "algorithms/pointsto.hpp"
#include "core/sparse_bitset.hpp"

namespace fg {

offset_t count_copy_edges(const inclusion_problem& p, const inclusion_result& r) {
  std::vector<sparse_bitset> from(std::size_t(p.nodes));  // per destination, the set of its sources
  auto each_pts = [&](vertex_t v, auto&& f) {
    for (offset_t e = r.row_ptr[std::size_t(v)]; e < r.row_ptr[std::size_t(v) + 1]; ++e) f(r.col[std::size_t(e)]);
  };
  for (std::size_t j = 0; j < p.copy_dst.size(); ++j) from[std::size_t(p.copy_dst[j])].insert(std::uint32_t(p.copy_src[j]));
  for (std::size_t j = 0; j < p.load_dst.size(); ++j)
    each_pts(p.load_ptr[j], [&](vertex_t o) { from[std::size_t(p.load_dst[j])].insert(std::uint32_t(o)); });
  const detail::field_table fields = detail::field_rows(p);
  const detail::field_view fv = detail::host_field_view(fields, p.objects);
  auto edge = [&](vertex_t a, vertex_t b) { from[std::size_t(b)].insert(std::uint32_t(a)); };
  for (std::size_t f = 0; f < p.stores.size(); ++f) {
    const auto& s = p.stores[f];
    for (std::size_t j = 0; j < s.ptr.size(); ++j) each_pts(s.ptr[j], [&](vertex_t o) { detail::store_edges(fv, f, s.src[j], o, edge); });
  }
  detail::resolved_call_edges(p, r, edge);
  offset_t c = 0;
  for (const sparse_bitset& x : from) c += offset_t(x.count());
  return c;
}

}  // namespace fg
