// The hash table of the unmasked SpMM rows (storage/cuda/spmm_hash.cuh, spmm_block_rows.cuh): open
// addressing with linear probing over a power-of-two number of slots in shared memory; a key is
// set once (empty -> column), values are added in the semiring.
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/semiring.hpp"
#include "core/types.hpp"

namespace fg::detail::spmm_hash {

constexpr std::uint32_t empty_slot = 0xffffffffu;

constexpr int log2_of(int n) { return n <= 1 ? 0 : 1 + log2_of(n / 2); }

/// slot += v in the semiring, atomically: the hardware's add for plus_times, a CAS loop otherwise.
template <class Sr, class T>
__device__ void accumulate(T* slot, T v) {
  if constexpr (std::is_same_v<Sr, plus_times<T>> && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    atomicAdd(slot, v);
  } else if constexpr (sizeof(T) == 8) {
    auto* p = reinterpret_cast<unsigned long long*>(slot);
    unsigned long long old = *p, seen;
    do {
      seen = old;
      const T sum = Sr::add(__longlong_as_double(static_cast<long long>(seen)), v);
      old = atomicCAS(p, seen, static_cast<unsigned long long>(__double_as_longlong(sum)));
    } while (old != seen);
  } else {
    static_assert(sizeof(T) == 4, "spmm_hash: 4- or 8-byte values");
    auto* p = reinterpret_cast<unsigned int*>(slot);
    unsigned int old = *p, seen;
    do {
      seen = old;
      const T sum = Sr::add(__uint_as_float(seen), v);
      old = atomicCAS(p, seen, __float_as_uint(sum));
    } while (old != seen);
  }
}

/// The slot of column c in a table of Slots (a power of two) keys, claimed when c is absent (then
/// `fresh`); -1 when the probe went round a full table. Open addressing, linear probing. Keys are
/// only ever set once (empty -> c), so a plain read that sees c is final.
template <int Slots>
__device__ int find_or_claim(std::uint32_t* key, std::uint32_t c, bool& fresh) {
  std::uint32_t h = (c * 2654435761u) >> (32 - log2_of(Slots));
  for (int probe = 0; probe < Slots; ++probe) {
    std::uint32_t k = key[h];
    if (k == empty_slot) {
      k = atomicCAS(&key[h], empty_slot, c);
      if (k == empty_slot) {
        fresh = true;
        return int(h);
      }
    }
    if (k == c) return int(h);
    h = (h + 1) & (Slots - 1);
  }
  return -1;
}

/// Adds (c, v) into a table of keys and values that has room for every column it will get.
template <int Slots, class Sr, bool Values, class T>
__device__ void insert(std::uint32_t* key, T* val, std::uint32_t c, T v) {
  bool fresh = false;
  const int h = find_or_claim<Slots>(key, c, fresh);
  if constexpr (Values) accumulate<Sr>(&val[h], v);
}

/// insert, for a table that may not hold the row: a slot claimed past `limit` claims in all, or a
/// probe that went round the whole table, returns false (the row gives up; the table stays
/// consistent but its content no longer matters). `used` counts the claims.
template <int Slots, class Sr, bool Values, class T>
__device__ bool insert_counted(std::uint32_t* key, T* val, std::uint32_t c, T v, int* used, int limit) {
  bool fresh = false;
  const int h = find_or_claim<Slots>(key, c, fresh);
  if (h < 0 || (fresh && atomicAdd(used, 1) >= limit)) return false;
  if constexpr (Values) accumulate<Sr>(&val[h], v);
  return true;
}

/// The sum, in lane order, of v over the lanes of `peers` (their values staged in scratch[lane] by
/// the caller, and a __syncwarp since), read by one lane of them: the same bits every run.
template <class Sr, class T>
__device__ T peers_sum(const T* scratch, unsigned peers, T v) {
  for (unsigned m = peers & (peers - 1); m != 0; m &= m - 1) v = Sr::add(v, scratch[__ffs(m) - 1]);
  return v;
}

/// Where warp_rows lists the rows it gives up, for a warp with a table of 512 slots
/// (bounded by the rows given; the count zeroed).
struct redo_lists {
  vertex_t* warp = nullptr;
  unsigned long long* warp_n = nullptr;
};

}  // namespace fg::detail::spmm_hash
