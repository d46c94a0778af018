// Which GPU a rank of a distributed run uses (core/comm_mpi.cpp); defined in core/memory.cpp.
#pragma once

namespace fg::memory {
/// The GPU this process uses, for rank `local_rank` of the ranks on its node: local_rank mod the
/// node's GPU count, so ranks share GPUs when there are fewer. Before any allocation. A no-op in the
/// CPU build.
void select_device(int local_rank);
/// GPUs this process sees (0 in the CPU build).
int device_count();
}  // namespace fg::memory
