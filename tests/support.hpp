// Helpers shared by the test suites: a host edge-set model and store comparisons.
#pragma once
#include <cstring>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "core/memory.hpp"
#include "storage/dcsr.hpp"

namespace fg::test {

/// A batch under construction on the host: rows, columns and values (as doubles).
struct edges {
  std::vector<vertex_t> r, c;
  std::vector<double> v;
  void add(vertex_t row, vertex_t col, double val) {
    r.push_back(row);
    c.push_back(col);
    v.push_back(val);
  }
};
/// The values of `e` as V (none for pattern).
template <class V>
std::vector<stored_t<V>> values(const edges& e) {
  if constexpr (is_pattern_v<V>) return {};
  else return std::vector<V>(e.v.begin(), e.v.end());
}
template <class V, class S>
coo_matrix<V, S> to_batch(const edges& e) { return make_coo<V, S>(e.r, e.c, values<V>(e)); }
/// A host batch from literal lists (hand-checked cases).
template <class V>
coo_matrix<V, host_space> batch(std::vector<vertex_t> r, std::vector<vertex_t> c, std::vector<stored_t<V>> v = {}) {
  return make_coo<V, host_space>(r, c, v);
}

/// Host model of a store: per (row, col), how many entries and their value sum.
struct edge_model {
  bool collapse = true;
  std::map<std::pair<vertex_t, vertex_t>, std::pair<std::int64_t, double>> cells;
  void add(vertex_t r, vertex_t c, double v) {
    auto& cell = cells[{r, c}];
    if (collapse && cell.first > 0) return;
    cell.first += 1;
    cell.second += v;
  }
  /// Deletion removes every copy of an edge.
  void remove(vertex_t r, vertex_t c) { cells.erase({r, c}); }
  std::int64_t nnz() const {
    std::int64_t n = 0;
    for (const auto& kv : cells) n += kv.second.first;
    return n;
  }
};

/// The store's content as (row, col) -> (count, value sum), read through to_coo().
template <class V, class S>
std::map<std::pair<vertex_t, vertex_t>, std::pair<std::int64_t, double>> cells_of(const dcsr_matrix<V, S>& A) {
  const auto coo = A.to_coo();
  const auto r = to_vector(coo.row), c = to_vector(coo.col);
  std::vector<stored_t<V>> v;
  if constexpr (!is_pattern_v<V>) v = to_vector(coo.val);
  std::map<std::pair<vertex_t, vertex_t>, std::pair<std::int64_t, double>> m;
  for (std::size_t e = 0; e < coo.nnz; ++e) {
    auto& cell = m[{r[e], c[e]}];
    cell.first += 1;
    if constexpr (!is_pattern_v<V>) cell.second += double(v[e]);
    else cell.second += 1.0;
  }
  return m;
}

/// REQUIREs that the store holds exactly the model's edges (values within a relative tolerance).
template <class V, class S>
void require_matches(const dcsr_matrix<V, S>& A, const edge_model& model) {
  const auto got = cells_of(A);
  REQUIRE(got.size() == model.cells.size());
  REQUIRE(A.nnz() == model.nnz());
  auto g = got.begin();
  for (const auto& [key, want] : model.cells) {
    REQUIRE(g->first == key);
    REQUIRE(g->second.first == want.first);
    if constexpr (!is_pattern_v<V>)
      REQUIRE(std::fabs(g->second.second - want.second) <= 1e-4 * (1.0 + std::fabs(want.second)));
    ++g;
  }
}

/// Exact equality of two stores' observable state: layout-determined CSR (stored order within
/// rows), counters and allocation. Device and reference twins must agree bit for bit.
template <class V, class S1, class S2>
void require_identical(const dcsr_matrix<V, S1>& a, const dcsr_matrix<V, S2>& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  REQUIRE(a.nnz() == b.nnz());
  REQUIRE(a.capacity() == b.capacity());
  REQUIRE(a.allocation_pointer() == b.allocation_pointer());
  REQUIRE(a.needs_defragment() == b.needs_defragment());
  REQUIRE(a.size_ordered() == b.size_ordered());
  if (a.size_ordered()) {  // the same physical placement by size
    REQUIRE(to_vector(a.size_order()) == to_vector(b.size_order()));
    REQUIRE(to_vector(a.size_order_ptr()) == to_vector(b.size_order_ptr()));
    REQUIRE(a.size_bins() == b.size_bins());
  }
  const auto ca = a.to_csr(), cb = b.to_csr();
  REQUIRE(to_vector(ca.row_ptr) == to_vector(cb.row_ptr));
  REQUIRE(to_vector(ca.col) == to_vector(cb.col));
  if constexpr (!is_pattern_v<V>) REQUIRE(to_vector(ca.val) == to_vector(cb.val));
  const dcsr_stats &sa = a.stats(), &sb = b.stats();
  REQUIRE(sa.segments_allocated == sb.segments_allocated);
  REQUIRE(sa.compactions_segment_limit == sb.compactions_segment_limit);
  REQUIRE(sa.rows_relocated == sb.rows_relocated);
  REQUIRE(sa.compactions_buffer_full == sb.compactions_buffer_full);
  REQUIRE(sa.duplicates_dropped == sb.duplicates_dropped);
  REQUIRE(sa.entries_deleted == sb.entries_deleted);
  REQUIRE(sa.deletes_absent == sb.deletes_absent);
}

/// A store's raw layout, byte for byte where it is content: row sizes and segment counts, every
/// segment slot of the row table (released ones too: an undo needs them), the column and value
/// buffers up to the allocation pointer.
struct raw_layout {
  std::vector<vertex_t> sizes;
  std::vector<std::uint8_t> nseg;
  std::vector<offset_t> seg;  ///< row r's slot s at (r * k + s) * 2
  std::vector<vertex_t> col;
  /// The values' bits: slots past a row's size hold whatever the buffer held (recycled memory, a
  /// NaN's bits at times), and NaN != NaN would call two identical layouts different.
  std::vector<std::uint64_t> val;
  bool operator==(const raw_layout& o) const {
    return sizes == o.sizes && nseg == o.nseg && seg == o.seg && col == o.col && val == o.val;
  }
};
template <class S, class T>
std::vector<T> read_back(const T* p, std::size_t n) {
  std::vector<T> out(n);
  if (n == 0) return out;
  if constexpr (std::is_same_v<S, device_space>) memory::copy_to_host(out.data(), p, n * sizeof(T));
  else std::copy(p, p + n, out.begin());
  return out;
}
template <class V, class S>
raw_layout layout_of(const dcsr_matrix<V, S>& A) {
  const dcsr_view<V> v = A.view();
  const auto rows = std::size_t(A.rows()), k = std::size_t(v.k), used = std::size_t(A.allocation_pointer());
  raw_layout l;
  l.sizes = read_back<S>(v.sizes, rows);
  l.nseg = read_back<S>(v.nseg, rows);
  for (std::size_t s = 0; s < k; ++s) {  // slab s of the table holds every row's slot s
    const auto slab = read_back<S>(v.seg + offset_t(s) * v.pitch, 2 * rows);
    l.seg.resize(2 * rows * k);
    for (std::size_t r = 0; r < rows; ++r) {
      l.seg[(r * k + s) * 2] = slab[2 * r];
      l.seg[(r * k + s) * 2 + 1] = slab[2 * r + 1];
    }
  }
  l.col = read_back<S>(v.col, used);
  if constexpr (!is_pattern_v<V>)
    for (auto x : read_back<S>(v.val, used)) {
      const double d = double(x);
      std::uint64_t bits = 0;
      std::memcpy(&bits, &d, sizeof bits);
      l.val.push_back(bits);
    }
  return l;
}

}  // namespace fg::test
