// id_map's slow paths: new ids, growth, and the switch between the flat array and the hash table.
#include "stream/id_map.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace fg {

namespace {
// The flat array may cover ids below this limit for n distinct ids. 4 bytes per id below it against
// the table's 32-64 bytes per id seen: 8 per id seen keeps the array no larger than the table would
// be (twice that after a doubling), and the constant lets a small graph's ids arrive in any order.
// The cap bounds the array at 1 GiB whatever the count.
constexpr std::int64_t direct_cap = std::int64_t(1) << 28;
std::int64_t direct_limit(std::size_t n) {
  return std::min(direct_cap, 8 * std::int64_t(n) + (std::int64_t(1) << 22));
}

// Pairs looked ahead: enough to overlap the misses of a table beyond the caches (4 to 32 measured
// the same on a 2-core VM: a core has only so many misses in flight).
constexpr std::size_t ahead = 8;

// Asks for 2 MiB pages where the kernel leaves them to madvise (a no-op elsewhere): a random look-up
// in an array of hundreds of MiB otherwise misses the TLB as well as the cache, and a page walk is
// slow, in a VM most of all. Must come before the pages are first touched.
void advise_huge(const void* p, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  constexpr std::uintptr_t huge = std::uintptr_t(1) << 21;
  const std::uintptr_t begin = (std::uintptr_t(p) + huge - 1) & ~(huge - 1);
  const std::uintptr_t end = (std::uintptr_t(p) + bytes) & ~(huge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

// v = its first `keep` elements, then `value` up to n elements, in a fresh allocation advised as above.
template <class T>
void refill(std::vector<T>& v, std::size_t keep, std::size_t n, T value) {
  std::vector<T> fresh;
  fresh.reserve(n);
  advise_huge(fresh.data(), n * sizeof(T));
  fresh.assign(v.begin(), v.begin() + std::ptrdiff_t(keep));
  fresh.resize(n, value);
  v.swap(fresh);
}
}  // namespace

id_map::id_map() { direct_.assign(1024, -1); }

vertex_t id_map::add(std::int64_t id) {
  if (id < 0) throw invalid_argument("id_map: negative id " + std::to_string(id));
  if (ids_.size() >= std::size_t(std::numeric_limits<vertex_t>::max()))
    throw error("too many vertices: more than " + std::to_string(std::numeric_limits<vertex_t>::max()) +
                " distinct ids");
  const vertex_t d = vertex_t(ids_.size());
  ids_.push_back(id);
  max_id_ = std::max(max_id_, id);
  if (identity_prefix_ == std::size_t(d) && id == d) ++identity_prefix_;
  put(id, d);
  return d;
}

// Records id -> d (ids_ holds it already), growing or switching the form first where needed.
void id_map::put(std::int64_t id, vertex_t d) {
  if (direct_mode_) {
    if (std::uint64_t(id) < direct_.size()) {
      direct_[std::size_t(id)] = d;
      return;
    }
    if (id >= direct_limit(ids_.size())) return rebuild();  // sparse: to the table
    // Doubling (at least) keeps growth O(1) per id; the cap keeps it at 1 GiB.
    const std::int64_t n = std::min(direct_cap, std::max(id + 1, 2 * std::int64_t(direct_.size())));
    refill(direct_, direct_.size(), std::size_t(n), vertex_t(-1));
    direct_[std::size_t(id)] = d;
    return;
  }
  if (2 * ids_.size() > table_.size()) return rebuild();  // at most half full
  place(id, d);
}

// id (absent) into the first empty slot of its probe sequence.
void id_map::place(std::int64_t id, vertex_t d) {
  std::size_t i = home(id);
  while (table_[i].key != empty) i = (i + 1) & mask_;
  table_[i] = {id, d};
}

// Both forms from ids_: the flat array when the largest id allows it, else a table just under half
// full (a doubling from half full).
void id_map::rebuild() {
  const std::size_t n = ids_.size();
  direct_mode_ = max_id_ < direct_limit(n);
  if (direct_mode_) {
    table_ = {};
    const std::int64_t size = std::min(direct_cap, std::max<std::int64_t>(1024, 2 * (max_id_ + 1)));
    refill(direct_, 0, std::size_t(size), vertex_t(-1));
    for (std::size_t d = 0; d < n; ++d) direct_[std::size_t(ids_[d])] = vertex_t(d);
    return;
  }
  direct_ = {};
  std::size_t capacity = 1024;
  while (capacity < 2 * n + 2) capacity *= 2;
  refill(table_, 0, capacity, slot{empty, -1});
  mask_ = capacity - 1;
  shift_ = 64;
  for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
  for (std::size_t d = 0; d < n; ++d) place(ids_[d], vertex_t(d));
}

void id_map::intern_batch(const std::int64_t* a, const std::int64_t* b, vertex_t* out_a, vertex_t* out_b,
                          std::size_t n) {
  const vertex_t first = size();
  intern_pairs(a, b, out_a, out_b, n);
  const std::size_t fresh = std::size_t(size() - first);
  if (fresh < 2) return;
  // The new ids sorted; to[old - first] is an id's dense id in that order.
  std::vector<std::pair<std::int64_t, vertex_t>> order(fresh);
  for (std::size_t k = 0; k < fresh; ++k) order[k] = {ids_[first + k], vertex_t(first + k)};
  std::sort(order.begin(), order.end());
  std::vector<vertex_t> to(fresh);
  for (std::size_t k = 0; k < fresh; ++k) {
    to[std::size_t(order[k].second - first)] = vertex_t(first + k);
    ids_[first + k] = order[k].first;
    reassign(order[k].first, vertex_t(first + k));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (out_a[i] >= first) out_a[i] = to[std::size_t(out_a[i] - first)];
    if (out_b[i] >= first) out_b[i] = to[std::size_t(out_b[i] - first)];
  }
  identity_prefix_ = std::min(identity_prefix_, std::size_t(first));  // the new ids moved
  extend_identity();
}

void id_map::intern_first(std::int64_t n) {
  // The identity map holds 0..size()-1 already: only the ids past it are new, so that a graph's
  // batches in dense ids cost the map their new ids, not the graph's size (docs/api.md "Vertex ids").
  for (std::int64_t id = identity() ? size() : 0; id < n; ++id) intern(id);  // in increasing order
}

void id_map::truncate(vertex_t n) {
  if (n < 0 || n >= size()) return;
  ids_.resize(std::size_t(n));
  identity_prefix_ = std::min(identity_prefix_, std::size_t(n));
  max_id_ = ids_.empty() ? -1 : *std::max_element(ids_.begin(), ids_.end());
  rebuild();
}

// id (present) now has dense id d.
void id_map::reassign(std::int64_t id, vertex_t d) {
  if (direct_mode_) {
    direct_[std::size_t(id)] = d;
    return;
  }
  std::size_t i = home(id);
  while (table_[i].key != id) i = (i + 1) & mask_;
  table_[i].val = d;
}

void id_map::intern_pairs(const std::int64_t* a, const std::int64_t* b, vertex_t* out_a, vertex_t* out_b,
                          std::size_t n) {
  for (std::size_t i = 0; i < n;) {
    if (direct_mode_) i = direct_run(a, b, out_a, out_b, i, n);
    // The table (until a rebuild goes back to the array). The prefetches are written out here: GCC
    // deems a function that only prefetches free of effects and drops its calls before inlining.
    for (; !direct_mode_ && i < n; ++i) {
      if (i + ahead < n) {
        __builtin_prefetch(&table_[home(a[i + ahead])]);
        __builtin_prefetch(&table_[home(b[i + ahead])]);
      }
      out_a[i] = intern(a[i]);
      out_b[i] = intern(b[i]);
    }
  }
}

// Pairs from i on through the flat array while both ids are known, with the array's start and size
// in registers (add() may move it, so the first pair that needs it ends the run there, interned).
std::size_t id_map::direct_run(const std::int64_t* a, const std::int64_t* b, vertex_t* out_a, vertex_t* out_b,
                               std::size_t i, std::size_t n) {
  const vertex_t* t = direct_.data();
  const std::uint64_t size = direct_.size();
  for (; i < n; ++i) {
    if (i + ahead < n) {
      if (std::uint64_t(a[i + ahead]) < size) __builtin_prefetch(t + a[i + ahead]);
      if (std::uint64_t(b[i + ahead]) < size) __builtin_prefetch(t + b[i + ahead]);
    }
    const std::uint64_t u = std::uint64_t(a[i]), v = std::uint64_t(b[i]);
    if (u >= size || v >= size || (t[u] | t[v]) < 0) break;
    out_a[i] = t[u];
    out_b[i] = t[v];
  }
  if (i == n) return n;
  out_a[i] = intern(a[i]);  // in line order: a new id in a[i] comes before one in b[i]
  out_b[i] = intern(b[i]);
  return i + 1;
}

}  // namespace fg
