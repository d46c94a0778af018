// Matrices for the load-balancing formats beyond tests/format_support.hpp: many long rows (more G1
// rows than one parent launch may hold child grids for) and one row holding most nonzeros (longer than
// a 1024-thread block reads in one pass). f(name, csr_host).
#pragma once
#include <random>
#include <string>
#include <vector>

#include "storage/csr.hpp"

namespace fg::test {

/// CSR from per-row lengths, random columns and values (seeded).
template <class V>
csr_matrix<V, host_space> csr_from_lengths(const std::vector<offset_t>& len, vertex_t cols, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<offset_t> rp(len.size() + 1, 0);
  for (std::size_t r = 0; r < len.size(); ++r) rp[r + 1] = rp[r] + len[r];
  std::vector<vertex_t> c(std::size_t(rp.back()));
  std::vector<stored_t<V>> v;
  for (auto& e : c) e = vertex_t(g() % std::uint64_t(cols));
  if constexpr (!is_pattern_v<V>)
    for (std::size_t j = 0; j < c.size(); ++j) v.push_back(stored_t<V>(std::uniform_real_distribution<double>(-1, 1)(g)));
  csr_matrix<V, host_space> A;
  A.rows = vertex_t(len.size());
  A.cols = cols;
  A.row_ptr = to_space<host_space>(rp);
  A.col = to_space<host_space>(c);
  A.val = to_space<host_space>(v);
  return A;
}

template <class V, class F>
void for_each_long_row_matrix(F&& f) {
  f("5000 rows of 100", csr_from_lengths<V>(std::vector<offset_t>(5000, 100), 7000, 1));
  std::vector<offset_t> mixed;
  for (int r = 0; r < 30000; ++r) mixed.push_back(r % 6 == 0 ? 100 + r % 7 : r % 5);
  f("5000 rows of ~100 among 25000 short", csr_from_lengths<V>(mixed, 30000, 2));
  std::vector<offset_t> hub(2000, 2);
  hub[777] = 300000;
  f("one row of 300000 among 1999 of 2", csr_from_lengths<V>(hub, 2000, 3));
  std::vector<offset_t> steps;
  for (int r = 0; r < 4000; ++r) steps.push_back(offset_t(1) << (r % 13));  // 1 .. 4096: every bin
  f("lengths 1 to 4096", csr_from_lengths<V>(steps, 5000, 4));
}

/// y before an SpMV: a value no row can produce by accident, so an unwritten row fails the check.
template <class T>
std::vector<T> sentinel(std::size_t n) {
  return std::vector<T>(n, std::is_same_v<T, std::uint8_t> ? T(7) : T(123456));
}

}  // namespace fg::test
