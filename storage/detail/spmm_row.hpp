// One row of an SpMM on the host, the reference twin's way (storage/reference/spmm.cpp): products in
// input order (A's entries as stored, each B row as stored), stable-sorted by column, equal columns
// summed in that order. The CPU build's row path (storage/device/spmm_portable.cpp) walks the same
// products in the same order into a hash table, so the two agree bit for bit.
#pragma once
#include <algorithm>
#include <utility>
#include <vector>

#include "storage/spmm.hpp"

namespace fg::detail {

/// f(column, product) for every partial product of row r, in input order (A's entries as stored,
/// each B row as stored): the order both row paths sum a column in.
template <class Sr, class V, class F>
void for_each_row_product(const spmm_operand<V>& A, const spmm_operand<V>& B, vertex_t r, F&& f) {
  using T = typename Sr::value_type;
  A.for_each_piece(r, [&](offset_t b, offset_t e) {
    for (offset_t j = b; j < e; ++j) {
      const vertex_t k = A.col[j];
      if (k >= B.rows) continue;
      const T a = value_or<V>(A.val, j, Sr::pattern_value());
      B.for_each_piece(k, [&](offset_t bb, offset_t be) {
        for (offset_t q = bb; q < be; ++q) f(B.col[q], Sr::mul(a, value_or<V>(B.val, q, Sr::pattern_value())));
      });
    }
  });
}

/// prod = row r's (column, product) pairs sorted by column with one entry per column.
template <class Sr, class V, class T>
void row_products(const spmm_operand<V>& A, const spmm_operand<V>& B, vertex_t r, std::vector<std::pair<vertex_t, T>>& prod) {
  prod.clear();
  for_each_row_product<Sr>(A, B, r, [&](vertex_t c, T v) { prod.emplace_back(c, v); });
  std::stable_sort(prod.begin(), prod.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::size_t u = 0;  // reduce equal columns in place, in input order
  for (std::size_t i = 0; i < prod.size(); ++i) {
    if (u > 0 && prod[u - 1].first == prod[i].first) prod[u - 1].second = Sr::add(prod[u - 1].second, prod[i].second);
    else prod[u++] = prod[i];
  }
  prod.resize(u);
}

}  // namespace fg::detail
