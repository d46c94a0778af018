// Device twin of merge-path CSR's conversion: one diagonal search per tile (done here once, so the
// SpMV searches only inside a tile, in shared memory), and the fix-up runs as two stream compactions
// (run starts and run ends pair up in order).
#include <thrust/copy.h>

#include "storage/detail/csr_merge_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = csr_merge_kernels<device_space>;

void K::tile_coords(const offset_t* rp, vertex_t rows, offset_t nnz, offset_t tile_items, offset_t tiles,
                    merge_coord* out) {
  const offset_t items = offset_t(rows) + nnz;
  parallel_for(tiles + 1, FG_LAMBDA(std::int64_t t) {
    out[t] = merge_path_search(rp, rows, nnz, t * tile_items < items ? t * tile_items : items);
  });
}

void K::narrow_row_ends(const offset_t* rp, vertex_t rows, std::uint32_t* out) {
  parallel_for(rows, FG_LAMBDA(std::int64_t i) { out[i] = std::uint32_t(rp[i + 1]); });
}

offset_t K::runs(const offset_t* rp, vertex_t rows, const merge_coord* c, offset_t tiles, merge_run* out) {
  array<offset_t, device_space> first(static_cast<std::size_t>(tiles)), last(static_cast<std::size_t>(tiles));
  auto t0 = thrust::counting_iterator<offset_t>(0);
  auto starts = FG_LAMBDA(offset_t t) { return merge_run_edge(rp, rows, c, tiles, t, true); };
  auto ends = FG_LAMBDA(offset_t t) { return merge_run_edge(rp, rows, c, tiles, t, false); };
  const offset_t n = offset_t(thrust::copy_if(policy(), t0, t0 + tiles, first.data(), starts) - first.data());
  thrust::copy_if(policy(), t0, t0 + tiles, last.data(), ends);
  const offset_t* f = first.data();
  const offset_t* l = last.data();
  parallel_for(n, FG_LAMBDA(std::int64_t k) { out[k] = {vertex_t(c[f[k] + 1].row), std::int32_t(l[k] - f[k] + 1), f[k]}; });
  return n;
}

}  // namespace fg::detail
