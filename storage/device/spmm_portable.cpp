// Portable multiply_rows (CPU build: OpenMP threads; the CUDA build's is storage/cuda/spmm_binned.cu).
// A row of up to `row_limit` products is done by one thread in its cache, like one CUDA bin's row:
// its products summed into the thread's hash table (open addressing, a slot per distinct column, a
// column's products added in input order), then only the distinct columns sorted, masked and
// written to the workspace at the row's place. The sums are those of the reference twin's stable
// sort (storage/detail/spmm_row.hpp) bit for bit, which the tests check.
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

/// A thread's hash table of (column, sum), reused row after row: a row of p products takes the
/// first power of two >= 2p slots (short probe runs), and only the slots it used are cleared.
/// Sorting every product (the reference's way) cost the AMG Galerkin rows, ~400 products over ~30
/// columns, most of their time.
template <class T>
struct row_table {
  static constexpr vertex_t empty = -1, held = -2;  // held: a cell the mask removes (still probed past)
  std::vector<vertex_t> key;
  std::vector<T> val;
  std::vector<std::uint32_t> used;  // slots taken, in the order their columns first came
  std::uint32_t mask = 0;
  int shift = 28;

  void size_for(offset_t products) {
    std::size_t n = 16;
    shift = 28;
    while (n < 2 * std::size_t(products)) n *= 2, --shift;
    if (key.size() < n) key.assign(n, empty), val.resize(n);
    mask = std::uint32_t(n - 1);
  }
  // Fibonacci hashing (the product's top bits: columns a power of two apart spread), then a
  // linear probe.
  std::uint32_t slot(vertex_t c) const {
    std::uint32_t h = (std::uint32_t(c) * 2654435769u) >> shift;
    while (key[h] != empty && key[h] != c) h = (h + 1) & mask;
    return h;
  }
  template <class Sr>
  void add(vertex_t c, T v) {
    const std::uint32_t h = slot(c);
    if (key[h] == c) {
      val[h] = Sr::add(val[h], v);
    } else {
      key[h] = c, val[h] = v;
      used.push_back(h);
    }
  }
  void clear() {
    for (std::uint32_t h : used) key[h] = empty;
    used.clear();
  }
};

/// One row r by one thread: its products summed in `t`, the distinct columns sorted into `buf`,
/// masked (the cells M holds are dropped); returns the row's count, its entries written from w.
template <class Sr, class V, class T>
offset_t one_row(const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_operand<pattern>* M, vertex_t r,
                 offset_t products, row_table<T>& t, std::vector<std::pair<vertex_t, T>>& buf, vertex_t* ws_col,
                 stored_t<spmm_value_t<Sr, V>>* ws_val, offset_t w) {
  using VC = spmm_value_t<Sr, V>;
  t.size_for(products);
  for_each_row_product<Sr>(A, B, r, [&](vertex_t c, T v) { t.template add<Sr>(c, v); });
  // The set difference: a cell M holds is not output (by its bitmap, or its row's entries looked up
  // in the table and marked).
  const bool masked = M != nullptr && r < M->rows;
  if (masked && M->bits == nullptr)
    M->for_each_piece(r, [&](offset_t b, offset_t e) {
      for (offset_t p = b; p < e; ++p) {
        const std::uint32_t h = t.slot(M->col[p]);
        if (t.key[h] == M->col[p]) t.key[h] = row_table<T>::held;
      }
    });
  buf.clear();
  for (std::uint32_t h : t.used) {
    const vertex_t c = t.key[h];
    if (c != row_table<T>::held && !(masked && M->bits != nullptr && M->has_bit(r, c))) buf.emplace_back(c, t.val[h]);
  }
  t.clear();
  std::sort(buf.begin(), buf.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (std::size_t i = 0; i < buf.size(); ++i) {
    ws_col[w + offset_t(i)] = buf[i].first;
    store_value<VC>(ws_val, w + offset_t(i), buf[i].second);
  }
  return offset_t(buf.size());
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
    row_table<T> table;
    std::vector<std::pair<vertex_t, T>> buf;
    std::vector<vertex_t>& mine = long_rows[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 64)
    for (vertex_t r = r0; r < r1; ++r) {
      const offset_t p = ptr[r + 1] - ptr[r];
      if (p > row_limit) mine.push_back(r);
      else if (p > 0) cnt[r - r0] = one_row<Sr>(A, B, M, r, p, table, buf, wc, wv, ptr[r] - base);
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
