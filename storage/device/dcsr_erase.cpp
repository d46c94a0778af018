// The undo of a deletion on the device (both builds; the OpenMP and CUDA twins of erase write the
// same log, storage/detail/erase_steps.hpp): a thread per logged hole puts the deleted entry back
// where a survivor had moved, a thread per touched row its size and segment count. The survivors'
// old places were only read by the deletion, and the released segments' table slots are written
// only by a batch that commits, so nothing else needs restoring. Reference twin:
// storage/reference/dcsr_erase.cpp.
#include "storage/detail/erase_steps.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {

template <class V>
void kernels<device_space>::undo_erase(const dcsr_view<V>& A, batch_workspace<device_space>& ws,
                                       const erase_status& st) {
  const erase_log<V> log = erase_log_in<V>(ws, std::size_t(st.removed), std::size_t(st.runs));
  parallel_for(st.removed, FG_LAMBDA(std::int64_t k) { unfill_hole(A, log, k); });
  parallel_for(st.runs, FG_LAMBDA(std::int64_t i) { untrim_row(A, log, i); });
}

#define FG_INSTANTIATE(V) FG_UNDO_ERASE_KERNEL_OF(device_space, V)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
