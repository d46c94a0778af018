// Row partitions of the distributed store (distributed/dist_partition.hpp).
#include "distributed/dist_partition.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace fg {

row_partition row_partition::cyclic(int parts) {
  FG_EXPECTS(parts >= 1, "row_partition: at least one part");
  row_partition p;
  p.parts = parts;
  return p;
}

row_partition row_partition::balanced_blocks(const std::vector<std::int64_t>& row_entries, int parts) {
  FG_EXPECTS(parts >= 1, "row_partition: at least one part");
  row_partition p;
  p.kind = partition_kind::blocks;
  p.parts = parts;
  std::int64_t total = 0;
  for (std::int64_t e : row_entries) total += e;
  const auto n = vertex_t(row_entries.size());
  p.starts.assign(std::size_t(parts) + 1, n);
  p.starts[0] = 0;
  // Cut q goes where the running count first reaches q/P of the entries (and never before the
  // previous cut), so every part's entries are within one row of the mean.
  std::int64_t seen = 0;
  int q = 1;
  for (vertex_t v = 0; v < n && q < parts; ++v) {
    while (q < parts && seen >= (total * q + parts - 1) / parts) p.starts[std::size_t(q++)] = v;
    seen += row_entries[std::size_t(v)];
  }
  return p;
}

partition_kind row_partition::parse(const std::string& name) {
  if (name == "cyclic") return partition_kind::cyclic;
  if (name == "blocks") return partition_kind::blocks;
  throw invalid_argument("unknown partition '" + name + "' (cyclic or blocks)");
}

vertex_t row_partition::count(int p, vertex_t n) const {
  if (kind == partition_kind::cyclic) return n > p ? (n - p + parts - 1) / parts : 0;
  const vertex_t lo = std::min(starts[std::size_t(p)], n);
  const vertex_t hi = p + 1 < parts ? std::min(starts[std::size_t(p) + 1], n) : n;
  return std::max<vertex_t>(0, hi - lo);
}

}  // namespace fg
