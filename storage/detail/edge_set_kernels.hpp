// The bulk operations on an edge_set (storage/edge_set.hpp): storage/device/edge_set.cpp, Thrust
// (OpenMP in the CPU build, the GPU in the CUDA build). Only device stores keep a set; the
// reference twin always checks duplicates against the rows themselves.
#pragma once
#include <cstddef>
#include <cstdint>

#include "storage/dcsr.hpp"
#include "storage/edge_set.hpp"

namespace fg::detail {

/// sum over rows of sizes[r]^2 (with the store's nnz: the mean length of the row a new entry lands in).
double row_square_sum(const vertex_t* sizes, vertex_t rows);
/// Every slot empty, then every pair A holds (nnz of them).
template <class V>
void edge_set_build(const edge_set_view& s, const dcsr_view<V>& A, offset_t nnz);
/// drop[e] = 1 where (rows[e], cols[e]) is in the set (others untouched).
void edge_set_mark(const edge_set_view& s, const vertex_t* rows, const vertex_t* cols, std::size_t n,
                   std::uint8_t* drop);
/// Adds the pairs (all absent and distinct).
void edge_set_add(const edge_set_view& s, const vertex_t* rows, const vertex_t* cols, std::size_t n);
/// Every slot of `slot` empty.
void edge_set_clear(std::uint64_t* slot, std::size_t n);
/// Moves the keys in s.old[begin, end) to s.slot, leaving tombstones (storage/edge_set.hpp).
void edge_set_migrate(const edge_set_view& s, std::int64_t begin, std::int64_t end);

}  // namespace fg::detail
