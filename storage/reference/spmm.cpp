// Reference twin of SpMM (storage/device/spmm_*.cpp, storage/cuda/spmm_binned.cu): row by row,
// sequentially. A row's products are gathered in input order (A's entries, then B's), stably sorted
// by column and summed in that order; the mask drops every column that M's row stores.
#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "storage/detail/kernels.hpp"
#include "storage/detail/spmm_kernels.hpp"
#include "storage/detail/spmm_row.hpp"

namespace fg::detail {
using K = spmm_kernels<host_space>;

template <class V>
product_totals K::count_products(const spmm_operand<V>& A, const spmm_operand<V>& B, const spmm_cost& c,
                                 offset_t* ptr, offset_t* cost, spmm_row_bins*) {
  product_totals t;
  for (vertex_t r = 0; r < A.rows; ++r) {
    offset_t n = 0;
    A.for_each_piece(r, [&](offset_t b, offset_t e) {
      for (offset_t j = b; j < e; ++j) n += A.col[j] < B.rows ? B.size(A.col[j]) : 0;
    });
    ptr[r] = t.products;
    cost[r] = t.cost;
    t.products += n;
    t.cost += c.of(n, A.size(r));
  }
  ptr[A.rows] = t.products;
  cost[A.rows] = t.cost;
  return t;
}

template <class Sr, class V>
spmm_workspace<spmm_value_t<Sr, V>, host_space> K::multiply_rows(const spmm_operand<V>& A, const spmm_operand<V>& B,
                                                                 const spmm_operand<pattern>* M, vertex_t r0,
                                                                 vertex_t r1, const offset_t* ptr, offset_t base,
                                                                 offset_t products, const spmm_row_bins*) {
  using VC = spmm_value_t<Sr, V>;
  using T = typename Sr::value_type;
  spmm_workspace<VC, host_space> ws{array<vertex_t, host_space>(std::size_t(products)),
                                    array<stored_t<VC>, host_space>(is_pattern_v<VC> ? 0 : std::size_t(products)),
                                    array<offset_t, host_space>(std::size_t(r1 - r0) + 1)};
  std::vector<std::pair<vertex_t, T>> prod;
  std::vector<char> dead;
  for (vertex_t r = r0; r < r1; ++r) {
    row_products<Sr>(A, B, r, prod);
    const std::size_t u = prod.size();
    dead.assign(u, 0);
    if (M != nullptr && r < M->rows)
      M->for_each_piece(r, [&](offset_t b, offset_t e) {
        for (offset_t j = b; j < e; ++j) {
          auto it = std::lower_bound(prod.begin(), prod.end(), M->col[j],
                                     [](const auto& p, vertex_t c) { return p.first < c; });
          if (it != prod.end() && it->first == M->col[j]) dead[std::size_t(it - prod.begin())] = 1;
        }
      });
    offset_t w = ptr[r] - base, kept = 0;
    for (std::size_t i = 0; i < u; ++i) {
      if (dead[i]) continue;
      ws.col[std::size_t(w + kept)] = prod[i].first;
      store_value<VC>(ws.val.data(), w + kept, prod[i].second);
      ++kept;
    }
    ws.count[std::size_t(r - r0)] = kept;
  }
  ws.count[std::size_t(r1 - r0)] = 0;
  return ws;
}

offset_t K::scan_counts(offset_t* count, std::int64_t n) {
  offset_t total = 0;
  for (std::int64_t i = 0; i <= n; ++i) {
    const offset_t c = count[i];
    count[i] = total;
    total += c;
  }
  return total;
}

template <class VC>
spmm_part<VC, host_space> K::pack(vertex_t r0, vertex_t r1, const offset_t* ptr, offset_t base,
                                  spmm_workspace<VC, host_space>&& ws, offset_t total) {
  const std::size_t n = std::size_t(r1 - r0);
  spmm_part<VC, host_space> part{coo_matrix<VC, host_space>(std::size_t(total)), std::move(ws.count)};
  for (std::size_t i = 0; i < n; ++i)
    for (offset_t k = 0, w = ptr[r0 + vertex_t(i)] - base; k < part.row_ptr[i + 1] - part.row_ptr[i]; ++k) {
      const auto o = std::size_t(part.row_ptr[i] + k);
      part.batch.row[o] = r0 + vertex_t(i);
      part.batch.col[o] = ws.col[std::size_t(w + k)];
      if constexpr (!is_pattern_v<VC>) part.batch.val[o] = ws.val[std::size_t(w + k)];
    }
  return part;
}

bool K::strictly_sorted(const vertex_t* row, const vertex_t* col, std::size_t n) {
  for (std::size_t i = 1; i < n; ++i)
    if (row[i] < row[i - 1] || (row[i] == row[i - 1] && col[i] <= col[i - 1])) return false;
  return true;
}

void K::row_offsets(const vertex_t* row, std::size_t n, vertex_t rows, offset_t* row_ptr) {
  std::size_t j = 0;  // one sequential walk
  for (vertex_t i = 0; i <= rows; ++i) {
    while (j < n && row[j] < i) ++j;
    row_ptr[i] = offset_t(j);
  }
}

void K::mark(std::uint32_t* bits, offset_t words, const vertex_t* row, const vertex_t* col, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) bits[offset_t(row[i]) * words + (col[i] >> 5)] |= 1u << (col[i] & 31);
}

FG_FOR_EACH_SPMM(FG_SPMM_MULTIPLY_HOST)
FG_FOR_EACH_VALUE(FG_SPMM_COUNT_HOST)
#define FG_PACK(VC) FG_SPMM_PACK_IN(::fg::host_space, VC)
FG_FOR_EACH_VALUE(FG_PACK)
#undef FG_PACK

}  // namespace fg::detail
