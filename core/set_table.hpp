// Hash-consed sets of 32-bit ids: every distinct sparse_bitset is stored once and named by a
// 32-bit id, and unions and differences of ids are memoised (Barbar & Sui, "Hash consing points-to
// sets", SAS'21; SVF's persistent points-to cache). Points-to sets of real programs repeat: on
// binutils' objdump 120 k nodes hold 14 k distinct sets, 33 M words in all against 82 k distinct,
// so most of a solver's unions are the same few unions again, answered by one hash probe.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "core/sparse_bitset.hpp"

namespace fg {

/// An open-addressing map from 64-bit keys to 32-bit values (the memo tables). Past `cap` entries
/// it starts over empty: a memo only saves work, and its size stays bounded.
class memo_map {
 public:
  explicit memo_map(std::size_t cap) : cap_(cap) {}
  /// The value of k, or `none`.
  std::uint32_t find(std::uint64_t k) const noexcept {
    if (slots_.empty()) return none;
    const std::uint64_t mask = slots_.size() - 1;
    for (std::uint64_t h = mix(k) & mask;; h = (h + 1) & mask) {
      if (slots_[h].value == none) return none;
      if (slots_[h].key == k) return slots_[h].value;
    }
  }
  void clear() {
    slots_.clear();
    used_ = 0;
  }
  void put(std::uint64_t k, std::uint32_t v) {
    if (used_ >= cap_) slots_.assign(slots_.size(), slot{}), used_ = 0;
    if (2 * (used_ + 1) > slots_.size()) grow();
    place(k, v);
  }
  static constexpr std::uint32_t none = 0xffffffffu;

 private:
  struct slot {
    std::uint64_t key = 0;
    std::uint32_t value = none;
  };
  static std::uint64_t mix(std::uint64_t k) noexcept {  // splitmix64's finaliser
    k ^= k >> 30, k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 27, k *= 0x94d049bb133111ebull;
    return k ^ (k >> 31);
  }
  void place(std::uint64_t k, std::uint32_t v) {
    const std::uint64_t mask = slots_.size() - 1;
    for (std::uint64_t h = mix(k) & mask;; h = (h + 1) & mask) {
      if (slots_[h].value == none) {
        slots_[h] = {k, v};
        ++used_;
        return;
      }
      if (slots_[h].key == k) {
        slots_[h].value = v;
        return;
      }
    }
  }
  void grow() {
    std::vector<slot> old(std::max<std::size_t>(1024, 2 * slots_.size()));
    old.swap(slots_);
    used_ = 0;
    for (const slot& s : old)
      if (s.value != none) place(s.key, s.value);
  }
  std::vector<slot> slots_;
  std::size_t used_ = 0, cap_;
};

class set_table {
 public:
  using id = std::uint32_t;
  static constexpr id empty_set = 0;

  /// memo_cap: entries each memo holds before it starts over (2^22: at most 128 MB of slots each).
  explicit set_table(std::size_t memo_cap = std::size_t(1) << 22) : unions_(memo_cap), differences_(memo_cap) {
    intern(sparse_bitset{});
  }

  /// The id of s, a new one when s is new.
  id intern(sparse_bitset&& s);
  /// a ∪ b, a \ b, a ∪ {x}: memoised (the last only through intern).
  id unite(id a, id b);
  id minus(id a, id b);
  id insert(id a, std::uint32_t x) {
    sparse_bitset s = sets_[a];
    return s.insert(x) ? intern(std::move(s)) : a;
  }
  /// The set of an id; the reference stays valid while the table lives (a deque never moves them).
  const sparse_bitset& get(id a) const { return sets_[a]; }
  std::size_t count(id a) {
    if (counts_[a] < 0) counts_[a] = std::int64_t(sets_[a].count());
    return std::size_t(counts_[a]);
  }
  std::size_t size() const noexcept { return sets_.size(); }
  /// Words held by all the sets: what a solver bounds by compact().
  std::size_t words() const noexcept { return words_; }

  /// @brief Keeps the sets `live` marks (live.size() == size()) and the empty set, renumbered in
  ///        order; the memos start over. Every union interns its result, so a solver's table fills
  ///        with sets no node holds any more: without this, a 10^6-constraint program ran out of
  ///        24 GB in its first round.
  /// @return old id -> new id (memo_map::none for a dropped set)
  std::vector<id> compact(const std::vector<char>& live);

 private:
  static std::uint64_t hash(const sparse_bitset& s) noexcept;
  std::deque<sparse_bitset> sets_;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::int64_t> counts_;  // -1: not counted yet
  std::vector<id> slots_;             // open addressing over ids by hash; none: free
  memo_map unions_, differences_;
  std::size_t words_ = 0;
  void place(id i);
};

inline void set_table::place(id i) {
  const std::uint64_t mask = slots_.size() - 1;
  std::uint64_t p = hashes_[i] & mask;
  while (slots_[p] != memo_map::none) p = (p + 1) & mask;
  slots_[p] = i;
}

inline std::vector<set_table::id> set_table::compact(const std::vector<char>& live) {
  std::vector<id> remap(sets_.size(), memo_map::none);
  std::deque<sparse_bitset> kept;
  std::vector<std::uint64_t> hashes;
  std::vector<std::int64_t> counts;
  words_ = 0;
  for (id i = 0; i < id(sets_.size()); ++i) {
    if (i != empty_set && !live[i]) continue;
    remap[i] = id(kept.size());
    words_ += sets_[i].words();
    kept.push_back(std::move(sets_[i]));
    hashes.push_back(hashes_[i]);
    counts.push_back(counts_[i]);
  }
  sets_.swap(kept), hashes_.swap(hashes), counts_.swap(counts);
  slots_.assign(std::max<std::size_t>(1024, std::size_t(1) << (64 - __builtin_clzll(4 * sets_.size()))), memo_map::none);
  for (id i = 0; i < id(sets_.size()); ++i) place(i);
  unions_.clear(), differences_.clear();
  return remap;
}

inline std::uint64_t set_table::hash(const sparse_bitset& s) noexcept {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (const auto& w : s.data()) h = (h ^ w.index) * 0x100000001b3ull ^ (w.bits * 0xff51afd7ed558ccdull), h ^= h >> 29;
  return h;
}

inline set_table::id set_table::intern(sparse_bitset&& s) {
  const std::uint64_t h = hash(s);
  if (2 * (sets_.size() + 1) > slots_.size()) {  // grow and re-place every id
    slots_.assign(std::max<std::size_t>(1024, 4 * slots_.size()), memo_map::none);
    for (id i = 0; i < id(sets_.size()); ++i) place(i);
  }
  const std::uint64_t mask = slots_.size() - 1;
  std::uint64_t p = h & mask;
  for (; slots_[p] != memo_map::none; p = (p + 1) & mask)
    if (hashes_[slots_[p]] == h && sets_[slots_[p]] == s) return slots_[p];
  const id i = id(sets_.size());
  words_ += s.words();
  sets_.push_back(std::move(s));
  hashes_.push_back(h);
  counts_.push_back(-1);
  slots_[p] = i;
  return i;
}

inline set_table::id set_table::unite(id a, id b) {
  if (a == b || b == empty_set) return a;
  if (a == empty_set) return b;
  const std::uint64_t k = a < b ? std::uint64_t(a) << 32 | b : std::uint64_t(b) << 32 | a;
  id r = unions_.find(k);
  if (r != memo_map::none) return r;
  sparse_bitset s = sets_[a];
  r = s.unite(sets_[b]) ? intern(std::move(s)) : a;
  unions_.put(k, r);
  return r;
}

inline set_table::id set_table::minus(id a, id b) {
  if (a == b || a == empty_set) return empty_set;
  if (b == empty_set) return a;
  const std::uint64_t k = std::uint64_t(a) << 32 | b;
  id r = differences_.find(k);
  if (r != memo_map::none) return r;
  r = intern(sparse_bitset::minus(sets_[a], sets_[b]));
  differences_.put(k, r);
  return r;
}

}  // namespace fg
