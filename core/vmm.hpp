// CUDA build only: growable device blocks through the driver's virtual memory management, for
// core/memory.cpp (the one allocator). A growable block reserves an address range the size of the
// device's memory and maps physical memory into it as it grows, so a buffer grows without a copy
// and without holding its old and new copies at once (the compact footprint's peak,
// docs/performance.md "The compact footprint"). Callers hold core/memory.cpp's lock.
#pragma once
#include <cstddef>

namespace fg::memory::vmm {

/// Whether `device` supports growable blocks (asked once a device).
bool supported(int device);
/// A block of at least `bytes` on `device` (mapped: the bytes backed), or null when memory is short.
void* create(std::size_t bytes, int device, std::size_t& mapped) noexcept;
/// Block p backed for `bytes` (more or fewer; the address stays): false, nothing changed, when memory
/// is short or p's range is too small. A shrink waits for the device (unmapped memory must be idle).
bool resize(void* p, std::size_t bytes, std::size_t& mapped) noexcept;
/// Frees block p after waiting for the device.
void destroy(void* p) noexcept;

}  // namespace fg::memory::vmm
