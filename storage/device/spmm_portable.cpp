// Portable multiply_rows (CPU build: OpenMP threads; the CUDA build's is storage/cuda/spmm_binned.cu).
// A row of up to `row_limit` products is done by one thread in its cache, like one CUDA bin's row:
// its products gathered into the thread's buffer, stable-sorted by column, summed in input order
// (bit-identical with the reference twin), masked, written to the workspace at the row's place.
// Longer rows take the global path (expand, sort by (row, column), reduce by key, mask: every
// thread on one row's products), then one gather, as in the CUDA build.
// Reference twin: storage/reference/spmm.cpp.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "storage/detail/search.hpp"
#include "storage/detail/spmm_kernels.hpp"
#include "storage/detail/spmm_row.hpp"
#include "storage/device/spmm_device.hpp"

namespace fg::detail {
using K = spmm_kernels<device_space>;

namespace {

// Rows past this many products: the global path (a sort over all threads), which balances one
// huge row (a closure's hub) across the threads; a row's buffer below it stays in cache. Measured
// on 2 cores: 65536 made wiki-Vote's closure 2.4x slower (hub rows, one thread each), 2048 sent
// the Q1 problem's coarse AMG rows to the global sort (Galerkin 0.24 -> 0.41 s); 8192 is at
// least as fast as the all-global path on every graph of the closure table tried.
constexpr offset_t row_limit = 8192;

/// One row r by one thread: its products in `buf` (row_products), masked (`dead` marks the cells M
/// holds); returns the row's count, its entries written from w.
template <class Sr, class V, class T>
offset_t one_row(const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_operand<pattern>* M, vertex_t r,
                 std::vector<std::pair<vertex_t, T>>& buf, std::vector<std::uint8_t>& dead, vertex_t* ws_col,
                 stored_t<spmm_value_t<Sr, V>>* ws_val, offset_t w) {
  using VC = spmm_value_t<Sr, V>;
  row_products<Sr>(A, B, r, buf);
  const std::size_t u = buf.size();
  dead.assign(u, 0);
  if (M != nullptr && r < M->rows && u > 0) {  // the set difference
    if (M->bits != nullptr) {
      for (std::size_t i = 0; i < u; ++i) dead[i] = M->has_bit(r, buf[i].first) ? 1 : 0;
    } else {
      M->for_each_piece(r, [&](offset_t b, offset_t e) {
        for (offset_t p = b; p < e; ++p) {
          const vertex_t c = M->col[p];
          const auto it = std::lower_bound(buf.begin(), buf.end(), c, [](const auto& x, vertex_t v) { return x.first < v; });
          if (it != buf.end() && it->first == c) dead[std::size_t(it - buf.begin())] = 1;
        }
      });
    }
  }
  offset_t kept = 0;
  for (std::size_t i = 0; i < u; ++i) {
    if (dead[i]) continue;
    ws_col[w + kept] = buf[i].first;
    store_value<VC>(ws_val, w + kept, buf[i].second);
    ++kept;
  }
  return kept;
}

}  // namespace

template <class Sr, class V>
spmm_workspace<spmm_value_t<Sr, V>, device_space> K::multiply_rows(const spmm_operand<V>& A,
                                                                   const spmm_operand<V>& B,
                                                                   const spmm_operand<pattern>* M, vertex_t r0,
                                                                   vertex_t r1, const offset_t* ptr, offset_t base,
                                                                   offset_t products, const spmm_row_bins*) {
  using VC = spmm_value_t<Sr, V>;
  using T = typename Sr::value_type;
  spmm_workspace<VC, device_space> ws{
      array<vertex_t, device_space>(static_cast<std::size_t>(products)),
      array<stored_t<VC>, device_space>(is_pattern_v<VC> ? 0 : static_cast<std::size_t>(products)),
      array<offset_t, device_space>(std::size_t(r1 - r0) + 1)};
  fill_zero(ws.count);  // the last entry stays 0 for gather
  vertex_t* wc = ws.col.data();
  stored_t<VC>* wv = ws.val.data();
  offset_t* cnt = ws.count.data();
  std::vector<std::vector<vertex_t>> long_rows(static_cast<std::size_t>(omp_get_max_threads()));
#pragma omp parallel
  {
    std::vector<std::pair<vertex_t, T>> buf;
    std::vector<std::uint8_t> dead;
    std::vector<vertex_t>& mine = long_rows[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 64)
    for (vertex_t r = r0; r < r1; ++r) {
      const offset_t p = ptr[r + 1] - ptr[r];
      if (p > row_limit) mine.push_back(r);
      else if (p > 0) cnt[r - r0] = one_row<Sr>(A, B, M, r, buf, dead, wc, wv, ptr[r] - base);
    }
  }
  std::vector<vertex_t> rows;
  for (const auto& l : long_rows) rows.insert(rows.end(), l.begin(), l.end());
  if (!rows.empty()) {
    std::sort(rows.begin(), rows.end());
    const array<vertex_t, device_space> list = to_space<device_space>(rows);
    spmm_device::global_rows<Sr>(A, B, M, list.data(), std::int64_t(rows.size()), r0, ptr, base, wc, wv, cnt);
  }
  return ws;
}

FG_FOR_EACH_SPMM(FG_SPMM_MULTIPLY_DEVICE)

}  // namespace fg::detail
