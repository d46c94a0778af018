// The CPU build's walk over a DCSR store's entries in CSR order (storage/device/: Thrust on OpenMP).
// The GPU's way, a thread an entry that finds its row by binary search and its place through the
// row's segments, costs a CPU ~21 dependent cache misses an entry; here the entries are cut into
// ranges of 64 Ki, a task each, that find their first row once and then walk rows and segments in
// order. Long rows cannot unbalance it: a range ends mid-row where it must.
#pragma once
#include "core/types.hpp"
#include "storage/dcsr.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {

/// f(i, k, src) for each entry i in [0, nnz) of the CSR whose `rows` rows have the offsets
/// `row_ptr` (rows + 1 of them): entry i belongs to its row k, which is A's row order[k] (or k
/// without an order), and is stored at A's position src. A row k without entries is not looked at
/// (order[k] may then name no row of A). f must be FG_HD and capture by value.
template <class V, class F>
void for_each_entry_ranged(const dcsr_view<V>& A, const offset_t* row_ptr, std::int64_t rows, const vertex_t* order,
                           offset_t nnz, F f) {
  const std::int64_t n = rows + 1;
  constexpr offset_t range = offset_t(1) << 16;  // entries a task: many tasks a thread, each a long walk
  const std::int64_t tasks = std::int64_t((nnz + range - 1) / range);
  parallel_for(tasks, FG_LAMBDA(std::int64_t t) {
    const offset_t lo = offset_t(t) * range, hi = lo + range < nnz ? lo + range : nnz;
    for (std::int64_t k = last_not_greater(row_ptr, n, lo); k + 1 < n && row_ptr[k] < hi; ++k) {
      const offset_t first = row_ptr[k], from = lo > first ? lo - first : 0;  // row positions [from, to)
      const offset_t to = (hi < row_ptr[k + 1] ? hi : row_ptr[k + 1]) - first;
      if (to <= from) continue;
      offset_t pos = 0;  // the row position where the piece starts
      A.for_each_piece(order ? order[k] : vertex_t(k), [&](offset_t b, offset_t e) {
        for (offset_t p = pos > from ? pos : from, end = pos + (e - b) < to ? pos + (e - b) : to; p < end; ++p)
          f(first + p, k, b + (p - pos));
        pos += e - b;
      });
    }
  });
}

}  // namespace fg::detail
