// core/threads: the CPU build's OpenMP threads follow the CPUs other processes leave.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "core/threads.hpp"

#if !defined(FG_WITH_CUDA)
#include <omp.h>
#include <signal.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

TEST_CASE("threads: a process spinning beside this one takes a CPU from the next regions") {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  REQUIRE(sched_getaffinity(0, sizeof mask, &mask) == 0);
  const int cpus = CPU_COUNT(&mask);
  if (cpus < 2 || omp_get_max_threads() < 2 || std::getenv("FG_THREADS") != nullptr) return;  // nothing to take
  fg::threads::adapt();
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    alarm(10);  // never outlives a test that died
    for (volatile unsigned long long i = 0;; i = i + 1) {}  // busy on the same CPUs until killed
  }
  // the looks come every 200 ms at most (the first sooner): within a second the busy CPU is seen
  for (int i = 0; i < 20 && fg::threads::current() >= cpus; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    fg::threads::adapt();
  }
  const int during = fg::threads::current();
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  CHECK(during >= 1);
  CHECK(during < cpus);
  CHECK(omp_get_max_threads() == during);  // this thread's next regions get that many
}
#endif
