// Thrust plumbing for the device twins: the execution policy (OpenMP or CUDA, chosen by the build)
// with temporary storage drawn from the one allocator, and a parallel-for over an index range.
#pragma once
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>

#include "core/memory.hpp"
#include "core/threads.hpp"

#if defined(FG_WITH_CUDA)
#include <thrust/system/cuda/execution_policy.h>
#else
#include <thrust/system/omp/execution_policy.h>
#endif

namespace fg::detail {

/// Thrust's temporary storage (sort and scan buffers) comes from fg::memory, so out-of-memory is
/// fg::out_of_memory and the peak counter sees it.
struct temp_allocator {
  using value_type = char;
  char* allocate(std::ptrdiff_t n) { return static_cast<char*>(memory::allocate(std::size_t(n))); }
  void deallocate(char* p, std::size_t) noexcept { memory::deallocate(p); }
};

/// CUDA: par_nosync. Thrust's `par` waits for the device after every algorithm (a round trip of
/// 5-10 us each, which was most of a small batch's cost); everything fluxgraph launches is ordered
/// on the legacy default stream, every host read of device memory is a cudaMemcpy ordered after it,
/// and timings use events or an explicit memory::synchronize(), so nothing needs those waits.
/// Algorithms that return a value (reduce, count, unique) still wait for it. OpenMP: as many threads
/// as other processes leave CPUs.
inline auto policy() {
#if defined(FG_WITH_CUDA)
  return thrust::cuda::par_nosync(temp_allocator{});
#else
  threads::adapt();  // the CPUs other processes leave (core/threads.hpp)
  return thrust::omp::par(temp_allocator{});
#endif
}

/// Thrust's OpenMP sorts allocate their merge buffers inside a parallel region, where an exception
/// cannot leave (std::terminate). Their peak is one copy of the data sorted: taking and returning
/// that much just before the sort makes out-of-memory (and the test limit) surface here, as
/// fg::out_of_memory, with nothing written yet. A no-op on CUDA, whose sorts allocate before launch.
inline void claim_sort_scratch(std::size_t bytes) {
#if !defined(FG_WITH_CUDA)
  if (bytes > 0) memory::deallocate(memory::allocate(bytes));
#else
  (void)bytes;
#endif
}

/// f(i) for i in [0, n), in parallel. f must be FG_HD and capture by value.
template <class F>
void parallel_for(std::int64_t n, F f) {
  if (n <= 0) return;
  thrust::for_each_n(policy(), thrust::counting_iterator<std::int64_t>(0), n, f);
}

}  // namespace fg::detail

/// Lambda usable on host and device (nvcc needs --extended-lambda).
#define FG_LAMBDA [=] FG_HD
