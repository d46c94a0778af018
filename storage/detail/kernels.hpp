// The kernel interface every storage operation is written against. Two specialisations implement it:
//   kernels<host_space>   = storage/reference/*.cpp : plain sequential twins (always built)
//   kernels<device_space> = storage/device/*.cpp    : Thrust, OpenMP in the CPU build, CUDA in the
//                           CUDA build; storage/cuda/*.cu replace some of them there (same symbols).
// Orchestration (when to compact, how to recover from errors) lives once, in storage/dcsr_*.cpp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"

#include "core/array.hpp"
#include "storage/coo.hpp"
#include "storage/detail/batch_record.hpp"
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
  /// Deferred (kernels<S>::defers): the kernels report to *record, read alloc_ptr (and, when alpha
  /// < 0, the slack from the mean row) from *chain and update it, skip when it has stalled, and
  /// nothing is read back: insert() returns a default status. Both null: one read-back, as always.
  batch_chain* chain = nullptr;
  batch_record* record = nullptr;
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
  offset_t walked = 0;        ///< stored entries the duplicate probe read (0 where the set or the CUDA kernels answered)
};

/// What the caller of kernels<S>::erase knows about the store and asks of the deletion.
struct erase_request {
  offset_t capacity = 0;  ///< entries of the column buffer (bounds a flattened position)
  bool log = false;       ///< keep an undo log in the workspace (a mixed batch): see undo_erase
  batch_chain* chain = nullptr;    ///< deferred, as insert_request::chain (no second pass: a hole
  batch_record* record = nullptr;  ///< list that overflows stalls the chain)
};

/// Outcome of one kernels<S>::erase: either the keys are deleted, or (a bad key) nothing was touched.
struct erase_status {
  offset_t first_bad = -1;  ///< first bad key (batch order), -1 if none
  int reason = 0;           ///< batch_reason code of first_bad
  offset_t matched = 0;     ///< distinct keys found in the store
  offset_t removed = 0;     ///< stored entries removed (every copy of a matched key)
  offset_t runs = 0;        ///< touched rows the undo log covers
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

/// A batch record as the host's statuses (the CUDA twin's read-back, and dcsr_pipeline's settle).
// batch_record::bad as (first bad edge, reason); -1 when none.
inline offset_t first_bad_of(const batch_record& h, int& reason) {
  if (h.bad == 0) return -1;
  reason = int(~h.bad & 3);
  return offset_t(~h.bad >> 2);
}
inline insert_status insert_status_of(const batch_record& h) {
  insert_status out;
  out.first_bad = first_bad_of(h, out.reason);
  out.unsorted = h.unsorted != 0;
  out.max_row = vertex_t(std::int64_t(h.max_row1) - 1);
  out.max_col = vertex_t(std::int64_t(h.max_col1) - 1);
  out.room = h.room > 0 ? insert_room(h.room) : insert_room::fits;
  out.kept = h.kept;
  out.runs = offset_t(h.runs);
  out.plan.total = h.total;
  out.plan.overflow = h.overflow != 0;
  out.plan.at_limit = h.at_limit != 0;
  out.plan.segments = offset_t(h.segments);
  out.plan.max_nseg = h.max_nseg;
  out.written = h.written != 0;
  return out;
}
inline erase_status erase_status_of(const batch_record& h) {
  erase_status out;
  out.first_bad = first_bad_of(h, out.reason);
  out.matched = offset_t(h.matched);
  out.removed = offset_t(h.holes);
  out.runs = h.m;
  out.written = h.written != 0;
  return out;
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

/// Stored entries of row r's first segment when it starts below `ordered_end` (the row-ordered
/// prefix of the buffer, an in-place dcsr_matrix::pack), else 0.
template <class V>
FG_HD inline offset_t prefix_piece(const dcsr_view<V>& A, vertex_t r, offset_t ordered_end) {
  if (A.nseg[r] == 0 || A.seg[2 * offset_t(r)] >= ordered_end) return 0;
  const offset_t len = A.seg[2 * offset_t(r) + 1] - A.seg[2 * offset_t(r)];
  return len < A.sizes[r] ? len : offset_t(A.sizes[r]);
}

/// Every SpMV entry point's argument check: x must cover the columns and y the rows.
inline void check_spmv_sizes(std::size_t x, std::size_t y, vertex_t rows, vertex_t cols, const char* who = "spmv") {
  FG_EXPECTS(x >= std::size_t(cols), std::string(who) + ": x shorter than the matrix has columns");
  FG_EXPECTS(y >= std::size_t(rows), std::string(who) + ": y shorter than the matrix has rows");
}

/// The semiring sum over entries [begin, end) of a CSR-like row with x, in stored order (the
/// sequential row loop of the twins and portable kernels). x may be narrower than the sums (X =
/// float for double sums: spmv_mixed); each element is widened as it is read.
template <class Sr, class V, class X = typename Sr::value_type>
FG_HD inline typename Sr::value_type row_sum(const vertex_t* col, const stored_t<V>* val, offset_t begin, offset_t end,
                                             const X* x) {
  using T = typename Sr::value_type;
  auto acc = Sr::zero();
  for (offset_t j = begin; j < end; ++j) acc = Sr::add(acc, Sr::mul(value_or<V>(val, j, Sr::pattern_value()), T(x[col[j]])));
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
     also (when not null); shrinks b.nnz; returns the stored entries of the touched rows it read */ \
  template <class V>                                                                               \
  static offset_t drop_duplicates(const dcsr_view<V>& A, coo_matrix<V, S>& b, const std::uint8_t* also); \
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
  /* one whole deletion: check the keys (values ignored) -> sort -> drop repeats (and, with an    \
     active set, keys it does not hold) -> locate every stored copy of each key in its row (the    \
     holes) -> the holes in a row's surviving prefix [0, n - d) take the survivors of its tail     \
     [n - d, n), both ascending -> sizes, and chains trimmed to segments_holding -> the matched    \
     keys leave the set. Writes O(removed entries); reads the touched rows once. Writes nothing    \
     when a key is bad. With rq.log, what it overwrote goes to the workspace's log slots. The      \
     CUDA twin reads nothing back before the returned status. */                                   \
  template <class V>                                                                               \
  static erase_status erase(const dcsr_view<V>& A, const coo_matrix<V, S>& b,                      \
                            const erase_request& rq, batch_workspace<S>& ws,                       \
                            const edge_set_view& set);                                             \
  /* puts back what the logged erase that returned st changed (ws unchanged since, but for        \
     slots below erase_log_slot); the store must not have been written in between. Allocates     \
     nothing. */                                                                                   \
  template <class V>                                                                               \
  static void undo_erase(const dcsr_view<V>& A, batch_workspace<S>& ws, const erase_status& st);   \
  /* row_ptr[rows + 1] = exclusive scan of the sizes of rows order[0], order[1], ... (of rows      \
     0, 1, ... when order is null). Reads nothing back: the caller knows the total (its nnz). */   \
  static void scan_sizes(const vertex_t* sizes, vertex_t rows, offset_t* row_ptr,                  \
                         const vertex_t* order);                                                   \
  /* gathers every row's entries, in order, to out: row order[k] (row k when order is null) to     \
     [row_ptr[k], row_ptr[k+1]) (Algorithm 4's CompactIndices); nnz = row_ptr[rows] */              \
  template <class V>                                                                               \
  static void compact(const dcsr_view<V>& A, const offset_t* row_ptr, const vertex_t* order,       \
                      offset_t nnz, vertex_t* out_col, stored_t<V>* out_val);                      \
  /* the entries pack_in_place finds in place: the sum of prefix_piece over the rows */             \
  template <class V>                                                                               \
  static offset_t prefix_entries(const dcsr_view<V>& A, offset_t ordered_end);                     \
  /* compact(A, row_ptr, null, ...) into A's own buffer: row r's entries, in order, to positions    \
     [row_ptr[r], row_ptr[r+1]). The rows' prefix pieces are moved in place and the other `tail`    \
     entries through scratch; allocates it all before it writes. The segment table is the caller's */ \
  template <class V>                                                                               \
  static void pack_in_place(const dcsr_view<V>& A, const offset_t* row_ptr, offset_t ordered_end,  \
                            offset_t tail);                                                        \
  /* true when every non-empty row has one segment, starting at row_ptr[r] (row order): the store   \
     is CSR already, and compact(A, row_ptr, null, ...) is a copy of its first nnz entries */      \
  template <class V>                                                                               \
  static bool rows_in_place(const dcsr_view<V>& A, const offset_t* row_ptr);                       \
  /* one segment per row: row order[k] (k when null) at base + [row_ptr[k], row_ptr[k+1]); sizes   \
     too when set_sizes (CSR -> DCSR): the segment's length, or fill[k+1] - fill[k] when fill is    \
     given (rows with room to spare) */                                                             \
  static void single_segments(vertex_t* sizes, std::uint8_t* nseg, offset_t* seg, vertex_t rows,   \
                              const offset_t* row_ptr, const vertex_t* order, bool set_sizes,      \
                              const offset_t* fill = nullptr, offset_t base = 0);                  \
  /* exchanges the chain of row rows[k], k < m (its first `slots` segment slots and its count),  \
     with pairs (slot s at pairs[2 * (s * m + k)], two entries) and counts[k]; a second call puts  \
     them back */                                                                                   \
  static void swap_chains(offset_t* seg, offset_t pitch, int slots, std::uint8_t* nseg,            \
                          const vertex_t* rows, std::size_t m, offset_t* pairs, std::uint8_t* counts); \
  /* the rows among rows[0, n) that the store has (< A.rows) and whose chain is at A.k segments,    \
     each once, ascending, to out (n slots); returns how many */                                    \
  template <class V>                                                                               \
  static std::size_t rows_at_limit(const dcsr_view<V>& A, const vertex_t* rows, std::size_t n,     \
                                   vertex_t* out);                                                 \
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
                       typename Sr::value_type* y);                                                \
  /* y = A x for k vectors at once (2 <= k <= max_read_vectors; one vector: dcsr_spmv), plus-times \
     row-major, entry v * k + j is vertex v's value in vector j, so a column's k values are one   \
     gather; each row's entries in stored order */                                                 \
  template <class V>                                                                               \
  static void dcsr_spmv_k(const dcsr_view<V>& A, const double* x, double* y, int k);

template <>
struct kernels<host_space> {
  FG_STORAGE_KERNELS(host_space)
  static constexpr bool defers = false;  ///< insert / erase honour request.chain (else synchronous)
};
template <>
struct kernels<device_space> {
  FG_STORAGE_KERNELS(device_space)
#if defined(FG_WITH_CUDA)
  static constexpr bool defers = true;
#else
  static constexpr bool defers = false;  // OpenMP: a batch is done when its call returns anyway
#endif
};
#undef FG_STORAGE_KERNELS

}  // namespace fg::detail

// Explicit-instantiation lists shared by every implementation file.
#define FG_FOR_EACH_VALUE(M) M(float) M(double) M(::fg::pattern)
// One batch operation of twin S for value type V (inside namespace fg::detail); each twin's file
// instantiates the operations it defines.
#define FG_INSERT_KERNEL_OF(S, V)                                                                   \
  template insert_status kernels<S>::insert<V>(const dcsr_view<V>&, const coo_matrix<V, S>&,        \
                                               const insert_request&, batch_workspace<S>&,          \
                                               const edge_set_view&);
#define FG_ERASE_KERNEL_OF(S, V)                                                                    \
  template erase_status kernels<S>::erase<V>(const dcsr_view<V>&, const coo_matrix<V, S>&,          \
                                             const erase_request&, batch_workspace<S>&,             \
                                             const edge_set_view&);
#define FG_UNDO_ERASE_KERNEL_OF(S, V) \
  template void kernels<S>::undo_erase<V>(const dcsr_view<V>&, batch_workspace<S>&, const erase_status&);
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
