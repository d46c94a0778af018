// The kernel interface every storage operation is written against. Two specialisations implement it:
//   kernels<host_space>   = storage/reference/*.cpp : plain sequential twins (always built)
//   kernels<device_space> = storage/device/*.cpp    : Thrust, OpenMP in the CPU build, CUDA in the
//                           CUDA build; storage/cuda/*.cu replace some of them there (same symbols).
// Orchestration (when to compact, how to recover from errors) lives once, in storage/dcsr_*.cpp.
#pragma once
#include <cstddef>
#include <string>

#include "core/error.hpp"

#include "core/array.hpp"
#include "storage/coo.hpp"
#include "storage/csr.hpp"
#include "storage/dcsr.hpp"
#include "storage/edge_set.hpp"

namespace fg::detail {

/// What is wrong with a batch, if anything, and how far its ids reach.
struct batch_summary {
  offset_t first_bad = -1;  ///< index of the first bad edge, -1 if none
  int reason = 0;           ///< 1: negative row, 2: negative column, 3: NaN or infinite value
  vertex_t max_row = -1, max_col = -1;
};

/// Outcome of planning a batch's segment allocations.
struct plan_totals {
  offset_t total = 0;     ///< entries to take from the bump allocator
  bool overflow = false;  ///< some row would need more than k segments
  bool at_limit = false;  ///< some row reaches exactly k segments
  offset_t segments = 0;  ///< new segments the batch allocates
  int max_nseg = 0;       ///< most segments any touched row has afterwards
};

/// What the caller of kernels<S>::insert knows about the store and asks of the batch.
struct insert_request {
  offset_t alloc_ptr = 0;   ///< the bump allocator's position
  offset_t capacity = 0;    ///< entries of the column buffer
  vertex_t row_cap = 0;     ///< rows of the row table (rows past it need a larger table)
  offset_t alpha = 0;       ///< slack of a new segment (segment_slack)
  double row_growth = 0;
  bool collapse = true;     ///< drop repeats and entries already stored
  bool sorted = false;      ///< the batch is sorted by (row, col) with no repeats (append_sorted)
  bool square = true;       ///< columns need rows too (the store keeps rows == cols)
};

/// Why an insert wrote nothing although the batch is valid: the store must first grow or compact.
enum class insert_room : int { fits = 0, rows = 1, segments = 2, buffer = 3 };

/// Outcome of one kernels<S>::insert: either written, or nothing of the store was touched.
struct insert_status {
  offset_t first_bad = -1;    ///< first bad edge (batch order), -1 if none
  int reason = 0;             ///< batch_reason code of first_bad
  bool unsorted = false;      ///< request.sorted, but the batch is not strictly sorted
  vertex_t max_row = -1, max_col = -1;
  insert_room room = insert_room::fits;
  offset_t kept = 0;          ///< entries left after the duplicate drop (valid from the plan on)
  offset_t runs = 0;          ///< rows that receive entries (valid from the plan on)
  plan_totals plan;           ///< the segment plan (valid from the plan on)
  bool written = false;
};

/// Slack a new segment gets beyond what the batch needs: the larger of the constant alpha (the
/// paper's mu) and a fraction of the row's new size. Proportional slack makes a growing row's
/// capacity geometric, so a hub row needs O(log) segments instead of one per batch.
FG_HD inline offset_t segment_slack(offset_t alpha, double row_growth, offset_t row_size) {
  const auto prop = offset_t(row_growth * double(row_size));
  return prop > alpha ? prop : alpha;
}

/// The new segment a row of `size` entries with `free_space` left needs for `b` more: none when they
/// fit, else the shortfall plus the slack (Algorithm 1's b - free + alpha).
FG_HD inline offset_t segment_need(offset_t b, offset_t free_space, offset_t size, offset_t alpha, double row_growth) {
  return b <= free_space ? 0 : b - free_space + segment_slack(alpha, row_growth, size + b);
}

/// Words for batch_summary::reason.
inline const char* batch_reason(int reason) {
  switch (reason) {
    case 1: return "negative row id";
    case 2: return "negative column id";
    case 3: return "value is NaN or infinite";
    default: return "invalid edge";
  }
}

/// How many of row r's segments hold its first n entries: the shortest prefix of its chain whose
/// capacity reaches n, but at least the first segment (an emptied row keeps room to grow again).
template <class V>
FG_HD inline int segments_holding(const dcsr_view<V>& A, vertex_t r, offset_t n) {
  int s = 0;
  for (offset_t cap = 0; s < A.nseg[r] && cap < n; ++s)
    cap += A.seg[s * A.pitch + 2 * offset_t(r) + 1] - A.seg[s * A.pitch + 2 * offset_t(r)];
  return s == 0 && A.nseg[r] > 0 ? 1 : s;
}

/// place_rows' step for one touched row r (run i): its new size, the entries of its flattened range
/// [vol[i], vol[i + 1]) that pos keeps (all of them when pos is null), and its chain: nseg[i] when
/// given (an undo), else the segments those entries need. Set before the entries move: a trimmed
/// chain still holds them, and a restored one is needed to put them back.
template <class V>
FG_HD inline void reshape_row(const dcsr_view<V>& A, vertex_t r, std::size_t i, const offset_t* vol,
                              const offset_t* pos, const std::uint8_t* nseg) {
  const offset_t n = pos != nullptr ? pos[vol[i + 1]] - pos[vol[i]] : vol[i + 1] - vol[i];
  A.nseg[r] = nseg != nullptr ? nseg[i] : std::uint8_t(segments_holding(A, r, n));
  A.sizes[r] = vertex_t(n);
}

/// Every SpMV entry point's argument check: x must cover the columns and y the rows.
inline void check_spmv_sizes(std::size_t x, std::size_t y, vertex_t rows, vertex_t cols, const char* who = "spmv") {
  FG_EXPECTS(x >= std::size_t(cols), std::string(who) + ": x shorter than the matrix has columns");
  FG_EXPECTS(y >= std::size_t(rows), std::string(who) + ": y shorter than the matrix has rows");
}

/// The semiring sum over entries [begin, end) of a CSR-like row with x, in stored order (the
/// sequential row loop of the twins and portable kernels).
template <class Sr, class V>
FG_HD inline typename Sr::value_type row_sum(const vertex_t* col, const stored_t<V>* val, offset_t begin, offset_t end,
                                             const typename Sr::value_type* x) {
  auto acc = Sr::zero();
  for (offset_t j = begin; j < end; ++j) acc = Sr::add(acc, Sr::mul(value_or<V>(val, j, Sr::pattern_value()), x[col[j]]));
  return acc;
}

template <class Space>
struct kernels;

#define FG_STORAGE_KERNELS(S)                                                                      \
  template <class V>                                                                               \
  static batch_summary summarize(const coo_matrix<V, S>& b);                                       \
  /* stable sort by (row, col): equal keys keep batch order, so layouts are deterministic */       \
  template <class V>                                                                               \
  static void sort_batch(coo_matrix<V, S>& b);                                                     \
  /* b sorted; drops entries equal to their predecessor, already stored in A, or flagged in       \
     also (when not null); shrinks b.nnz */                                                         \
  template <class V>                                                                               \
  static void drop_duplicates(const dcsr_view<V>& A, coo_matrix<V, S>& b, const std::uint8_t* also); \
  /* runs of equal rows of a sorted batch: run_row[m], run_start[m + 1]; returns m */              \
  static std::size_t row_runs(const vertex_t* rows, std::size_t n, array<vertex_t, S>& run_row,    \
                              array<offset_t, S>& run_start);                                      \
  /* need[i] = size of the new segment run i's row needs (0 if its free space suffices);           \
     rows >= A.rows are new and empty; need has m + 1 entries, need[m] = 0 */                       \
  template <class V>                                                                               \
  static plan_totals plan(const dcsr_view<V>& A, const vertex_t* run_row,                          \
                          const offset_t* run_start, std::size_t m, offset_t alpha,              \
                          double row_growth, offset_t* need);                                      \
  /* in place exclusive scan of n values; returns their sum */                                      \
  static offset_t exclusive_scan(offset_t* data, std::size_t n);                                   \
  /* addr = exclusive scan of need (m + 1 entries), relative to base: adds segments, writes the    \
     batch entries after each row's current ones, then bumps the row sizes */                      \
  template <class V>                                                                               \
  static void write(const dcsr_view<V>& A, const vertex_t* run_row, const offset_t* run_start,     \
                    std::size_t m, const offset_t* addr, offset_t base, const coo_matrix<V, S>& b); \
  /* one whole batch insertion (Algorithms 1-2): check -> stable sort by (row, col) (unless       \
     rq.sorted) -> drop repeats and stored entries (rq.collapse) -> runs -> plan -> write. Writes   \
     nothing unless it returns written; b is not modified; scratch comes from ws. The CUDA twin     \
     reads nothing back before the returned status. With an active set (device stores only) the    \
     duplicate check looks pairs up in it instead of probing the rows, and a written batch's pairs \
     are added to it. */                                                                           \
  template <class V>                                                                               \
  static insert_status insert(const dcsr_view<V>& A, const coo_matrix<V, S>& b,                    \
                              const insert_request& rq, batch_workspace<S>& ws,                    \
                              const edge_set_view& set);                                           \
  /* deletion: vol[i] = size of run i's row (0 for rows >= A.rows), nseg[i] its segment count;     \
     vol[m] = 0 */                                                                                 \
  template <class V>                                                                               \
  static void touched_rows(const dcsr_view<V>& A, const vertex_t* run_row, std::size_t m,          \
                           offset_t* vol, std::uint8_t* nseg);                                     \
  /* vol = exclusive scan of the touched rows' sizes; b_col: the columns of a sorted batch with no  \
     repeats, run i = b_col[run_start[i], run_start[i + 1]). For entry p of run i's row, at         \
     t = vol[i] + p: saved_col/val[t] = the entry, keep[t] = 0 when run i lists its column, else 1; \
     keep[vol[m]] = 0. Returns how many batch entries matched a stored entry. Writes nothing of A. */ \
  template <class V>                                                                               \
  static offset_t mark_deletes(const dcsr_view<V>& A, const vertex_t* run_row,                     \
                               const offset_t* run_start, std::size_t m, const vertex_t* b_col,    \
                               const offset_t* vol, offset_t* keep, vertex_t* saved_col,           \
                               stored_t<V>* saved_val);                                            \
  /* rewrites every touched row from saved: run i's row gets the saved entries t of                 \
     [vol[i], vol[i + 1]) with pos[t + 1] > pos[t] (all of them when pos is null), in order, at the \
     front of its segment chain; its size becomes their count and its nseg nseg[i] when nseg is     \
     given, else segments_holding(size). Allocates nothing. */                                      \
  template <class V>                                                                               \
  static void place_rows(const dcsr_view<V>& A, const vertex_t* run_row, std::size_t m,            \
                         const offset_t* vol, const offset_t* pos, const std::uint8_t* nseg,       \
                         const vertex_t* saved_col, const stored_t<V>* saved_val);                 \
  /* row_ptr[rows + 1] = exclusive scan of the sizes of rows order[0], order[1], ... (of rows      \
     0, 1, ... when order is null). Reads nothing back: the caller knows the total (its nnz). */   \
  static void scan_sizes(const vertex_t* sizes, vertex_t rows, offset_t* row_ptr,                  \
                         const vertex_t* order);                                                   \
  /* gathers every row's entries, in order, to out: row order[k] (row k when order is null) to     \
     [row_ptr[k], row_ptr[k+1]) (Algorithm 4's CompactIndices); nnz = row_ptr[rows] */              \
  template <class V>                                                                               \
  static void compact(const dcsr_view<V>& A, const offset_t* row_ptr, const vertex_t* order,       \
                      offset_t nnz, vertex_t* out_col, stored_t<V>* out_val);                      \
  /* one segment per row: row order[k] (k when null) at [row_ptr[k], row_ptr[k+1]); sizes too      \
     when set_sizes (CSR -> DCSR) */                                                                \
  static void single_segments(vertex_t* sizes, std::uint8_t* nseg, offset_t* seg, vertex_t rows,   \
                              const offset_t* row_ptr, const vertex_t* order, bool set_sizes);     \
  /* every row of [0, rows) gets an empty segment of mu entries at r * mu (blank store) */         \
  static void blank_segments(vertex_t* sizes, std::uint8_t* nseg, offset_t* seg, vertex_t rows,    \
                             offset_t mu);                                                         \
  /* rows of a CSR / expanded COO row ids */                                                        \
  static void expand_rows(const offset_t* row_ptr, vertex_t rows, vertex_t* out_row);              \
  template <class Sr, class V>                                                                     \
  static void dcsr_spmv(const dcsr_view<V>& A, const typename Sr::value_type* x,                   \
                        typename Sr::value_type* y);                                               \
  template <class Sr, class V>                                                                     \
  static void csr_spmv(const csr_view<V>& A, const typename Sr::value_type* x,                     \
                       typename Sr::value_type* y);

template <>
struct kernels<host_space> {
  FG_STORAGE_KERNELS(host_space)
};
template <>
struct kernels<device_space> {
  FG_STORAGE_KERNELS(device_space)
};
#undef FG_STORAGE_KERNELS

}  // namespace fg::detail

// Explicit-instantiation lists shared by every implementation file.
#define FG_FOR_EACH_VALUE(M) M(float) M(double) M(::fg::pattern)
// The deletion kernels of twin S for value type V (inside namespace fg::detail).
#define FG_DELETE_KERNELS_OF(S, V)                                                                  \
  template void kernels<S>::touched_rows<V>(const dcsr_view<V>&, const vertex_t*, std::size_t,      \
                                            offset_t*, std::uint8_t*);                             \
  template offset_t kernels<S>::mark_deletes<V>(const dcsr_view<V>&, const vertex_t*,               \
                                                const offset_t*, std::size_t, const vertex_t*,      \
                                                const offset_t*, offset_t*, vertex_t*, stored_t<V>*); \
  template void kernels<S>::place_rows<V>(const dcsr_view<V>&, const vertex_t*, std::size_t,        \
                                          const offset_t*, const offset_t*, const std::uint8_t*,    \
                                          const vertex_t*, const stored_t<V>*);
// (semiring, matrix value) pairs SpMV is built for.
#define FG_FOR_EACH_SPMV(M)                                                                 \
  M(::fg::plus_times<float>, float) M(::fg::plus_times<double>, double)                     \
  M(::fg::plus_times<float>, ::fg::pattern) M(::fg::plus_times<double>, ::fg::pattern)      \
  M(::fg::or_and, ::fg::pattern) M(::fg::min_plus<float>, float)                            \
  M(::fg::min_plus<double>, double) M(::fg::min_plus<double>, ::fg::pattern)                \
  M(::fg::min_plus<float>, ::fg::pattern)
// spmv<Sr, V, S>(const FG_SPMV_FORMAT<V, S>&, x, y) in both spaces; a format's .cpp defines
// FG_SPMV_FORMAT (its matrix template) and expands FG_FOR_EACH_SPMV(FG_SPMV_OF_FORMAT).
#define FG_SPMV_OF_FORMAT_IN(Sr, V, S)                                                              \
  template void spmv<Sr, V, S>(const FG_SPMV_FORMAT<V, S>&, const array<Sr::value_type, S>&,       \
                               array<Sr::value_type, S>&);
#define FG_SPMV_OF_FORMAT(Sr, V) FG_SPMV_OF_FORMAT_IN(Sr, V, host_space) FG_SPMV_OF_FORMAT_IN(Sr, V, device_space)
