// Growable device blocks (core/vmm.hpp): cuMemAddressReserve once, cuMemCreate + cuMemMap per step.
#if defined(FG_WITH_CUDA)
#include "core/vmm.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fg::memory::vmm {
namespace {
struct block {
  CUdeviceptr base = 0;
  std::size_t reserved = 0, mapped = 0;
  int device = 0;
  std::vector<std::pair<CUmemGenericAllocationHandle, std::size_t>> chunks;  // in address order
};
std::unordered_map<void*, block> blocks;  // under core/memory.cpp's lock

CUmemAllocationProp prop_of(int device) {
  CUmemAllocationProp p{};
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  return p;
}

std::size_t granularity(int device) {
  static std::mutex m;
  static std::unordered_map<int, std::size_t> known;
  std::lock_guard<std::mutex> lock(m);
  if (auto it = known.find(device); it != known.end()) return it->second;
  std::size_t g = 0;
  const CUmemAllocationProp p = prop_of(device);
  if (cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) != CUDA_SUCCESS) g = 0;
  return known[device] = g;
}

std::size_t round_up(std::size_t n, std::size_t g) { return (n + g - 1) / g * g; }

// Backs [b.mapped, to) with one new chunk.
bool map_to(block& b, std::size_t to) {
  const std::size_t n = to - b.mapped;
  const CUmemAllocationProp p = prop_of(b.device);
  CUmemGenericAllocationHandle h{};
  if (cuMemCreate(&h, n, &p, 0) != CUDA_SUCCESS) return false;
  if (cuMemMap(b.base + b.mapped, n, 0, h, 0) != CUDA_SUCCESS) {
    (void)cuMemRelease(h);
    return false;
  }
  CUmemAccessDesc a{};
  a.location = p.location;
  a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (cuMemSetAccess(b.base + b.mapped, n, &a, 1) != CUDA_SUCCESS) {
    (void)cuMemUnmap(b.base + b.mapped, n);
    (void)cuMemRelease(h);
    return false;
  }
  b.chunks.emplace_back(h, n);
  b.mapped = to;
  return true;
}

// Releases the chunks that lie wholly at or past `to` (the device idle first).
void unmap_past(block& b, std::size_t to) {
  bool waited = false;
  while (!b.chunks.empty() && b.mapped - b.chunks.back().second >= to) {
    if (!waited) (void)cudaDeviceSynchronize(), waited = true;
    const auto [h, n] = b.chunks.back();
    b.mapped -= n;
    (void)cuMemUnmap(b.base + b.mapped, n);
    (void)cuMemRelease(h);
    b.chunks.pop_back();
  }
}
}  // namespace

bool supported(int device) {
  static std::mutex m;
  static std::unordered_map<int, bool> known;
  std::lock_guard<std::mutex> lock(m);
  if (auto it = known.find(device); it != known.end()) return it->second;
  (void)cudaFree(nullptr);  // the runtime's primary context, current for the driver calls below
  CUdevice d = 0;
  int vmm = 0;
  const bool ok = cuDeviceGet(&d, device) == CUDA_SUCCESS &&
                  cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, d) == CUDA_SUCCESS &&
                  vmm != 0;
  return known[device] = ok && granularity(device) > 0;
}

void* create(std::size_t bytes, int device, std::size_t& mapped) noexcept {
  try {
    const std::size_t g = granularity(device);
    std::size_t total = 0;
    CUdevice d = 0;
    if (g == 0 || cuDeviceGet(&d, device) != CUDA_SUCCESS || cuDeviceTotalMem(&total, d) != CUDA_SUCCESS) return nullptr;
    block b;
    b.device = device;
    b.reserved = round_up(std::max(total, bytes), g);  // addresses only: the block can grow to the whole device
    if (cuMemAddressReserve(&b.base, b.reserved, 0, 0, 0) != CUDA_SUCCESS) return nullptr;
    if (!map_to(b, round_up(bytes, g))) {
      (void)cuMemAddressFree(b.base, b.reserved);
      return nullptr;
    }
    void* p = reinterpret_cast<void*>(b.base);
    mapped = b.mapped;
    blocks.emplace(p, std::move(b));
    return p;
  } catch (...) {
    return nullptr;
  }
}

bool resize(void* p, std::size_t bytes, std::size_t& mapped) noexcept {
  auto it = blocks.find(p);
  if (it == blocks.end()) return false;
  block& b = it->second;
  const std::size_t want = round_up(bytes, granularity(b.device));
  if (want > b.reserved) return false;
  try {
    if (want > b.mapped && !map_to(b, want)) return false;
  } catch (...) {
    return false;
  }
  if (want < b.mapped) unmap_past(b, want);
  mapped = b.mapped;
  return true;
}

void destroy(void* p) noexcept {
  auto it = blocks.find(p);
  if (it == blocks.end()) return;
  block& b = it->second;
  unmap_past(b, 0);
  (void)cuMemAddressFree(b.base, b.reserved);
  blocks.erase(it);
}

}  // namespace fg::memory::vmm
#endif
