// The only file that calls cudaMalloc/cudaFree (DESIGN.md habit 5).
#include "core/memory.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <string>

#include "core/error.hpp"
#include "core/types.hpp"

#if defined(FG_WITH_CUDA)
#include <cuda_runtime_api.h>
#include "core/cuda_check.hpp"
#else
#include <omp.h>
#include <unistd.h>
#endif

namespace fg::memory {
namespace {
std::atomic<std::size_t> in_use{0}, peak{0}, limit{0};
// Block sizes live on the host, so freeing needs no device round trip.
std::mutex sizes_mutex;
std::unordered_map<void*, std::size_t> sizes;

void account(void* p, std::size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(sizes_mutex);
    sizes.emplace(p, bytes);
  }
  std::size_t now = in_use.fetch_add(bytes) + bytes;
  std::size_t pk = peak.load();
  while (now > pk && !peak.compare_exchange_weak(pk, now)) {
  }
}
}  // namespace

void* allocate(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  std::size_t lim = limit.load();
  if (lim != 0 && in_use.load() + bytes > lim)
    throw out_of_memory("out of memory: " + std::to_string(bytes) + " bytes requested (test limit)");
  void* p = nullptr;
#if defined(FG_WITH_CUDA)
  cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // an allocation failure is not sticky: clear it for later calls
    throw out_of_memory("device out of memory: " + std::to_string(bytes) + " bytes requested, " +
                        std::to_string(in_use.load()) + " in use (" + cudaGetErrorString(e) + ")");
  }
#else
  p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);  // cudaMalloc's alignment, for parity
  if (p == nullptr) throw out_of_memory("out of memory: " + std::to_string(bytes) + " bytes requested");
#endif
  account(p, bytes);
  return p;
}

void deallocate(void* p) noexcept {
  if (p == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(sizes_mutex);
    auto it = sizes.find(p);
    if (it != sizes.end()) {
      in_use -= it->second;
      sizes.erase(it);
    }
  }
#if defined(FG_WITH_CUDA)
  cudaFree(p);  // a destructor cannot report; a broken context surfaces at the next checked call
#else
  std::free(p);
#endif
}

#if defined(FG_WITH_CUDA)
void copy_to_device(void* d, const void* s, std::size_t n) {
  if (n) FG_CUDA_TRY(cudaMemcpy(d, s, n, cudaMemcpyHostToDevice));
}
void copy_to_host(void* d, const void* s, std::size_t n) {
  if (n) FG_CUDA_TRY(cudaMemcpy(d, s, n, cudaMemcpyDeviceToHost));
}
void copy_on_device(void* d, const void* s, std::size_t n) {
  if (n) FG_CUDA_TRY(cudaMemcpy(d, s, n, cudaMemcpyDeviceToDevice));
}
void zero_on_device(void* d, std::size_t n) {
  if (n) FG_CUDA_TRY(cudaMemset(d, 0, n));
}
void synchronize() { FG_CUDA_TRY(cudaDeviceSynchronize()); }
#else
void copy_to_device(void* d, const void* s, std::size_t n) { if (n) std::memcpy(d, s, n); }
void copy_to_host(void* d, const void* s, std::size_t n) { if (n) std::memcpy(d, s, n); }
void copy_on_device(void* d, const void* s, std::size_t n) { if (n) std::memcpy(d, s, n); }
void zero_on_device(void* d, std::size_t n) { if (n) std::memset(d, 0, n); }
void synchronize() {}
#endif

std::size_t bytes_in_use() noexcept { return in_use.load(); }
std::size_t peak_bytes() noexcept { return peak.load(); }
void reset_peak() noexcept { peak.store(in_use.load()); }
void set_limit_for_testing(std::size_t bytes) noexcept { limit.store(bytes); }

std::size_t available_bytes() {
  std::size_t free_bytes = 0;
#if defined(FG_WITH_CUDA)
  std::size_t total = 0;
  FG_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total));
#else
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  free_bytes = pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : std::size_t(1) << 30;
#endif
  const std::size_t lim = limit.load(), used = in_use.load();
  if (lim != 0) free_bytes = std::min(free_bytes, lim > used ? lim - used : 0);
  return free_bytes;
}

}  // namespace fg::memory

namespace fg {
#if defined(FG_WITH_CUDA)
const char* device_backend_name() noexcept { return "cuda"; }
std::string device_description() {
  int dev = 0;
  FG_CUDA_TRY(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  FG_CUDA_TRY(cudaGetDeviceProperties(&p, dev));
  return std::string(p.name) + ", " + std::to_string(p.multiProcessorCount) + " SMs";
}
#else
const char* device_backend_name() noexcept { return "openmp"; }
std::string device_description() { return std::to_string(omp_get_max_threads()) + " OpenMP threads"; }
#endif
}  // namespace fg
