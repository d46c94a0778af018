// OpenMP thread counts that follow the CPUs other processes leave (core/threads.hpp).
#include "core/threads.hpp"

#if defined(FG_WITH_CUDA)
namespace fg::threads {
void adapt() noexcept {}
int current() noexcept { return 1; }
}  // namespace fg::threads
#else
#include <omp.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace fg::threads {
namespace {
// Seconds between looks: a few jiffies (10 ms) of every CPU; the first decision comes sooner, so
// that a run of a fraction of a second is not spent on threads the machine does not have.
constexpr double first_interval = 0.05, interval = 0.2;

double seconds(clockid_t c) {
  timespec t{};
  clock_gettime(c, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct sampler {
  std::mutex lock;
  std::atomic<int> want{1};      // the threads the next regions get
  std::atomic<double> next{0};   // monotonic time of the next look
  bool fixed = false, readable = true;
  int cpus = 1;                  // the affinity mask's
  cpu_set_t mask{};
  double busy = -1, self = 0, wall = 0;

  sampler() {
    cpus = omp_get_max_threads();
    if (const char* t = std::getenv("FG_THREADS"); t != nullptr && std::atoi(t) > 0) {
      fixed = true;
      want = std::atoi(t);
      return;
    }
    CPU_ZERO(&mask);
    readable = sched_getaffinity(0, sizeof mask, &mask) == 0;
    want = cpus;
  }

  // Busy seconds of the mask's CPUs since boot (user + nice + system + irq + softirq + steal).
  double busy_seconds() {
    std::FILE* f = std::fopen("/proc/stat", "r");
    if (f == nullptr) return -1;
    static const double tick = double(sysconf(_SC_CLK_TCK));
    char line[512];
    double sum = 0;
    bool any = false;
    while (std::fgets(line, sizeof line, f) != nullptr && std::strncmp(line, "cpu", 3) == 0) {
      int cpu = -1;
      unsigned long long u = 0, n = 0, s = 0, idle = 0, io = 0, irq = 0, soft = 0, steal = 0;
      if (std::sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &u, &n, &s, &idle, &io, &irq, &soft,
                      &steal) < 8 || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &mask))
        continue;  // the "cpu" total line, or a CPU this process may not run on
      sum += double(u + n + s + irq + soft + steal) / tick;
      any = true;
    }
    std::fclose(f);
    return any ? sum : -1;
  }

  void look(double now) {
    const double b = busy_seconds(), me = seconds(CLOCK_PROCESS_CPUTIME_ID);
    if (b < 0) {
      readable = false;
      return;
    }
    if (busy >= 0 && now > wall) {
      const double others = (b - busy - (me - self)) / (now - wall);  // CPUs the other processes used
      int n = int(double(cpus) - others + 0.5);
      want = n < 1 ? 1 : n > cpus ? cpus : n;
    }
    busy = b, self = me, wall = now;
  }
};

sampler& state() {
  static sampler s;
  return s;
}
thread_local int applied = 0;  // what this thread's regions were last given
}  // namespace

void adapt() noexcept {
  sampler& s = state();
  if (!s.fixed && s.readable) {
    const double now = seconds(CLOCK_MONOTONIC);
    if (now >= s.next.load(std::memory_order_relaxed) && s.lock.try_lock()) {
      s.next = now + (s.busy < 0 ? first_interval : interval);
      s.look(now);
      s.lock.unlock();
    }
  }
  const int w = s.want.load(std::memory_order_relaxed);
  if (w != applied) {
    omp_set_num_threads(w);
    applied = w;
  }
}

int current() noexcept { return state().want.load(std::memory_order_relaxed); }

}  // namespace fg::threads
#endif
