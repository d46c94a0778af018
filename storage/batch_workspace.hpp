// Scratch memory a store's batches reuse. Every batch needs sort keys, run tables, scan outputs and
// temporary storage of about its own size; allocating them per batch cost a pool round trip each
// (and, before the pool, a device-wide wait). Slots grow geometrically and are never shrunk, so a
// stream of batches of similar sizes allocates nothing after its first few batches.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/array.hpp"

namespace fg {

template <class Space>
class batch_workspace {
 public:
  /// Slots [0, 16) are a batch's scratch; [16, 24) hold a deletion's undo log, which the insertion
  /// of a mixed batch must leave intact (storage/detail/erase_steps.hpp).
  static constexpr int slots = 24;
  /// @brief At least `count` elements of T in slot `k` (8-byte aligned; contents unspecified, and
  ///        kept while the slot does not grow). Growing allocates: call before the batch writes.
  /// @throws fg::out_of_memory
  template <class T>
  T* get(int k, std::size_t count) {
    static_assert(alignof(T) <= alignof(std::uint64_t), "batch_workspace: over-aligned type");
    array<std::uint64_t, Space>& s = slot_[std::size_t(k)];
    const std::size_t words = (count * sizeof(T) + 7) / 8;
    if (s.size() < words) s = array<std::uint64_t, Space>(std::max(words, s.size() + s.size() / 2));
    return reinterpret_cast<T*>(s.data());
  }
  /// Whether slot `k` already holds `count` elements of T (get() would not grow it).
  template <class T>
  bool holds(int k, std::size_t count) const noexcept {
    return slot_[std::size_t(k)].size() >= (count * sizeof(T) + 7) / 8;
  }
  /// Bytes held.
  std::size_t bytes() const noexcept {
    std::size_t b = 0;
    for (const auto& s : slot_) b += s.bytes();
    return b;
  }

 private:
  std::array<array<std::uint64_t, Space>, slots> slot_;
};

}  // namespace fg
