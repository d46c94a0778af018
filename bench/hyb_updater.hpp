// A minimal updatable HYB for `fluxgraph bench stream`: the paper's other dynamic format (ELL + a
// COO tail), done the way a Thrust user would, so DCSR is measured against a modern baseline.
//
// Layout: a HYB built at the last rebuild (storage/hyb: ELL of Bell & Garland's width K + its own
// tail, read by the library's kernels) plus a delta tail: the entries inserted since, as sorted,
// distinct (row << 32 | col) keys with a row index for the SpMV. An insert sorts the batch, drops
// keys already stored (binary search in the base keys and the delta) and merges the rest into the
// delta tail: the COO tail stays sorted by row, as a HYB SpMV needs (the paper's "HYB sort" at
// every insertion). When the delta passes tail_limit x nnz, everything is rebuilt: base and delta
// merged, CSR row offsets, to_hyb (ELL width chosen again). Pattern graphs, graph semantics
// (an edge is stored once), as the DCSR store it is compared with.
#pragma once
#include <cstdint>

#include "core/array.hpp"
#include "storage/hyb.hpp"

namespace fg::bench {

class hyb_updater {
 public:
  /// @param tail_limit  rebuild when the delta tail holds more than this share of the entries
  explicit hyb_updater(vertex_t n, double tail_limit = 0.1) : n_(n), limit_(tail_limit) {}
  /// Inserts `count` edges (src[i], dst[i]); returns true when the insert ended in a rebuild.
  bool insert(const array<vertex_t, device_space>& src, const array<vertex_t, device_space>& dst, std::size_t count);
  /// Merges the delta tail into the base and rebuilds ELL + tail (the HYB "sort").
  void rebuild();
  /// y = A x (plus-times): the HYB kernels, then the delta tail's rows added into y.
  void spmv(const array<float, device_space>& x, array<float, device_space>& y) const;
  offset_t nnz() const noexcept { return offset_t(base_.size() + delta_.size()); }
  offset_t delta_nnz() const noexcept { return offset_t(delta_.size()); }
  std::int64_t rebuilds() const noexcept { return rebuilds_; }

 private:
  void index_delta();

  vertex_t n_;
  double limit_;
  std::int64_t rebuilds_ = 0;
  array<std::uint64_t, device_space> base_;   ///< sorted distinct keys in hyb_
  array<std::uint64_t, device_space> delta_;  ///< sorted distinct keys inserted since the rebuild
  hyb_matrix<pattern, device_space> hyb_;
  array<vertex_t, device_space> delta_rows_;  ///< distinct rows of the delta, ascending (first delta_row_count_)
  std::size_t delta_row_count_ = 0;
  array<offset_t, device_space> delta_ptr_;   ///< delta_rows_.size() + 1 offsets into delta_
};

}  // namespace fg::bench
