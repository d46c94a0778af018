// inclusion_problem::check (algorithms/pointsto.hpp): the one part of the points-to solvers the
// loaders use too (writing a problem as text checks it first), in a file of its own so that the
// loaders' fuzz targets link without the solvers.
#include <string>

#include "algorithms/pointsto.hpp"
#include "core/error.hpp"

namespace fg {

namespace {
// ids in [lowest, n): lowest -1 admits "no pointer" (call tables)
void check_ids(const std::vector<vertex_t>& v, vertex_t n, const char* what, vertex_t lowest = 0) {
  for (vertex_t x : v)
    FG_EXPECTS(x >= lowest && x < n, std::string("inclusion problem: ") + what + " id " + std::to_string(x) +
                                         " out of range [" + std::to_string(lowest) + ", " + std::to_string(n) + ")");
}
void check_same_length(std::size_t a, std::size_t b) { FG_EXPECTS(a == b, "inclusion problem: pair lists differ in length"); }
// CSR offsets of `rows` rows over `entries` entries (none at all for no rows)
void check_offsets(const std::vector<offset_t>& ptr, std::size_t rows, std::size_t entries, const char* what) {
  const std::string who = std::string("inclusion problem: ") + what + " offsets ";
  FG_EXPECTS(rows == 0 ? ptr.size() <= 1 : ptr.size() == rows + 1, who + "need one more entry than rows");
  for (std::size_t i = 0; i + 1 < ptr.size(); ++i) FG_EXPECTS(ptr[i] >= 0 && ptr[i] <= ptr[i + 1], who + "must ascend from 0");
  FG_EXPECTS(ptr.empty() || (ptr.front() == 0 && std::size_t(ptr.back()) == entries), who + "must cover the list");
}
}  // namespace

void inclusion_problem::check() const {
  FG_EXPECTS(nodes >= 0 && objects >= 0, "inclusion problem: negative size");
  check_same_length(base_node.size(), base_obj.size());
  check_same_length(copy_dst.size(), copy_src.size());
  check_same_length(load_dst.size(), load_ptr.size());
  for (const auto* v : {&base_node, &copy_dst, &copy_src, &load_dst, &load_ptr}) check_ids(*v, nodes, "node");
  check_ids(base_obj, objects, "object");
  FG_EXPECTS(load_dst.empty() || objects == nodes, "inclusion problem: loads need objects == nodes");
  for (const auto& s : stores) {
    check_same_length(s.ptr.size(), s.src.size());
    check_same_length(s.field_node.size(), s.field_obj.size());
    for (const auto* v : {&s.ptr, &s.src, &s.field_node}) check_ids(*v, nodes, "node");
    check_ids(s.field_obj, objects, "object");
    FG_EXPECTS(!s.field_node.empty() || objects == nodes, "inclusion problem: an identity store needs objects == nodes");
  }
  check_same_length(icalls.callee.size(), icalls.result.size());
  check_ids(icalls.callee, nodes, "call callee");
  check_ids(icalls.result, nodes, "call result", -1);
  check_ids(icalls.args, nodes, "call argument", -1);
  check_offsets(icalls.arg_ptr, icalls.callee.size(), icalls.args.size(), "call argument");
  check_same_length(functions.object.size(), functions.ret.size());
  check_ids(functions.object, objects, "function object");
  check_ids(functions.ret, nodes, "function return", -1);
  check_ids(functions.formals, nodes, "function formal", -1);
  check_offsets(functions.formal_ptr, functions.object.size(), functions.formals.size(), "function formal");
}

}  // namespace fg
