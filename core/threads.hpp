// The CPU build's OpenMP threads on a shared machine (docs/architecture.md, "Threads"). OpenMP's
// default is one thread per CPU of the affinity mask, each spinning between parallel regions: beside
// one busy process on two cores, the stream's thousands of short regions then wait on threads the
// scheduler has not run (stream - --wal: 35-48x slower; one thread: as fast as on an idle machine).
// So a region gets the CPUs the other processes leave, measured as it runs.
#pragma once

namespace fg::threads {

/// Before a parallel region (storage/device/policy.hpp calls it on every algorithm): at most every
/// 200 ms, how many CPUs of the affinity mask other processes kept busy since the last look
/// (/proc/stat's busy time of those CPUs less this process's own CPU time); the calling thread's
/// next regions get the CPUs left, at least one. FG_THREADS=N (the CLI's --threads N) fixes the
/// count instead. A no-op in the CUDA build and where /proc/stat cannot be read.
void adapt() noexcept;

/// The count adapt() gives the next regions now.
int current() noexcept;

}  // namespace fg::threads
