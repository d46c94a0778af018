// Baselines measured in the same run as fluxgraph's kernels, and synthetic inputs.
#pragma once
#include <cstdint>
#include <vector>

#include "core/array.hpp"
#include "core/types.hpp"
#include "storage/csr.hpp"

namespace fg::bench {

/// The usual alternative to a dynamic store: keep CSR and rebuild it for every batch (device sort of
/// all keys so far + unique + row offsets by binary search). Returns the distinct edge count.
class csr_rebuild {
 public:
  explicit csr_rebuild(vertex_t n) : n_(n) {}
  offset_t insert(const array<vertex_t, device_space>& src, const array<vertex_t, device_space>& dst,
                  std::size_t count);
  const array<offset_t, device_space>& row_ptr() const { return row_ptr_; }
  /// The CSR itself (row offsets + the keys' columns): what a reader of the rebuilt matrix needs.
  csr_matrix<pattern, device_space> csr() const;

 private:
  vertex_t n_;
  array<std::uint64_t, device_space> keys_;  ///< (row << 32 | col), sorted, distinct
  array<offset_t, device_space> row_ptr_;
};

/// Edge keys (row << 32 | col) of `count` edges, sorted and distinct; `count` becomes the distinct count.
array<std::uint64_t, device_space> sorted_keys(const array<vertex_t, device_space>& src,
                                               const array<vertex_t, device_space>& dst, std::size_t& count);
/// Row offsets (n + 1) of m sorted keys, by a binary search per row.
array<offset_t, device_space> key_row_offsets(const std::uint64_t* keys, std::size_t m, vertex_t n);
/// The CSR (pattern) of m sorted distinct keys.
csr_matrix<pattern, device_space> csr_from_keys(const std::uint64_t* keys, std::size_t m, vertex_t n);

/// Device-to-device copy bandwidth in GB/s, counting bytes read plus bytes written.
double copy_bandwidth_gbs(std::size_t bytes);

/// R-MAT edges (Graph500 a=.57, b=.19, c=.19), 2^scale vertices, edge_factor * 2^scale edges,
/// generated on all host threads with a fixed seed. The same edges on every machine: the stream is
/// cut into chunks of rmat_chunk edges, each with its own seed, whatever the thread count.
void rmat(int scale, int edge_factor, std::uint64_t seed, std::vector<vertex_t>& src, std::vector<vertex_t>& dst);
constexpr std::size_t rmat_chunk = std::size_t(1) << 20;
/// The same generator for m edges, part `part` of `parts`: the chunks part, part + parts, ... of
/// the m-edge stream, so the parts of any count together are the same graph (a distributed run's
/// share: strong scaling compares one graph).
void rmat_edges(int scale, std::size_t m, std::uint64_t seed, std::vector<vertex_t>& src, std::vector<vertex_t>& dst,
                int part = 0, int parts = 1);

}  // namespace fg::bench
