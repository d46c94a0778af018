// Input vertex ids (any int64 >= 0) to the engine's dense ids 0, 1, 2, ... in the order the ids
// first appear, and back. An open-addressing table (linear probing, at most half full, Fibonacci
// hashing so that runs of consecutive ids spread out): one probe for most look-ups, where
// std::unordered_map chases a node per id.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"

namespace fg {

class id_map {
 public:
  id_map() { rehash(1024); }

  /// @brief The dense id of `id` (>= 0), a new one when it is unseen.
  /// @throws fg::invalid_argument for a negative id; fg::error when a new id would pass vertex_t's range
  vertex_t intern(std::int64_t id) {
    if (id < 0) throw invalid_argument("id_map: negative id " + std::to_string(id));
    std::size_t i = slot(id);
    if (keys_[i] == id) return vals_[i];
    if (2 * (ids_.size() + 1) > keys_.size()) {
      rehash(2 * keys_.size());
      i = slot(id);
    }
    if (ids_.size() >= std::size_t(std::numeric_limits<vertex_t>::max()))
      throw error("too many vertices: more than " + std::to_string(std::numeric_limits<vertex_t>::max()) + " distinct ids");
    keys_[i] = id;
    vals_[i] = vertex_t(ids_.size());
    ids_.push_back(id);
    return vals_[i];
  }
  /// @brief The dense id of `id`, or -1 when it has not appeared.
  vertex_t find(std::int64_t id) const noexcept {
    const std::size_t i = slot(id);
    return keys_[i] == id ? vals_[i] : -1;
  }
  vertex_t size() const noexcept { return vertex_t(ids_.size()); }
  /// ids()[d]: the input id of dense id d.
  const std::vector<std::int64_t>& ids() const noexcept { return ids_; }

 private:
  static constexpr std::int64_t empty = -1;  // input ids are >= 0

  // The slot holding `id`, or the empty slot where it would go.
  std::size_t slot(std::int64_t id) const noexcept {
    std::size_t i = std::size_t((std::uint64_t(id) * 0x9E3779B97F4A7C15ull) >> shift_);
    while (keys_[i] != id && keys_[i] != empty) i = (i + 1) & mask_;
    return i;
  }
  void rehash(std::size_t capacity) {
    mask_ = capacity - 1;
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
    keys_.assign(capacity, empty);
    vals_.assign(capacity, 0);
    for (std::size_t d = 0; d < ids_.size(); ++d) {
      const std::size_t i = slot(ids_[d]);
      keys_[i] = ids_[d];
      vals_[i] = vertex_t(d);
    }
  }

  std::vector<std::int64_t> keys_;
  std::vector<vertex_t> vals_;
  std::vector<std::int64_t> ids_;
  std::size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace fg
