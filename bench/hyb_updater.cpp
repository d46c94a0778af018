// The updatable HYB baseline (bench/hyb_updater.hpp) in Thrust: the GPU in the CUDA build, OpenMP
// otherwise (so the smoke test runs it too).
#include "bench/hyb_updater.hpp"

#include <thrust/binary_search.h>
#include <thrust/merge.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "bench/baselines.hpp"
#include "core/semiring.hpp"
#include "storage/device/policy.hpp"

namespace fg::bench {

namespace {
using detail::policy;

struct is_set {
  FG_HD bool operator()(std::uint8_t v) const { return v != 0; }
};
struct key_row {
  FG_HD vertex_t operator()(std::uint64_t k) const { return vertex_t(k >> 32); }
};

// Drops from the sorted distinct keys k[0, m) those present in the sorted array `in`; returns the new m.
std::size_t drop_present(std::uint64_t* k, std::size_t m, const array<std::uint64_t, device_space>& in) {
  if (in.size() == 0 || m == 0) return m;
  array<std::uint8_t, device_space> found(m);
  thrust::binary_search(policy(), in.data(), in.data() + in.size(), k, k + m, found.data());
  return std::size_t(thrust::remove_if(policy(), k, k + m, found.data(), is_set{}) - k);
}

// a ++ b (both sorted, disjoint) into one sorted array.
array<std::uint64_t, device_space> merged(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb) {
  array<std::uint64_t, device_space> out(na + nb);
  thrust::merge(policy(), a, a + na, b, b + nb, out.data());
  return out;
}
}  // namespace

bool hyb_updater::insert(const array<vertex_t, device_space>& src, const array<vertex_t, device_space>& dst,
                         std::size_t count) {
  auto keys = sorted_keys(src, dst, count);  // count: distinct in the batch
  count = drop_present(keys.data(), count, base_);
  count = drop_present(keys.data(), count, delta_);
  if (count == 0) return false;
  delta_ = merged(delta_.data(), delta_.size(), keys.data(), count);
  if (double(delta_.size()) > limit_ * double(nnz())) {
    rebuild();
    return true;
  }
  index_delta();
  return false;
}

void hyb_updater::rebuild() {
  base_ = merged(base_.data(), base_.size(), delta_.data(), delta_.size());
  delta_ = array<std::uint64_t, device_space>();
  index_delta();
  hyb_ = to_hyb(csr_from_keys(base_.data(), base_.size(), n_));
  ++rebuilds_;
}

// The delta tail's rows for the SpMV: distinct rows (ascending) and where each starts.
void hyb_updater::index_delta() {
  const std::size_t m = delta_.size();
  delta_rows_ = array<vertex_t, device_space>(m);
  array<offset_t, device_space> counts(m);
  auto rows = thrust::make_transform_iterator(delta_.data(), key_row{});
  const auto ends = thrust::reduce_by_key(policy(), rows, rows + m, thrust::constant_iterator<offset_t>(1),
                                          delta_rows_.data(), counts.data());
  const std::size_t r = std::size_t(ends.first - delta_rows_.data());
  delta_row_count_ = r;
  delta_ptr_ = array<offset_t, device_space>(r + 1);
  memory::zero_on_device(delta_ptr_.data(), sizeof(offset_t));
  thrust::inclusive_scan(policy(), counts.data(), counts.data() + r, delta_ptr_.data() + 1);
}

void hyb_updater::spmv(const array<float, device_space>& x, array<float, device_space>& y) const {
  if (rebuilds_ == 0) fill_zero(y);  // nothing built yet: every entry is in the delta tail
  else fg::spmv<plus_times<float>>(hyb_, x, y);
  const std::uint64_t* k = delta_.data();
  const vertex_t* rows = delta_rows_.data();
  const offset_t* ptr = delta_ptr_.data();
  const float* xv = x.data();
  float* yv = y.data();
  // A thread per delta row (rows are distinct: no two threads write one y).
  detail::parallel_for(std::int64_t(delta_row_count_), FG_LAMBDA(std::int64_t i) {
    float s = 0;
    for (offset_t j = ptr[i]; j < ptr[i + 1]; ++j) s += xv[std::uint32_t(k[j])];
    yv[rows[i]] += s;
  });
}

}  // namespace fg::bench
