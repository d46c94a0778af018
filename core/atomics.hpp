// Atomic read-modify-writes usable in the device twins' lambdas: CUDA's atomics on the GPU, GCC's
// __atomic builtins in the CPU build (OpenMP threads), so one kernel body serves both.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/types.hpp"

#if defined(__CUDACC__)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#endif

namespace fg::atomic {

/// *p = min(*p, v) on a 32- or 64-bit integer (signed or not); returns the old value.
template <class T>
FG_HD inline T fetch_min(T* p, T v) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "fetch_min: 32- or 64-bit integers");
  if constexpr (sizeof(T) == 8 && std::is_signed_v<T>) {
    return T(atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v)));
  } else if constexpr (sizeof(T) == 8) {
    return T(atomicMin(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
  } else if constexpr (std::is_signed_v<T>) {
    return T(atomicMin(reinterpret_cast<int*>(p), static_cast<int>(v)));
  } else {
    return T(atomicMin(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v)));
  }
#else
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
#endif
}

/// Compare-and-swap on a 32- or 64-bit integer; returns the value seen (== expected on success).
template <class T>
FG_HD inline T cas(T* p, T expected, T desired) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "cas: 32- or 64-bit integers");
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 8) {
    return T(atomicCAS(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(expected),
                       static_cast<unsigned long long>(desired)));
  } else {
    return T(atomicCAS(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(expected),
                       static_cast<unsigned int>(desired)));
  }
#else
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;
#endif
}

/// *p += v; returns the old value (integers).
template <class T>
FG_HD inline T fetch_add(T* p, T v) {
  static_assert(std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8), "fetch_add: 32- or 64-bit integers");
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 8) {
    return T(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
  } else {
    return T(atomicAdd(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v)));
  }
#else
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

/// fetch_add on a counter that every thread of a kernel adds to (a list's length, a total): on the
/// GPU the threads of a warp that call it together make one atomic for their sum, each getting the
/// old value plus the sum of the lower lanes' v. Atomics on one address serialise in L2: a BFS
/// level that found 1.3e6 vertices spent ~1.3 ms on its two counters (H100, rmat-22). All threads of a
/// warp that call it at once must pass the same p.
template <class T>
FG_HD inline T fetch_add_shared(T* p, T v) {
#if defined(__CUDA_ARCH__)
  namespace cg = cooperative_groups;
  const cg::coalesced_group g = cg::coalesced_threads();
  const T sum = cg::reduce(g, v, cg::plus<T>());
  const T below = cg::exclusive_scan(g, v, cg::plus<T>());
  T base = 0;
  if (g.thread_rank() == 0) base = fetch_add(p, sum);
  return g.shfl(base, 0) + below;
#else
  return fetch_add(p, v);
#endif
}

/// *p += v on a double; returns the old value (residual pushes: algorithms/dynamic_pagerank.hpp).
/// The sum's last bits depend on the threads' order.
FG_HD inline double fetch_add_double(double* p, double v) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(p, v);
#else
  auto* bits = reinterpret_cast<std::uint64_t*>(p);
  std::uint64_t seen = __atomic_load_n(bits, __ATOMIC_RELAXED);
  for (;;) {
    double old, sum;
    std::memcpy(&old, &seen, 8);
    sum = old + v;
    std::uint64_t want;
    std::memcpy(&want, &sum, 8);
    if (__atomic_compare_exchange_n(bits, &seen, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return old;
  }
#endif
}

/// *p += v on a double that every thread of a kernel adds to (a total): on the GPU one atomic a
/// warp for the sum of its threads' v (see fetch_add_shared).
FG_HD inline void add_shared_double(double* p, double v) {
#if defined(__CUDA_ARCH__)
  namespace cg = cooperative_groups;
  const cg::coalesced_group g = cg::coalesced_threads();
  const double sum = cg::reduce(g, v, cg::plus<double>());
  if (g.thread_rank() == 0) atomicAdd(p, sum);
#else
  fetch_add_double(p, v);
#endif
}

/// *p = v on a double; returns the old value.
FG_HD inline double exchange_double(double* p, double v) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(
      static_cast<long long>(atomicExch(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(__double_as_longlong(v)))));
#else
  std::uint64_t want, old;
  std::memcpy(&want, &v, 8);
  old = __atomic_exchange_n(reinterpret_cast<std::uint64_t*>(p), want, __ATOMIC_RELAXED);
  double r;
  std::memcpy(&r, &old, 8);
  return r;
#endif
}

/// *p = min(*p, v) for a non-negative double: such doubles order as their bit patterns do, so an
/// integer min on the bits is exact (SSSP distances; +inf is the largest).
FG_HD inline void min_nonneg(double* p, double v) {
  std::int64_t bits;
#if defined(__CUDA_ARCH__)
  bits = __double_as_longlong(v);
#else
  std::memcpy(&bits, &v, 8);
#endif
  fetch_min(reinterpret_cast<std::int64_t*>(p), bits);
}

/// *p |= v on a 32-bit word; returns the old value.
FG_HD inline std::uint32_t fetch_or(std::uint32_t* p, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return atomicOr(p, v);
#else
  return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
#endif
}

/// Plain load that other threads' atomics may be writing (relaxed).
template <class T>
FG_HD inline T load(const T* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const volatile T*>(p);
#else
  T v;
  __atomic_load(p, &v, __ATOMIC_RELAXED);
  return v;
#endif
}

/// Plain store that other threads may read while it happens (relaxed).
template <class T>
FG_HD inline void store(T* p, T v) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<volatile T*>(p) = v;
#else
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
#endif
}

/// Whether this thread is the first to set *mark to stamp (stamps only grow: no clearing pass; a
/// list built so holds each vertex once).
FG_HD inline bool claim(std::int32_t* mark, std::int32_t stamp) {
  const std::int32_t m = load(mark);
  return m != stamp && cas(mark, m, stamp) == m;
}

}  // namespace fg::atomic
