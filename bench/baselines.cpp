// Baselines (CSR rebuild, copy bandwidth) in Thrust: the GPU in the CUDA build, OpenMP otherwise.
#include "bench/baselines.hpp"

#include <thrust/binary_search.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/merge.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

#include <algorithm>
#include <random>
#include <thread>

#include "bench/timer.hpp"
#include "storage/device/policy.hpp"

namespace fg::bench {

namespace {
struct row_key {
  FG_HD std::uint64_t operator()(std::int64_t r) const { return std::uint64_t(r) << 32; }
};
// k[e] = (src[e] << 32 | dst[e]): sorting the keys sorts by (row, col).
void write_keys(const array<vertex_t, device_space>& src, const array<vertex_t, device_space>& dst, std::size_t count,
                std::uint64_t* k) {
  const vertex_t* s = src.data();
  const vertex_t* d = dst.data();
  detail::parallel_for(std::int64_t(count), FG_LAMBDA(std::int64_t e) {
    k[e] = (std::uint64_t(std::uint32_t(s[e])) << 32) | std::uint32_t(d[e]);
  });
}
}  // namespace

array<std::uint64_t, device_space> sorted_keys(const array<vertex_t, device_space>& src,
                                               const array<vertex_t, device_space>& dst, std::size_t& count) {
  using detail::policy;
  array<std::uint64_t, device_space> keys(count);
  std::uint64_t* k = keys.data();
  write_keys(src, dst, count, k);
  thrust::sort(policy(), k, k + count);
  count = std::size_t(thrust::unique(policy(), k, k + count) - k);
  return keys;
}

array<offset_t, device_space> key_row_offsets(const std::uint64_t* keys, std::size_t m, vertex_t n) {
  array<offset_t, device_space> row_ptr(static_cast<std::size_t>(n) + 1);
  auto first = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), row_key{});
  thrust::lower_bound(detail::policy(), keys, keys + m, first, first + n + 1, row_ptr.data());
  return row_ptr;
}

csr_matrix<pattern, device_space> csr_from_keys(const std::uint64_t* keys, std::size_t m, vertex_t n) {
  csr_matrix<pattern, device_space> c;
  c.rows = c.cols = n;
  c.row_ptr = key_row_offsets(keys, m, n);
  c.col = array<vertex_t, device_space>(m);
  vertex_t* col = c.col.data();
  detail::parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t e) { col[e] = vertex_t(std::uint32_t(keys[e])); });
  return c;
}

offset_t csr_rebuild::insert(const array<vertex_t, device_space>& src, const array<vertex_t, device_space>& dst,
                             std::size_t count) {
  using detail::policy;
  const std::size_t old = keys_.size();
  array<std::uint64_t, device_space> keys(old + count);
  std::uint64_t* k = keys.data();
  write_keys(src, dst, count, k);
  // Rebuild = sort everything. (A merge of the sorted batch would be cheaper; the common practice
  // this baseline stands for — CuPy's sparse add, a COO->CSR conversion — sorts all of it.)
  if (old) memory::copy_on_device(k + count, keys_.data(), old * sizeof(std::uint64_t));
  thrust::sort(policy(), k, k + old + count);
  const std::size_t m = std::size_t(thrust::unique(policy(), k, k + old + count) - k);
  keys_ = array<std::uint64_t, device_space>(m);
  memory::copy_on_device(keys_.data(), k, m * sizeof(std::uint64_t));
  row_ptr_ = key_row_offsets(keys_.data(), m, n_);
  return offset_t(m);
}

csr_matrix<pattern, device_space> csr_rebuild::csr() const { return csr_from_keys(keys_.data(), keys_.size(), n_); }

double copy_bandwidth_gbs(std::size_t bytes) {
  array<char, device_space> a(bytes), b(bytes);
  memory::zero_on_device(a.data(), bytes);
  device_timer t;
  const double ms = median_ms(t, 2, 10, [&](int) { memory::copy_on_device(b.data(), a.data(), bytes); });
  return 2.0 * double(bytes) / (ms * 1e-3) / 1e9;
}

void rmat(int scale, int edge_factor, std::uint64_t seed, std::vector<vertex_t>& src, std::vector<vertex_t>& dst) {
  rmat_edges(scale, std::size_t(edge_factor) << scale, seed, src, dst);
}

void rmat_edges(int scale, std::size_t m, std::uint64_t seed, std::vector<vertex_t>& src, std::vector<vertex_t>& dst,
                int part, int parts) {
  const std::size_t chunks = (m + rmat_chunk - 1) / rmat_chunk;
  const std::size_t mine = chunks > std::size_t(part) ? (chunks - std::size_t(part) + std::size_t(parts) - 1) / std::size_t(parts) : 0;
  auto chunk_edges = [&](std::size_t c) { return std::min(rmat_chunk, m - c * rmat_chunk); };
  std::size_t total = 0;
  for (std::size_t i = 0; i < mine; ++i) total += chunk_edges(std::size_t(part) + i * std::size_t(parts));
  src.resize(total);
  dst.resize(total);
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned(std::max<std::size_t>(mine, 1))));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::uniform_real_distribution<double> u(0, 1);
      for (std::size_t i = t; i < mine; i += threads) {  // the i-th chunk of this part: all full but the stream's last
        const std::size_t c = std::size_t(part) + i * std::size_t(parts);
        std::mt19937_64 g(seed * 1000003 + c);
        for (std::size_t e = i * rmat_chunk, end = e + chunk_edges(c); e < end; ++e) {
          vertex_t r = 0, col = 0;
          for (int bit = 0; bit < scale; ++bit) {
            const double p = u(g);  // quadrant: a = .57, b = .19, c = .19, d = .05
            const int q = p < 0.57 ? 0 : p < 0.76 ? 1 : p < 0.95 ? 2 : 3;
            r |= vertex_t(q >> 1) << bit;
            col |= vertex_t(q & 1) << bit;
          }
          src[e] = r;
          dst[e] = col;
        }
      }
    });
  for (auto& th : pool) th.join();
}

}  // namespace fg::bench
