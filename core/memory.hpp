// The one allocator. cudaMalloc/cudaFree appear only in core/memory.cpp; everything else (arrays,
// Thrust temporary storage) allocates through here, so out-of-memory is one exception type and the
// peak footprint is one counter.
#pragma once
#include <cstddef>
#include <cstdint>

namespace fg::memory {

/// @brief Device memory (host memory in the CPU build). Never returns null for bytes > 0.
/// @throws fg::out_of_memory when the allocation fails (the caller's state is untouched).
void* allocate(std::size_t bytes);
/// @brief allocate(), for a buffer that will grow (a store's entries): resize_in_place can then
///        grow it without a copy in the CUDA build too (driver-mapped memory, core/vmm.hpp; blocks
///        of 32 MiB or more on a device that supports it). The CPU build maps large blocks anyway.
void* allocate_growable(std::size_t bytes);
void deallocate(void* p) noexcept;
/// @brief Block p (from allocate) resized to `bytes`, its first min(old, bytes) bytes kept, without a
///        copy where the memory allows it: the CPU build remaps a block mapped on its own (mremap
///        moves its pages; a grown buffer's copy into fresh pages paused a stream for a second).
///        The CUDA build maps more memory behind a block from allocate_growable (the address
///        stays). Null when it cannot (a block not made for it, AddressSanitizer builds, a small
///        block, a test limit, memory short): p is then unchanged.
void* resize_in_place(void* p, std::size_t bytes) noexcept;

void copy_to_device(void* dst, const void* src, std::size_t bytes);
void copy_to_host(void* dst, const void* src, std::size_t bytes);
void copy_on_device(void* dst, const void* src, std::size_t bytes);
void zero_on_device(void* dst, std::size_t bytes);
/// @brief zero_on_device for a large region that is then written sparsely (a hash table): the CPU
///        build drops the pages of its page-aligned interior (madvise MADV_DONTNEED), which come back
///        zeroed at their first touch, so the cost follows the writes instead of a pass now, and a
///        fresh mapping costs nothing (docs/durability.md, "Pauses"). Elsewhere zero_on_device.
void zero_lazily(void* dst, std::size_t bytes);
/// @brief Wait for all device work (no-op in the CPU build) and surface asynchronous errors.
void synchronize();

/// @brief Bytes copied by copy_to_device / copy_to_host since the program started.
struct transfer_counts {
  std::uint64_t to_device = 0, to_host = 0;
};
transfer_counts transfers() noexcept;

/// @brief Bytes currently allocated through allocate() (as requested), and the high-water mark since
///        reset_peak(). The CUDA build's device holds a little more: small blocks are rounded up to
///        a power of two and freed ones are kept for reuse (at most 64 MiB; core/memory.cpp).
std::size_t bytes_in_use() noexcept;
std::size_t peak_bytes() noexcept;
void reset_peak() noexcept;
/// @brief Test hook: make allocations fail once more than `bytes` are in use (0 = no limit).
void set_limit_for_testing(std::size_t bytes) noexcept;
/// @brief About how many bytes allocate() can still hand out: the device's free memory (CUDA
///        build) or the host's available physical memory (CPU build), and never more than a test
///        limit leaves. Workspace budgets (SpMM slices) are derived from it. The device or host is
///        asked at most every 50 ms; in between, the last answer is aged by aged_free().
std::size_t available_bytes();
/// @brief available_bytes()'s estimate between queries: `free_then` was free while the process held
///        `held_then` bytes; it holds `held_now` (what it took since came out of the free memory).
std::size_t aged_free(std::size_t free_then, std::size_t held_then, std::size_t held_now) noexcept;

}  // namespace fg::memory
