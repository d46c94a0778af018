// CSR-Adaptive (Greathouse & Daga, SC 2014): rows are cut into row blocks holding < 2 * block_nnz
// nonzeros (a boundary wherever a row starts in a new block_nnz bucket of the row offsets), and a row
// longer than block_nnz is a block of its own. A thread block stages its row block's products into
// shared memory with coalesced loads, then reduces each row with a sub-warp sized from that block's
// own mean row length; a long row is reduced by the whole thread block. Short rows keep every lane
// busy and hub rows no longer serialise on one warp: the two ways CSR-vector loses on power-law graphs.
#pragma once
#include "core/array.hpp"
#include "storage/csr.hpp"

namespace fg {

/// Largest bucket: a row block's < 2 * block_nnz staged products must fit in shared memory
/// (2 x 2048 doubles = 32 KB, under the 48 KB a block gets without opting in).
inline constexpr offset_t csr_adaptive_max_block_nnz = 2048;

struct csr_adaptive_options {
  offset_t block_nnz = 1024;  ///< bucket size in [32, csr_adaptive_max_block_nnz]
};

template <class V>
struct csr_adaptive_view {
  csr_view<V> csr;
  const vertex_t* row_blocks = nullptr;  ///< blocks + 1 row boundaries
  offset_t blocks = 0, block_nnz = 0;
};

template <class V, class Space>
struct csr_adaptive_matrix {
  csr_matrix<V, Space> csr;            ///< its own copy of the matrix
  array<vertex_t, Space> row_blocks;   ///< blocks + 1 boundaries, first 0, last rows
  offset_t blocks = 0, block_nnz = 0;

  std::size_t bytes() const noexcept {
    return csr.bytes() + std::size_t(blocks + 1) * sizeof(vertex_t);
  }
  csr_adaptive_view<V> view() const noexcept { return {csr.view(), row_blocks.data(), blocks, block_nnz}; }
};

/// @brief Copies A and cuts its rows into blocks.
/// @throws fg::invalid_argument for block_nnz outside [32, csr_adaptive_max_block_nnz].
template <class V, class Space>
csr_adaptive_matrix<V, Space> to_csr_adaptive(const csr_matrix<V, Space>& A, const csr_adaptive_options& o = {});

/// @brief y = A (+).(x) x over semiring S.
template <class S, class V, class Space>
void spmv(const csr_adaptive_matrix<V, Space>& A, const array<typename S::value_type, Space>& x,
          array<typename S::value_type, Space>& y);

}  // namespace fg
