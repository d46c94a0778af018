// validate(): every DCSR invariant, checked on a host copy (a debugging aid, not a hot path).
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/kernels.hpp"

namespace fg {

template <class V, class S>
void dcsr_matrix<V, S>::validate() const {
  auto fail = [](const std::string& what) { throw error("dcsr validate: " + what); };
  const auto sizes = to_vector(sizes_);
  const auto nseg = to_vector(nseg_);
  const auto col = to_vector(col_);
  const auto val = to_vector(val_);
  const int k = cfg_.max_segments;
  if (pitch_rows_ < row_cap_) fail("segment table narrower than the row table");
  if (seg_.size() != std::size_t(k) * 2 * std::size_t(pitch_rows_)) fail("segment table size != k * pitch");
  // The row table's part of each slab, read into slabs of pitch 2 * row_cap_ (the room past it is
  // never touched: grow_row_table).
  const offset_t pitch = 2 * offset_t(row_cap_);
  std::vector<offset_t> seg(std::size_t(k) * std::size_t(pitch));
  for (int s = 0; s < k && pitch > 0; ++s) {
    const offset_t* from = seg_.data() + std::size_t(s) * 2 * std::size_t(pitch_rows_);
    if constexpr (std::is_same_v<S, device_space>) memory::copy_to_host(seg.data() + s * pitch, from, std::size_t(pitch) * sizeof(offset_t));
    else std::copy(from, from + pitch, seg.data() + s * pitch);
  }
  if (rows_ < 0 || rows_ > row_cap_) fail("rows outside the row table");
  if (cfg_.square && rows_ != cols_) fail("square store with rows != cols");
  if (alloc_ptr_ < 0 || alloc_ptr_ > capacity()) fail("allocation pointer past capacity");

  std::vector<std::pair<offset_t, offset_t>> extents;
  offset_t total = 0;
  bool any_at_limit = false;
  std::vector<vertex_t> row_cols;
  if (row_ordered_end_ < 0 || row_ordered_end_ > alloc_ptr_) fail("row-ordered prefix past the allocation pointer");
  offset_t prefix_at = 0;  // the end of the last first segment in the row-ordered prefix
  for (vertex_t r = 0; r < row_cap_; ++r) {
    const std::string at = "row " + std::to_string(r) + ": ";
    if (r >= rows_) {
      if (sizes[r] != 0 || nseg[r] != 0) fail(at + "past the last row but not empty");
      continue;
    }
    if (sizes[r] < 0) fail(at + "negative size");
    if (nseg[r] > k) fail(at + "more than k segments");
    if (nseg[r] > max_nseg_) fail(at + "more segments than the store's bound (single-segment flag is wrong)");
    any_at_limit = any_at_limit || nseg[r] == k;
    offset_t cap = 0;
    row_cols.clear();
    for (int s = 0; s < nseg[r]; ++s) {
      offset_t b = seg[s * pitch + 2 * offset_t(r)], e = seg[s * pitch + 2 * offset_t(r) + 1];
      if (b < 0 || b > e || e > alloc_ptr_) fail(at + "segment " + std::to_string(s) + " out of range");
      if (b < row_ordered_end_ && (s > 0 || e > row_ordered_end_ || b < prefix_at))
        fail(at + "segment " + std::to_string(s) + " breaks the row-ordered prefix (an in-place pack)");
      if (b < row_ordered_end_) prefix_at = e;
      // Insertion opens a segment only for entries, deletion releases the ones it empties.
      if (s > 0 && cap >= sizes[r]) fail(at + "segment " + std::to_string(s) + " holds no entry");
      if (e > b) extents.emplace_back(b, e);
      for (offset_t j = b; j < e && cap + (j - b) < sizes[r]; ++j) {
        if (col[j] < 0 || col[j] >= cols_) fail(at + "column " + std::to_string(col[j]) + " out of range");
        if constexpr (!is_pattern_v<V>)
          if (!std::isfinite(double(val[j]))) fail(at + "non-finite value");
        row_cols.push_back(col[j]);
      }
      cap += e - b;
    }
    if (cap < sizes[r]) fail(at + "size " + std::to_string(sizes[r]) + " exceeds segment capacity");
    if (collapses_duplicates()) {
      std::sort(row_cols.begin(), row_cols.end());
      if (std::adjacent_find(row_cols.begin(), row_cols.end()) != row_cols.end())
        fail(at + "duplicate column in a collapsing store");
    }
    total += sizes[r];
  }
  if (total != nnz_) fail("sum of row sizes " + std::to_string(total) + " != nnz " + std::to_string(nnz_));
  std::sort(extents.begin(), extents.end());
  for (std::size_t i = 1; i < extents.size(); ++i)
    if (extents[i].first < extents[i - 1].second) fail("segments overlap at " + std::to_string(extents[i].first));
  if (any_at_limit && !at_limit_) fail("a row is at k segments but the flag is clear");
}

#define FG_INSTANTIATE(V)                                                  \
  template void dcsr_matrix<V, host_space>::validate() const;             \
  template void dcsr_matrix<V, device_space>::validate() const;
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg
