// Input vertex ids (any int64 >= 0) to the engine's dense ids 0, 1, 2, ... in the order the ids
// first appear, and back. This is the live reader's inner loop (two look-ups per edge), so each
// look-up should cost one cache miss at most. Two forms, one at a time, both rebuilt from ids():
// - direct: a flat array indexed by the input id (-1: unseen), kept while the largest id is small
//   next to the number of ids seen (SNAP, LDBC and generator files number vertices densely): one
//   load per id, no hashing, no probing.
// - hashed: open addressing (linear probing, at most half full, Fibonacci hashing so that runs of
//   consecutive ids spread out), key and value in one 16-byte slot: one cache line per probe.
// Which one is decided again whenever the array would grow past its limit or the table doubles
// (both O(ids) steps anyway), so a stream that starts sparse and fills in goes direct later.
#pragma once
#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace fg {

class id_map {
 public:
  id_map();

  /// @brief The dense id of `id` (>= 0), a new one when it is unseen.
  /// @throws fg::invalid_argument for a negative id; fg::error when a new id would pass vertex_t's range
  vertex_t intern(std::int64_t id) {
    const vertex_t d = find(id);
    return d >= 0 ? d : add(id);
  }
  /// @brief out_a[i] = intern(a[i]), out_b[i] = intern(b[i]) in the order a[0], b[0], a[1], ...
  ///        (the lines' order), looking a few pairs ahead so that their cache misses overlap.
  void intern_pairs(const std::int64_t* a, const std::int64_t* b, vertex_t* out_a, vertex_t* out_b,
                    std::size_t n);
  /// @brief As intern_pairs, but the ids new to the map get their dense ids in increasing order of
  ///        id (not of first appearance): a batch's new ids are numbered the same whatever the
  ///        order of its edges, and ids 0..n-1 arriving in one batch (or in increasing runs over
  ///        several) keep their numbers (fluxgraph::graph's renumbering, docs/api.md "Vertex ids").
  void intern_batch(const std::int64_t* a, const std::int64_t* b, vertex_t* out_a, vertex_t* out_b, std::size_t n);
  /// @brief Ids 0..n-1 interned (those new in increasing order): a graph's first n vertices.
  ///        O(n - size()) on the identity map, O(n) look-ups otherwise.
  void intern_first(std::int64_t n);
  /// @brief Forgets the ids given out from dense id `n` on (a batch that failed after interning).
  void truncate(vertex_t n);
  /// @brief The dense id of `id`, or -1 when it has not appeared (or is negative).
  vertex_t find(std::int64_t id) const noexcept {
    if (direct_mode_) return std::uint64_t(id) < direct_.size() ? direct_[std::size_t(id)] : -1;
    std::size_t i = home(id);
    while (table_[i].key != id && table_[i].key != empty) i = (i + 1) & mask_;
    return table_[i].val;  // -1 in an empty slot
  }
  vertex_t size() const noexcept { return vertex_t(ids_.size()); }
  /// ids()[d]: the input id of dense id d.
  const std::vector<std::int64_t>& ids() const noexcept { return ids_; }
  /// Whether ids()[d] == d for every d (ids a snapshot need not carry; a batch that may skip the
  /// map). O(1): the length of that prefix is kept.
  bool identity() const noexcept { return identity_prefix_ == ids_.size(); }
  /// Whether look-ups go through the flat array (else the hash table); for tests and benchmarks.
  bool is_direct() const noexcept { return direct_mode_; }
  /// Host bytes it holds (its arrays' capacities).
  std::size_t bytes() const noexcept {
    return direct_.capacity() * sizeof(vertex_t) + table_.capacity() * sizeof(slot) + ids_.capacity() * sizeof(std::int64_t);
  }

 private:
  struct slot {
    std::int64_t key;
    vertex_t val;
  };
  static constexpr std::int64_t empty = -1;  // input ids are >= 0

  std::size_t home(std::int64_t id) const noexcept {
    return std::size_t((std::uint64_t(id) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  vertex_t add(std::int64_t id);
  std::size_t direct_run(const std::int64_t* a, const std::int64_t* b, vertex_t* out_a, vertex_t* out_b,
                         std::size_t i, std::size_t n);
  void put(std::int64_t id, vertex_t d);
  void reassign(std::int64_t id, vertex_t d);
  void rebuild();
  void place(std::int64_t id, vertex_t d);

  bool direct_mode_ = true;
  std::vector<vertex_t> direct_;  // direct: input id -> dense id, -1 unseen
  std::vector<slot> table_;       // hashed: a power of 2 slots
  std::size_t mask_ = 0;          // table_.size() - 1
  int shift_ = 64;                // 64 - log2(table_.size())
  std::vector<std::int64_t> ids_;
  std::int64_t max_id_ = -1;
  std::size_t identity_prefix_ = 0;  // ids_[d] == d for every d below it
  void extend_identity() noexcept {
    while (identity_prefix_ < ids_.size() && ids_[identity_prefix_] == std::int64_t(identity_prefix_)) ++identity_prefix_;
  }
};

}  // namespace fg
