// kernels<S>::insert composed from the step kernels (summarize, sort_batch, drop_duplicates,
// row_runs, plan, exclusive_scan, write): the reference twin and the OpenMP device twin, where a
// read-back between steps costs nothing. The CUDA twin (storage/cuda/dcsr_insert.cu) fuses the
// same steps into kernels that read nothing back before the final status.
#pragma once
#include <climits>
#include <type_traits>

#include "storage/detail/edge_set_kernels.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/spmm_kernels.hpp"

namespace fg::detail {

template <class S, class V>
insert_status stepwise_insert(const dcsr_view<V>& A, const coo_matrix<V, S>& b, const insert_request& rq,
                              const edge_set_view& set) {
  using K = kernels<S>;
  insert_status st;
  const batch_summary sum = K::summarize(b);
  st.first_bad = sum.first_bad;
  st.reason = sum.reason;
  st.max_row = sum.max_row;
  st.max_col = sum.max_col;
  if (st.first_bad >= 0 || st.max_row == INT_MAX || st.max_col == INT_MAX) return st;  // the host names it
  if (rq.sorted && !spmm_kernels<S>::strictly_sorted(b.row.data(), b.col.data(), b.nnz)) {
    st.unsorted = true;
    return st;
  }
  if ((rq.square ? std::max(st.max_row, st.max_col) : st.max_row) >= rq.row_cap) {
    st.room = insert_room::rows;
    return st;
  }
  coo_matrix<V, S> work = clone_coo<S>(b);
  if (!rq.sorted) K::sort_batch(work);
  if (rq.collapse && !rq.sorted) {
    bool by_set = false;  // repeats by the sort, stored pairs by the set (device stores that keep one)
    if constexpr (std::is_same_v<S, device_space>) {
      by_set = set.slot != nullptr;
      if (by_set) {
        array<std::uint8_t, S> stored(work.nnz);
        fill_zero(stored);
        edge_set_mark(set, work.row.data(), work.col.data(), work.nnz, stored.data());
        K::drop_duplicates(dcsr_view<V>{}, work, stored.data());
      }
    }
    if (!by_set) st.walked = K::drop_duplicates(A, work, nullptr);  // ... or by the probe of the stored rows
  }
  array<vertex_t, S> run_row;
  array<offset_t, S> run_start;
  const std::size_t m = K::row_runs(work.row.data(), work.nnz, run_row, run_start);
  array<offset_t, S> need(m + 1);
  st.plan = K::plan(A, run_row.data(), run_start.data(), m, rq.alpha, rq.row_growth, need.data());
  st.kept = offset_t(work.nnz);
  st.runs = offset_t(m);
  if (st.plan.overflow) {
    st.room = insert_room::segments;
    return st;
  }
  const offset_t total = K::exclusive_scan(need.data(), m + 1);
  if (rq.alloc_ptr + total > rq.capacity) {
    st.room = insert_room::buffer;
    return st;
  }
  K::write(A, run_row.data(), run_start.data(), m, need.data(), rq.alloc_ptr, work);
  if constexpr (std::is_same_v<S, device_space>)
    if (set.slot != nullptr) edge_set_add(set, work.row.data(), work.col.data(), work.nnz);
  st.written = true;
  return st;
}

}  // namespace fg::detail
