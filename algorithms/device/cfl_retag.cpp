// Device twin of the CFL port retagging (algorithms/detail/cfl_kernels.hpp): a thread per entry
// binary-searches its key, then two stream compactions keep the found ones in order.
#include <thrust/copy.h>
#include <thrust/count.h>

#include "algorithms/detail/cfl_kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {

namespace {
struct found {
  FG_HD bool operator()(vertex_t p) const { return p >= 0; }
};
}  // namespace

coo_matrix<pattern, device_space> cfl_kernels<device_space>::retag(const coo_matrix<pattern, device_space>& in,
                                                                  const array<vertex_t, device_space>& tag,
                                                                  const array<std::int64_t, device_space>& keys) {
  const auto n = std::int64_t(in.nnz);
  if (n == 0) return coo_matrix<pattern, device_space>();
  array<vertex_t, device_space> port(static_cast<std::size_t>(n));
  const vertex_t* row = in.row.data();
  const vertex_t* col = in.col.data();
  const vertex_t* tg = tag.data();
  const std::int64_t* kp = keys.data();
  const auto nk = std::int64_t(keys.size());
  vertex_t* out = port.data();
  parallel_for(n, FG_LAMBDA(std::int64_t j) {
    const std::int64_t key = port_key(tg[row[j]], col[j]);
    std::int64_t lo = 0, hi = nk;  // first position with kp[pos] >= key
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (kp[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    out[j] = lo < nk && kp[lo] == key ? vertex_t(lo) : vertex_t(-1);
  });
  const auto kept = std::size_t(thrust::count_if(policy(), out, out + n, found{}));
  coo_matrix<pattern, device_space> res(kept);
  if (kept == 0) return res;
  thrust::copy_if(policy(), row, row + n, out, res.row.data(), found{});
  thrust::copy_if(policy(), out, out + n, res.col.data(), found{});
  return res;
}

}  // namespace fg::detail
