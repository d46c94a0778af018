// Coordinate batches: the unit in which edges reach the store.
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/array.hpp"
#include "core/types.hpp"

namespace fg {

/// Element type of a value array: pattern matrices keep none (size 0), so any byte type will do.
template <class V>
using stored_t = std::conditional_t<is_pattern_v<V>, std::uint8_t, V>;

// Value access that compiles away for pattern matrices. Kernels use these instead of `if constexpr`
// because nvcc's extended lambdas cannot first-capture a variable inside a constexpr-if.
template <class V, class T>
FG_HD inline T value_or(const stored_t<V>* val, offset_t j, T pattern_value) {
  if constexpr (is_pattern_v<V>) return pattern_value;
  else return T(val[j]);
}
template <class V>
FG_HD inline void copy_value(stored_t<V>* dst, offset_t i, const stored_t<V>* src, offset_t j) {
  if constexpr (!is_pattern_v<V>) dst[i] = src[j];
}
template <class V>
FG_HD inline bool value_is_finite(const stored_t<V>* val, offset_t j) {
  if constexpr (is_pattern_v<V>) return true;
  else return finite_value(double(val[j]));
}

/// @brief Edges (row, col[, val]) in any order, duplicates allowed. `nnz` may be smaller than the
///        arrays (kernels that drop entries shrink it without reallocating).
template <class V, class Space>
struct coo_matrix {
  std::size_t nnz = 0;
  array<vertex_t, Space> row, col;
  array<stored_t<V>, Space> val;  ///< empty for pattern

  coo_matrix() = default;
  explicit coo_matrix(std::size_t n) : nnz(n), row(n), col(n), val(is_pattern_v<V> ? 0 : n) {}
};

/// @brief Host vectors -> a batch in Space. `vals` is ignored for pattern, required otherwise.
template <class V, class Space>
coo_matrix<V, Space> make_coo(const std::vector<vertex_t>& rows, const std::vector<vertex_t>& cols,
                              const std::vector<stored_t<V>>& vals = {}) {
  FG_EXPECTS(rows.size() == cols.size(), "make_coo: rows and cols differ in length");
  if constexpr (!is_pattern_v<V>)
    FG_EXPECTS(vals.size() == rows.size(), "make_coo: a weighted batch needs one value per edge");
  coo_matrix<V, Space> c;
  c.nnz = rows.size();
  c.row = to_space<Space>(rows);
  c.col = to_space<Space>(cols);
  if constexpr (!is_pattern_v<V>) c.val = to_space<Space>(vals);
  return c;
}

/// @brief Deep copy of a batch into another (or the same) space; drops array tail past nnz.
template <class Space, class V, class S2>
coo_matrix<V, Space> clone_coo(const coo_matrix<V, S2>& src) {
  coo_matrix<V, Space> c(src.nnz);
  auto part = [&](auto& dst, const auto& s, std::size_t n) {
    if (n == 0) return;
    using T = typename std::decay_t<decltype(dst)>::value_type;
    if constexpr (std::is_same_v<Space, device_space> && std::is_same_v<S2, device_space>)
      memory::copy_on_device(dst.data(), s.data(), n * sizeof(T));
    else if constexpr (std::is_same_v<Space, device_space>)
      memory::copy_to_device(dst.data(), s.data(), n * sizeof(T));
    else if constexpr (std::is_same_v<S2, device_space>)
      memory::copy_to_host(dst.data(), s.data(), n * sizeof(T));
    else
      std::memcpy(dst.data(), s.data(), n * sizeof(T));
  };
  part(c.row, src.row, src.nnz);
  part(c.col, src.col, src.nnz);
  if constexpr (!is_pattern_v<V>) part(c.val, src.val, src.nnz);
  return c;
}

}  // namespace fg
