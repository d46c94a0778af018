// How a distributed store's rows, and the entries of the vectors it reads and writes, are divided
// among ranks (issue 24, docs/distributed.md). Two rules:
//   cyclic  vertex v on rank v mod P, local id v / P. No table, any n (a stream's new vertices
//           spread evenly), and on a power-law graph the hubs, which are few, fall on all ranks.
//   blocks  contiguous ranges cut where the rows' entries are balanced (1-D blocks by nnz); ids
//           past the last cut go to the last rank. Keeps an input order's locality (a crawl, a
//           mesh), at the price of a table of P + 1 cuts and of balance under growth.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fg {

enum class partition_kind : int { cyclic = 0, blocks = 1 };

/// What device code needs of a partition (trivially copyable; `starts` in device memory for blocks).
struct partition_view {
  partition_kind kind = partition_kind::cyclic;
  int parts = 1;
  const vertex_t* starts = nullptr;  ///< blocks: parts + 1 cuts, starts[0] = 0
  FG_HD int owner(vertex_t v) const {
    if (kind == partition_kind::cyclic) return int(v % parts);
    int lo = 0, hi = parts;  // the last part whose start is <= v (the last one is open-ended)
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (starts[mid] <= v) lo = mid;
      else hi = mid;
    }
    return lo;
  }
  FG_HD vertex_t local(vertex_t v) const {
    return kind == partition_kind::cyclic ? v / parts : v - starts[owner(v)];
  }
};

struct row_partition {
  partition_kind kind = partition_kind::cyclic;
  int parts = 1;
  std::vector<vertex_t> starts;  ///< blocks: parts + 1 cuts (the last one: where the input ended)

  static row_partition cyclic(int parts);
  /// Cuts [0, n) into `parts` ranges of about equal entries, from every row's entry count.
  static row_partition balanced_blocks(const std::vector<std::int64_t>& row_entries, int parts);
  /// "cyclic" or "blocks" (for blocks the cuts come from the input's rows).
  static partition_kind parse(const std::string& name);
  const char* name() const noexcept { return kind == partition_kind::cyclic ? "cyclic" : "blocks"; }

  /// A host copy of the view (starts points into this object).
  partition_view host_view() const noexcept { return {kind, parts, starts.empty() ? nullptr : starts.data()}; }
  int owner(vertex_t v) const { return host_view().owner(v); }
  vertex_t local(vertex_t v) const { return host_view().local(v); }
  /// The global id of part p's local vertex l.
  vertex_t global(int p, vertex_t l) const {
    return kind == partition_kind::cyclic ? l * parts + p : starts[std::size_t(p)] + l;
  }
  /// How many of the vertices [0, n) part p owns.
  vertex_t count(int p, vertex_t n) const;
};

}  // namespace fg
