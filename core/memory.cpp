// The only file that allocates device memory (DESIGN.md habit 5); growable blocks are mapped through
// core/vmm.cpp, which only this file calls.
//
// CUDA build: stream-ordered allocation from the device's default memory pool (cudaMallocAsync /
// cudaFreeAsync on the legacy default stream) with the pool's release threshold at its maximum, so
// freed blocks stay cached and the next allocation reuses them. Why: the fixed points (closure,
// points-to, CFL) allocate tens of temporaries per round, and cudaMalloc + cudaFree (which waits for
// the whole device) cost more per round than the round's kernels on small and medium graphs.
// Ordering is safe because every stream fluxgraph launches on is a blocking stream (stream_set.cuh):
// a free on the legacy stream runs after all earlier work on every stream. The one exception is the
// NCCL exchange's stream (core/comm_nccl.cpp, non-blocking): the legacy stream waits on its event
// before the exchange's buffers can be freed (x_in_flight in distributed/dist_graph.hpp sees to it, on
// every path).
//
// Blocks of at most 1 MiB are also kept on the host when freed (block_cache below) and handed out
// again without a driver call: a coarse AMG level's two products make ~60 allocations and frees of
// a few KB, and each cudaMallocAsync / cudaFreeAsync is a driver call of ~0.5 us on a level that
// runs ~50 us of kernels (docs/perf-journal.md, 2026-11-29). Reuse needs the same ordering as the pool's:
// a block's earlier users ran on the legacy stream, on a blocking stream, or on the NCCL stream
// that the legacy stream waited on before the free; and the pooled streams are drained before their
// caller returns (stream_set::finish), so no earlier user still runs on a stream that a new user's
// stream does not wait for. FG_DEVICE_BLOCK_CACHE=0 turns it off (for compute-sanitizer). An
// allocation that fails hands the host's and the pool's cached blocks back and tries once more before
// throwing. Devices without memory pools fall back to cudaMalloc/cudaFree (and no block cache).
#include "core/device_select.hpp"
#include "core/memory.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>
#include <string>

#include "core/error.hpp"
#include "core/types.hpp"

#if defined(FG_WITH_CUDA)
#include <cuda_runtime_api.h>
#include "core/cuda_check.hpp"
#include "core/vmm.hpp"
#else
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <map>
#include <thread>

#include "core/threads.hpp"
#endif

namespace fg::memory {
namespace {
std::atomic<std::size_t> in_use{0}, peak{0}, limit{0};
// FG_MEMORY_LIMIT=BYTES (digits): set_limit_for_testing(BYTES) from the first allocation on, for
// whole programs (the CLI's out-of-memory checks, tests/cli/durability_checks.py).
void limit_from_environment() {
  static const bool once = [] {
    const char* e = std::getenv("FG_MEMORY_LIMIT");
    if (!e) return true;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(e, &end, 10);
    if (*e < '0' || *e > '9' || *end != '\0')
      throw invalid_argument(std::string("FG_MEMORY_LIMIT must be a number of bytes, got '") + e + "'");
    limit.store(std::size_t(v));
    return true;
  }();
  (void)once;
}
std::atomic<std::uint64_t> to_device_bytes{0}, to_host_bytes{0};  // transfers()
// Block sizes live on the host, so freeing needs no device round trip. cls: the block's cache class
// (-1: not cached when freed), device: where it lives.
struct block_info {
  std::size_t bytes = 0;
  int cls = -1, device = 0;
  std::size_t mapped = 0;  ///< CPU build: the bytes of a block mapped on its own (0: malloc's)
  bool growable = false;   ///< CUDA build: a block of core/vmm.hpp
};
std::mutex sizes_mutex;
std::unordered_map<void*, block_info> sizes;

#if defined(FG_WITH_CUDA)
// The host's cache of small freed blocks (memory pools only): class k holds blocks of
// 256 << k bytes, allocated at that size; at most cache_cap bytes a device wait here.
constexpr int cache_classes = 13;  // 256 B .. 1 MiB
constexpr std::size_t cache_cap = std::size_t(64) << 20;
struct block_cache {
  std::vector<void*> free[cache_classes];
  std::size_t bytes = 0;
};
std::unordered_map<int, block_cache> caches;  // by device; under sizes_mutex
// Blocks from allocate_growable of at least this size are growable (core/vmm.hpp); smaller ones,
// and every block of a device without virtual memory management, come from the pool.
constexpr std::size_t growable_min = std::size_t(32) << 20;
constexpr std::size_t class_bytes(int k) { return std::size_t(256) << k; }
// FG_DEVICE_BLOCK_CACHE=0 turns the cache off (exact sizes, every free to the pool): compute-sanitizer's
// runs need it, as a cached block is neither reported as a leak at exit nor checked past its request.
bool cache_on() {
  static const bool on = [] {
    const char* e = std::getenv("FG_DEVICE_BLOCK_CACHE");
    return !(e && *e == '0');
  }();
  return on;
}
int size_class(std::size_t bytes) {
  if (!cache_on()) return -1;
  for (int k = 0; k < cache_classes; ++k)
    if (bytes <= class_bytes(k)) return k;
  return -1;
}
#endif

#if defined(FG_WITH_CUDA)
// The current device's default pool, configured once; null when the device has no memory pools.
cudaMemPool_t pool_of(int dev) {
  static std::mutex m;
  static std::unordered_map<int, cudaMemPool_t> pools;
  std::lock_guard<std::mutex> lock(m);
  auto it = pools.find(dev);
  if (it != pools.end()) return it->second;
  int supported = 0;
  FG_CUDA_TRY(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev));
  cudaMemPool_t p = nullptr;
  if (supported != 0) {
    FG_CUDA_TRY(cudaDeviceGetDefaultMemPool(&p, dev));
    std::uint64_t keep = UINT64_MAX;  // never hand cached blocks back at a synchronization
    FG_CUDA_TRY(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep));
  }
  return pools.emplace(dev, p).first->second;
}

cudaMemPool_t pool() {
  int dev = 0;
  FG_CUDA_TRY(cudaGetDevice(&dev));
  return pool_of(dev);
}

cudaMemPool_t pool_or_null() noexcept {
  try {
    return pool();
  } catch (...) {
    return nullptr;
  }
}

cudaError_t device_alloc(void** p, std::size_t bytes, cudaMemPool_t mp) {
  return mp != nullptr ? cudaMallocAsync(p, bytes, cudaStream_t(0)) : cudaMalloc(p, bytes);
}

// A cached block of class k on `device`, or null. Caller holds sizes_mutex.
void* take_cached(int device, int k) {
  auto it = caches.find(device);
  if (k < 0 || it == caches.end() || it->second.free[k].empty()) return nullptr;
  void* p = it->second.free[k].back();
  it->second.free[k].pop_back();
  it->second.bytes -= class_bytes(k);
  return p;
}

// Every cached block of `device` back to the pool (before trimming it). Caller holds sizes_mutex.
void release_cached(int device) {
  auto it = caches.find(device);
  if (it == caches.end()) return;
  for (auto& list : it->second.free) {
    for (void* p : list) (void)cudaFreeAsync(p, cudaStream_t(0));
    list.clear();
  }
  it->second.bytes = 0;
}
#endif

#if !defined(FG_WITH_CUDA)
// CPU build: blocks of big_block bytes or more are mapped on their own and, when freed, kept (up to
// a quarter of the machine's memory) for the next request they fit within 2x, as the CUDA build's
// pool keeps its blocks. On a virtual machine a fresh page costs its first touch: the kernel zeroed
// pages for 28% of a 29 M-line `stream - --wal` (perf), and a compaction or a row table that grew
// into fresh memory stalled the stream for seconds (docs/durability.md, "Pauses").
// AddressSanitizer checks only malloc's blocks: its builds map none.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t big_block = SIZE_MAX, page_bytes = 4096;
#else
constexpr std::size_t big_block = std::size_t(8) << 20, page_bytes = 4096;
#endif
std::multimap<std::size_t, void*> host_cache;  // mapped bytes -> block; under sizes_mutex
std::size_t host_cache_bytes = 0;

void release_host_cache() noexcept {
  std::lock_guard<std::mutex> lock(sizes_mutex);
  for (const auto& [n, p] : host_cache) (void)munmap(p, n);
  host_cache.clear();
  host_cache_bytes = 0;
}

std::size_t host_cache_cap() {
  static const std::size_t cap = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) / 4 : std::size_t(1) << 30;
  }();
  return cap;
}

void* map_block(std::size_t n) {
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

// A block of `bytes`; mapped: its mapping's size (0 when malloc's).
void* host_block(std::size_t bytes, std::size_t& mapped) {
  if (bytes < big_block) {
    mapped = 0;
    return std::aligned_alloc(256, (bytes + 255) / 256 * 256);  // cudaMalloc's alignment, for parity
  }
  mapped = (bytes + page_bytes - 1) / page_bytes * page_bytes;
  {
    std::lock_guard<std::mutex> lock(sizes_mutex);
    auto it = host_cache.lower_bound(mapped);
    if (it != host_cache.end() && it->first <= 2 * mapped) {
      mapped = it->first;
      void* p = it->second;
      host_cache_bytes -= it->first;
      host_cache.erase(it);
      return p;
    }
  }
  void* p = map_block(mapped);
  if (p == nullptr) {  // the cache may be what is missing
    release_host_cache();
    p = map_block(mapped);
  }
  return p;
}

void free_host_block(void* p, std::size_t mapped) noexcept {
  if (mapped == 0) {
    std::free(p);
    return;
  }
  try {
    std::lock_guard<std::mutex> lock(sizes_mutex);
    if (host_cache_bytes + mapped <= host_cache_cap()) {
      host_cache.emplace(mapped, p);
      host_cache_bytes += mapped;
      return;
    }
  } catch (...) {  // no memory for the cache's node: unmap it below
  }
  (void)munmap(p, mapped);
}
#endif

void raise_peak(std::size_t now) noexcept {
  std::size_t pk = peak.load();
  while (now > pk && !peak.compare_exchange_weak(pk, now)) {
  }
}

void account(void* p, std::size_t bytes, int cls, int device, std::size_t mapped = 0) {
  {
    std::lock_guard<std::mutex> lock(sizes_mutex);
    sizes.emplace(p, block_info{bytes, cls, device, mapped});
  }
  raise_peak(in_use.fetch_add(bytes) + bytes);
}
}  // namespace

void* allocate(std::size_t bytes) {
  limit_from_environment();
  if (bytes == 0) bytes = 1;
  std::size_t lim = limit.load();
  if (lim != 0 && in_use.load() + bytes > lim)
    throw out_of_memory("out of memory: " + std::to_string(bytes) + " bytes requested (test limit)");
  void* p = nullptr;
  int cls = -1, device = 0;
#if defined(FG_WITH_CUDA)
  FG_CUDA_TRY(cudaGetDevice(&device));
  const cudaMemPool_t mp = pool_of(device);
  if (mp != nullptr) cls = size_class(bytes);
  if (cls >= 0) {
    std::lock_guard<std::mutex> lock(sizes_mutex);
    p = take_cached(device, cls);
  }
  if (p != nullptr) {
    account(p, bytes, cls, device);
    return p;
  }
  const std::size_t alloc_bytes = cls >= 0 ? class_bytes(cls) : bytes;
  cudaError_t e = device_alloc(&p, alloc_bytes, mp);
  if (e != cudaSuccess && mp != nullptr) {  // cached blocks may be what is missing: release them, retry
    (void)cudaGetLastError();
    {
      std::lock_guard<std::mutex> lock(sizes_mutex);
      release_cached(device);
    }
    FG_CUDA_TRY(cudaDeviceSynchronize());
    FG_CUDA_TRY(cudaMemPoolTrimTo(mp, 0));
    e = device_alloc(&p, alloc_bytes, mp);
  }
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // an allocation failure is not sticky: clear it for later calls
    throw out_of_memory("device out of memory: " + std::to_string(bytes) + " bytes requested, " +
                        std::to_string(in_use.load()) + " in use (" + cudaGetErrorString(e) + ")");
  }
#else
  std::size_t mapped = 0;
  p = host_block(bytes, mapped);
  if (p == nullptr) throw out_of_memory("out of memory: " + std::to_string(bytes) + " bytes requested");
  account(p, bytes, cls, device, mapped);
  return p;
#endif
  account(p, bytes, cls, device);
  return p;
}

void* allocate_growable(std::size_t bytes) {
#if defined(FG_WITH_CUDA)
  int device = 0;
  FG_CUDA_TRY(cudaGetDevice(&device));
  if (bytes < growable_min || !vmm::supported(device)) return allocate(bytes);
  limit_from_environment();
  const std::size_t lim = limit.load();
  if (lim != 0 && in_use.load() + bytes > lim)
    throw out_of_memory("out of memory: " + std::to_string(bytes) + " bytes requested (test limit)");
  std::size_t mapped = 0;
  std::unique_lock<std::mutex> lock(sizes_mutex);
  void* p = vmm::create(bytes, device, mapped);
  if (p == nullptr) {  // the pool's and the host's cached blocks may be what is missing
    release_cached(device);
    lock.unlock();
    FG_CUDA_TRY(cudaDeviceSynchronize());
    if (const cudaMemPool_t mp = pool_of(device)) FG_CUDA_TRY(cudaMemPoolTrimTo(mp, 0));
    lock.lock();
    p = vmm::create(bytes, device, mapped);
  }
  if (p == nullptr)
    throw out_of_memory("device out of memory: " + std::to_string(bytes) + " bytes requested (growable), " +
                        std::to_string(in_use.load()) + " in use");
  try {
    sizes.emplace(p, block_info{bytes, -1, device, mapped, true});
  } catch (...) {  // no host memory for the entry: the block goes back
    vmm::destroy(p);
    throw;
  }
  lock.unlock();
  raise_peak(in_use.fetch_add(bytes) + bytes);
  return p;
#else
  return allocate(bytes);  // a large block is mapped on its own, and remapped to grow
#endif
}

void deallocate(void* p) noexcept {
  if (p == nullptr) return;
  [[maybe_unused]] std::size_t freed_mapped = 0;
  {
    std::lock_guard<std::mutex> lock(sizes_mutex);
    auto it = sizes.find(p);
    if (it != sizes.end()) {
      const block_info b = it->second;
      freed_mapped = b.mapped;
      in_use -= b.bytes;
      sizes.erase(it);
#if defined(FG_WITH_CUDA)
      if (b.growable) {
        vmm::destroy(p);
        return;
      }
      if (b.cls >= 0) {
        try {
          block_cache& c = caches[b.device];
          if (c.bytes + class_bytes(b.cls) <= cache_cap) {
            c.free[b.cls].push_back(p);
            c.bytes += class_bytes(b.cls);
            return;
          }
        } catch (...) {  // no host memory for the list: free the block below
        }
      }
#endif
    }
  }
#if defined(FG_WITH_CUDA)
  // A destructor cannot report; a broken context surfaces at the next checked call. (cudaFree also
  // releases a pool block, waiting for the device first.)
  const cudaMemPool_t mp = pool_or_null();
  if (mp != nullptr) cudaFreeAsync(p, cudaStream_t(0));
  else cudaFree(p);
#else
  free_host_block(p, freed_mapped);
#endif
}

void* resize_in_place([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(FG_WITH_CUDA)
  if (p == nullptr || bytes == 0) return nullptr;
  std::lock_guard<std::mutex> lock(sizes_mutex);
  auto it = sizes.find(p);
  if (it == sizes.end() || !it->second.growable) return nullptr;
  block_info& b = it->second;
  const std::size_t lim = limit.load();
  if (lim != 0 && bytes > b.bytes && in_use.load() + (bytes - b.bytes) > lim) return nullptr;
  if (!vmm::resize(p, bytes, b.mapped)) return nullptr;
  in_use += bytes;
  in_use -= b.bytes;
  b.bytes = bytes;
  raise_peak(in_use.load());
  return p;
#else
  const std::size_t mapped = (bytes + page_bytes - 1) / page_bytes * page_bytes;
  if (p == nullptr || bytes < big_block) return nullptr;
  std::lock_guard<std::mutex> lock(sizes_mutex);
  auto it = sizes.find(p);
  if (it == sizes.end() || it->second.mapped == 0) return nullptr;
  block_info b = it->second;
  const std::size_t lim = limit.load();
  if (lim != 0 && bytes > b.bytes && in_use.load() + (bytes - b.bytes) > lim) return nullptr;
  void* q = mremap(p, b.mapped, mapped, MREMAP_MAYMOVE);
  if (q == MAP_FAILED) return nullptr;
  in_use += bytes;
  in_use -= b.bytes;
  b.bytes = bytes, b.mapped = mapped;
  auto node = sizes.extract(it);  // re-keyed in place: no allocation
  node.key() = q;
  node.mapped() = b;
  sizes.insert(std::move(node));
  raise_peak(in_use.load());
  return q;
#endif
}

#if defined(FG_WITH_CUDA)
void copy_to_device(void* d, const void* s, std::size_t n) {
  if (n) FG_CUDA_TRY(cudaMemcpy(d, s, n, cudaMemcpyHostToDevice));
  to_device_bytes += n;
}
namespace {
// A thread's page-locked bounce buffer for small reads, freed when the thread ends (compute-sanitizer's
// leak check counts it otherwise); null if it could not be had (the read then takes the plain copy).
constexpr std::size_t small_read = 4096;
struct bounce {
  void* p = nullptr;
  bool tried = false;
  bounce() = default;
  bounce(const bounce&) = delete;
  bounce& operator=(const bounce&) = delete;
  ~bounce() {
    if (p != nullptr) (void)cudaFreeHost(p);
  }
};
void* bounce_buffer() {
  thread_local bounce b;
  if (!b.tried) {
    b.tried = true;
    if (cudaHostAlloc(&b.p, small_read, cudaHostAllocPortable) != cudaSuccess) {
      (void)cudaGetLastError();
      b.p = nullptr;
    }
  }
  return b.p;
}
}  // namespace

// A small read (a count, a total, a status) is what a product or a batch waits on: through a pinned
// buffer it skips the driver's staging of pageable memory, a few us each. Same order as cudaMemcpy:
// the copy is queued on the legacy stream, which waits for every blocking stream, and is waited for.
void copy_to_host(void* d, const void* s, std::size_t n) {
  void* b = n != 0 && n <= small_read ? bounce_buffer() : nullptr;
  if (b != nullptr) {
    FG_CUDA_TRY(cudaMemcpyAsync(b, s, n, cudaMemcpyDeviceToHost, cudaStream_t(0)));
    FG_CUDA_TRY(cudaStreamSynchronize(cudaStream_t(0)));
    std::memcpy(d, b, n);
  } else if (n) {
    FG_CUDA_TRY(cudaMemcpy(d, s, n, cudaMemcpyDeviceToHost));
  }
  to_host_bytes += n;
}
void copy_on_device(void* d, const void* s, std::size_t n) {
  if (n) FG_CUDA_TRY(cudaMemcpy(d, s, n, cudaMemcpyDeviceToDevice));
}
void zero_on_device(void* d, std::size_t n) {
  if (n) FG_CUDA_TRY(cudaMemset(d, 0, n));
}
void zero_lazily(void* d, std::size_t n) { zero_on_device(d, n); }
void synchronize() { FG_CUDA_TRY(cudaDeviceSynchronize()); }
int device_count() {
  int count = 0;
  FG_CUDA_TRY(cudaGetDeviceCount(&count));
  return count;
}
void select_device(int local_rank) {
  if (const int count = device_count(); count > 0) FG_CUDA_TRY(cudaSetDevice(local_rank % count));
}
#else
void copy_to_device(void* d, const void* s, std::size_t n) {
  if (n) std::memcpy(d, s, n);
  to_device_bytes += n;
}
void copy_to_host(void* d, const void* s, std::size_t n) {
  if (n) std::memcpy(d, s, n);
  to_host_bytes += n;
}
void copy_on_device(void* d, const void* s, std::size_t n) { if (n) std::memcpy(d, s, n); }
void zero_on_device(void* d, std::size_t n) { if (n) std::memset(d, 0, n); }
void zero_lazily(void* d, std::size_t n) {
  // Only blocks big_block and up are mapped on their own (private, anonymous): dropping a page of one
  // touches no other allocation. A smaller region, or an ASan build (big_block = SIZE_MAX), is written.
  auto* b = static_cast<char*>(d);
  char* lo = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(b) + page_bytes - 1) / page_bytes * page_bytes);
  char* hi = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(b + n) / page_bytes * page_bytes);
  if (n < big_block || hi <= lo || madvise(lo, std::size_t(hi - lo), MADV_DONTNEED) != 0) {
    zero_on_device(d, n);
    return;
  }
  std::memset(b, 0, std::size_t(lo - b));
  std::memset(hi, 0, std::size_t(b + n - hi));
  // A hash table's first writes land on every page at once (a pair index's first migration step
  // touched all of a 1 GB table: 0.96 s). A thread at nice 10 faults the pages in ahead of them,
  // 64 MB a call; MADV_POPULATE_WRITE leaves their contents alone, so it may race the writes, and
  // on a range freed meanwhile it fails (or maps pages of a later block, unchanged): it then stops.
  try {
    std::thread([lo, hi] {
      ::setpriority(PRIO_PROCESS, pid_t(::syscall(SYS_gettid)), 10);
      constexpr std::size_t chunk = std::size_t(64) << 20;
      for (char* p = lo; p < hi; p += chunk)
        if (madvise(p, std::min(chunk, std::size_t(hi - p)), MADV_POPULATE_WRITE) != 0) return;
    }).detach();
  } catch (...) {  // no thread: the writes fault the pages in themselves
  }
}
void synchronize() {}
void select_device(int) {}
int device_count() { return 0; }
#endif

std::size_t bytes_in_use() noexcept { return in_use.load(); }
transfer_counts transfers() noexcept { return {to_device_bytes.load(), to_host_bytes.load()}; }
std::size_t peak_bytes() noexcept { return peak.load(); }
void reset_peak() noexcept { peak.store(in_use.load()); }
void set_limit_for_testing(std::size_t bytes) noexcept { limit.store(bytes); }

namespace {
// What the device (or the host) says is free now, and the pool's idle blocks, which are ours to reuse.
std::size_t query_free() {
  std::size_t free_bytes = 0;
#if defined(FG_WITH_CUDA)
  std::size_t total = 0;
  FG_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total));
  if (const cudaMemPool_t mp = pool()) {
    std::uint64_t reserved = 0, used = 0;
    FG_CUDA_TRY(cudaMemPoolGetAttribute(mp, cudaMemPoolAttrReservedMemCurrent, &reserved));
    FG_CUDA_TRY(cudaMemPoolGetAttribute(mp, cudaMemPoolAttrUsedMemCurrent, &used));
    if (reserved > used) free_bytes += std::size_t(reserved - used);
    int device = 0;
    FG_CUDA_TRY(cudaGetDevice(&device));
    std::lock_guard<std::mutex> lock(sizes_mutex);  // the host's cached blocks are ours to reuse too
    if (const auto it = caches.find(device); it != caches.end()) free_bytes += it->second.bytes;
  }
#else
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  free_bytes = pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : std::size_t(1) << 30;
  std::lock_guard<std::mutex> lock(sizes_mutex);
  free_bytes += host_cache_bytes;  // kept blocks are ours to reuse
#endif
  return free_bytes;
}

int current_device() {
#if defined(FG_WITH_CUDA)
  int d = 0;
  FG_CUDA_TRY(cudaGetDevice(&d));
  return d;
#else
  return 0;
#endif
}

// The last query per device: what was free then and how much this process held then.
struct free_then {
  std::chrono::steady_clock::time_point at;
  std::size_t free_bytes = 0, held = 0;
};
constexpr std::chrono::milliseconds free_refresh{50};
}  // namespace

std::size_t aged_free(std::size_t free_then, std::size_t held_then, std::size_t held_now) noexcept {
  if (held_now >= held_then) return free_then > held_now - held_then ? free_then - (held_now - held_then) : 0;
  return free_then + (held_then - held_now);
}

// cudaMemGetInfo is a driver round trip: 20-70 us in the CUPTI timeline of the AMG Galerkin products
// (H200, docs/perf-journal.md, 2026-11-29), longer than a coarse level's kernels, and the GPU idles while
// the host waits for it; each SpMM asked twice, a batch insert once. Budgets are estimates, so the
// answer is kept and aged by what this process allocated or freed since (a freed block goes back to
// the pool, still ours), and asked again after free_refresh (other processes' allocations).
std::size_t available_bytes() {
  static std::mutex m;
  static std::unordered_map<int, free_then> last;
  const auto now = std::chrono::steady_clock::now();
  const int device = current_device();
  std::size_t free_bytes = 0;
  {
    std::lock_guard<std::mutex> lock(m);
    auto it = last.find(device);
    if (it == last.end() || now - it->second.at > free_refresh) {
      const std::size_t held = in_use.load();
      it = last.insert_or_assign(device, free_then{now, query_free(), held}).first;
    }
    free_bytes = aged_free(it->second.free_bytes, it->second.held, in_use.load());
  }
  const std::size_t lim = limit.load(), used = in_use.load();
  if (lim != 0) free_bytes = std::min(free_bytes, lim > used ? lim - used : 0);
  return free_bytes;
}

}  // namespace fg::memory

namespace fg {
#if defined(FG_WITH_CUDA)
const char* device_backend_name() noexcept { return "cuda"; }
std::string device_description() {
  // Asked by every PageRank run (the calibration is keyed by it), and cudaGetDeviceProperties fills
  // ~100 fields, some by driver queries: remembered per device.
  int dev = 0;
  FG_CUDA_TRY(cudaGetDevice(&dev));
  static std::mutex lock;
  static std::unordered_map<int, std::string> known;
  std::lock_guard<std::mutex> hold(lock);
  if (const auto it = known.find(dev); it != known.end()) return it->second;
  cudaDeviceProp p{};
  FG_CUDA_TRY(cudaGetDeviceProperties(&p, dev));
  return known[dev] = std::string(p.name) + ", " + std::to_string(p.multiProcessorCount) + " SMs";
}
#else
const char* device_backend_name() noexcept { return "openmp"; }
std::string device_description() {  // the threads a region gets now (core/threads.hpp)
  const int n = threads::current();
  return std::to_string(n) + (n == 1 ? " OpenMP thread" : " OpenMP threads");
}
#endif
}  // namespace fg
