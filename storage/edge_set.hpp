// A hash set of the (row, col) pairs a collapsing store holds, for the device twin's duplicate check.
// Without it, a batch's entries are looked up by letting every stored entry of every touched row
// search the batch (work = the touched rows' volume): on a power-law graph every batch touches the
// hubs, so a 1e3-edge batch on R-MAT 22 walked millions of entries (22 us of its ~75 on the H100).
// With it the check is one probe per batch entry. Open addressing, linear probing, 64-bit keys
// (row << 32 | col), at most half full; deletions leave tombstones, which a rebuild clears. A slot
// holds ~key: ids are below 2^31, so a stored key has its top bit set and 0 (empty) and 1 (tomb)
// are never keys; an empty table is zeroed memory, which the CPU build need not write
// (memory::zero_lazily: a large table's pages come zeroed at first touch).
// Costs 16-32 bytes per stored pair, so the store builds it only when that fits (dcsr.hpp).
//
// Growing it is incremental (Redis's dict does the same): a table that would pass half full becomes
// the `old` one beside a new table twice the pairs' size; new pairs go to the new table and every
// later batch moves a bounded range of old slots into it (edge_set_migrate), sized so the old table
// empties before the new one fills. Each pair lives in exactly one of the two; a moved slot becomes
// a tombstone so the old table's probe chains stay whole. So no batch pays for a rebuild of the
// whole set, which grew with the graph (docs/durability.md, "Pauses").
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/array.hpp"
#include "core/types.hpp"

namespace fg {

struct edge_set_view {
  std::uint64_t* slot = nullptr;  ///< null: no set (the caller probes the store instead)
  std::uint64_t mask = 0;         ///< slots - 1 (a power of two)
  std::uint64_t* old = nullptr;   ///< a table being moved into this one (null: none)
  std::uint64_t old_mask = 0;

  static constexpr std::uint64_t empty = 0, tomb = 1;
  FG_HD static std::uint64_t key(vertex_t r, vertex_t c) {
    return (std::uint64_t(std::uint32_t(r)) << 32) | std::uint32_t(c);
  }
  /// What a slot holds for key k, and the key a held slot stands for.
  FG_HD static std::uint64_t stored(std::uint64_t k) { return ~k; }
  FG_HD static std::uint64_t key_of(std::uint64_t s) { return ~s; }
  FG_HD static std::uint64_t hash(std::uint64_t k) {  // splitmix64's finalizer
    k ^= k >> 30;
    k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 27;
    k *= 0x94d049bb133111ebull;
    return k ^ (k >> 31);
  }
  FG_HD bool contains(std::uint64_t k) const {
    return find(slot, mask, k) != nullptr || (old != nullptr && find(old, old_mask, k) != nullptr);
  }
  /// k must be absent (from both tables), and concurrent callers must insert distinct keys.
  FG_HD void insert_new(std::uint64_t k) const {
    for (std::uint64_t h = hash(k) & mask;; h = (h + 1) & mask) {
      std::uint64_t s = slot[h];
      while (s == empty || s == tomb) {
        const std::uint64_t seen = cas(&slot[h], s, stored(k));
        if (seen == s) return;
        s = seen;  // another key took the slot: look at what is there now
      }
    }
  }
  /// Concurrent callers must erase distinct keys. Returns whether k was there.
  FG_HD bool erase(std::uint64_t k) const {
    std::uint64_t* s = find(slot, mask, k);
    if (s == nullptr && old != nullptr) s = find(old, old_mask, k);
    if (s == nullptr) return false;
    *s = tomb;
    return true;
  }

 private:
  FG_HD static std::uint64_t* find(std::uint64_t* table, std::uint64_t m, std::uint64_t k) {
    for (std::uint64_t h = hash(k) & m;; h = (h + 1) & m) {
      if (table[h] == stored(k)) return table + h;
      if (table[h] == empty) return nullptr;
    }
  }
  FG_HD static std::uint64_t cas(std::uint64_t* p, std::uint64_t expected, std::uint64_t desired) {
#if defined(__CUDA_ARCH__)
    return atomicCAS(reinterpret_cast<unsigned long long*>(p), expected, desired);
#else
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expected;
#endif
  }
};

/// The table and its counts; the kernels that fill, extend and shrink it are edge_set_kernels.
template <class Space>
struct edge_set {
  array<std::uint64_t, Space> slots;
  std::int64_t used = 0;     ///< live keys + tombstones, counting the old table's keys still to move
  array<std::uint64_t, Space> old;  ///< the table being moved into slots (empty: none)
  std::int64_t moved = 0;    ///< old slots [0, moved) are moved
  std::int64_t step = 0;     ///< old slots a batch moves
  bool active() const noexcept { return slots.size() > 0; }
  bool migrating() const noexcept { return old.size() > 0; }
  edge_set_view view() const noexcept {
    auto* self = const_cast<edge_set*>(this);
    edge_set_view v{self->slots.data(), slots.size() > 0 ? std::uint64_t(slots.size() - 1) : 0};
    if (migrating()) {
      v.old = self->old.data();
      v.old_mask = std::uint64_t(old.size() - 1);
    }
    return v;
  }
  /// Room for `more` keys without passing half full (the keys still in `old` counted as moved).
  bool fits(std::int64_t more) const noexcept { return 2 * (used + more) <= std::int64_t(slots.size()); }
  std::size_t bytes() const noexcept { return slots.bytes() + old.bytes(); }
};

/// A growable host set of (row, col) pairs with the same keys and hash, single-threaded: the call
/// edges the points-to matrix loop has added (std::unordered_set spent 60% of a dense solve in
/// node allocations and rehashes, docs/perf-journal.md, 2026-11-27).
class pair_hash_set {
 public:
  /// true when (r, c) was not there
  bool insert(vertex_t r, vertex_t c) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    return put(edge_set_view::key(r, c));
  }
  std::size_t size() const noexcept { return used_; }

 private:
  bool put(std::uint64_t k) {
    const std::uint64_t mask = slots_.size() - 1;
    for (std::uint64_t h = edge_set_view::hash(k) & mask;; h = (h + 1) & mask) {
      if (slots_[h] == edge_set_view::stored(k)) return false;
      if (slots_[h] == edge_set_view::empty) {
        slots_[h] = edge_set_view::stored(k);
        ++used_;
        return true;
      }
    }
  }
  void grow() {
    std::vector<std::uint64_t> old(std::max<std::size_t>(1024, 2 * slots_.size()), edge_set_view::empty);
    old.swap(slots_);
    used_ = 0;
    for (std::uint64_t s : old)
      if (s != edge_set_view::empty) put(edge_set_view::key_of(s));
  }
  std::vector<std::uint64_t> slots_;
  std::size_t used_ = 0;
};

}  // namespace fg
