// Device steps of the bit-row inclusion solver (orchestrated by algorithms/pointsto_bits.cpp,
// implemented once in algorithms/device/pointsto_bits_steps.cpp: OpenMP threads in the CPU build,
// the GPU in the CUDA build). pts is a dense bit matrix, one row of `words` 32-bit words per node
// and one bit per object that some base fact names (at a tenth of the objects per node, as in the
// binutils programs, the rows take less room than sorted ids and every union is a word-wise OR).
// All pointers are device pointers.
#pragma once
#include <cstdint>
#include <vector>

#include "algorithms/detail/indirect_calls.hpp"
#include "algorithms/pointsto.hpp"
#include "core/array.hpp"

namespace fg::detail::bits {

using word = std::uint32_t;

FG_HD inline int popcount(word x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}
FG_HD inline int lowest_bit(word x) {  // x != 0
#if defined(__CUDA_ARCH__)
  return __ffs(int(x)) - 1;
#else
  return __builtin_ctz(x);
#endif
}

/// One complex constraint: a load d = *p (kind load, arg d), a store *p = s (kind store, arg s,
/// its store family), an indirect call (kind call, arg the site) or a matched return c -ret_i-> d
/// (kind ret, pointer c, arg d, family i; see matched_view). `slot` is its pointer's row of the
/// ran/delta matrices.
enum unit_kind : std::uint8_t { load = 0, store = 1, call = 2, ret = 3 };
struct units_view {
  const std::int32_t* slot;
  const std::uint8_t* kind;
  const vertex_t* arg;
  const std::int32_t* family;
  std::size_t count;
};

/// The call edges a -call_i-> b by b: src[j], idx[j] for j in [ptr[b], ptr[b + 1]). A return
/// unit c -ret_i-> d makes, from each b in pts(c), the edge a -> d of every call edge into b with
/// index i: CFL's A -> call_i A ret_i, with pts(v) = {u : A(u, v)} (algorithms/cfl_value_flow.cpp).
struct matched_view {
  const offset_t* ptr = nullptr;
  const vertex_t* src = nullptr;
  const vertex_t* idx = nullptr;
};

/// What the candidate edges need: bit -> object id, node -> representative, the stores' field
/// maps, the call tables and the matched calls.
struct tables_view {
  const vertex_t* object_of;
  const vertex_t* rep;
  field_view fields;
  call_table calls;
  matched_view matched;
};

/// The host's matched calls and returns: return edges c -ret_i-> d, call edges a -call_i-> b.
struct matched_edges {
  std::vector<vertex_t> ret_src, ret_dst, ret_idx;
  std::vector<vertex_t> call_src, call_dst, call_idx;
};

/// rows[node[i]] gets bit bit[i], for i < m.
void set_bits(word* rows, std::size_t words, const vertex_t* node, const vertex_t* bit, std::size_t m);
/// rows[into[i]] |= rows[from[i]], for i < m (several may share `into`).
void or_rows(word* rows, std::size_t words, const vertex_t* into, const vertex_t* from, std::size_t m);
/// rows[dst[i]] |= rows[src[i]] for i < m; no dst is a src here (one height of the DAG).
void push_edges(word* rows, std::size_t words, const vertex_t* src, const vertex_t* dst, std::size_t m);
/// delta[s] = rows[slot_row[s]] & ~ran[s]; ran[s] |= delta[s]: the objects a pointer gained since
/// its constraints last ran; active[s] = 1 where delta[s] is not empty (the caller zeroes it).
/// Returns whether any delta is non-empty.
bool take_deltas(const word* rows, std::size_t words, const vertex_t* slot_row, std::size_t slots, word* ran, word* delta,
                 std::uint8_t* active);
/// out[i] = rows[idx[i]] for i < m (rows of `words` words).
void gather_rows(const word* rows, std::size_t words, const vertex_t* idx, std::size_t m, word* out);
/// How many candidate edges the units make from the deltas (an upper bound on emit_edges).
offset_t count_edges(const units_view& u, const tables_view& t, const word* delta, std::size_t words);
/// The candidate edges as keys (rep(a) << 32 | rep(b)), in any order, a self-loop as ~0 (which
/// fresh_edges drops); returns how many were written (count_edges).
std::size_t emit_edges(const units_view& u, const tables_view& t, const word* delta, std::size_t words, std::uint64_t* keys);
/// Sorts keys[0, m), drops repeats, ~0 and those in `known` (sorted), adds the rest to `known` and
/// returns them (sorted).
std::vector<std::uint64_t> fresh_edges(array<std::uint64_t, device_space>& keys, std::size_t m,
                                       array<std::uint64_t, device_space>& known);
/// counts[v] = |rows[rep[v]]| for v < n.
void row_sizes(const word* rows, std::size_t words, const vertex_t* rep, vertex_t n, offset_t* counts);
/// The objects of rows[rep[v]] in order at col[row_ptr[v]...], for v < n.
void row_objects(const word* rows, std::size_t words, const vertex_t* rep, const vertex_t* object_of, vertex_t n,
                 const offset_t* row_ptr, vertex_t* col);

/// solve_inclusion_bits with matched returns as one more complex rule (needs objects == nodes).
inclusion_result solve_matched(const inclusion_problem& p, const matched_edges& m, const inclusion_options& opt = {});

}  // namespace fg::detail::bits
