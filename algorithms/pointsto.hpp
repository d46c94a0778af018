// Andersen's inclusion-based points-to analysis and the inclusion-constraint solvers it is built on
// (0-CFA reuses them: algorithms/cfa.hpp): the matrix fixed point below (the reference twin), the
// CPU build's wave solver, the device's bit-row solver and the worklist oracle, which all give the
// one least solution.
//
// The matrix fixed point (King et al. 2016, §I: points-to as sparse matrix algebra). Relations (pattern DCSR stores): P (node x object, "pts"), E (node x node, E(d, s): pts(d) ⊇
// pts(s), the copy edges; it grows). Rules, evaluated semi-naively on ΔP (the facts new last round):
//   loads   d = *p:      E ⊇ Ld·ΔP               (Ld(d, p); objects are nodes in Andersen)
//   stores  *p = s:      E ⊇ F·(ΔPᵀ·S)           (S(p, s); F maps an object to the node written:
//                                                 the identity in Andersen, a lambda's i-th
//                                                 parameter in 0-CFA)
//   copies:              ΔP' = (E·ΔP ∪ ΔE·P) \ P  (new facts along every edge; new edges carry the
//                                                 full pts of their source once)
// until ΔP is empty. Every rule is one masked SpMM whose new cells are appended to the target store
// and to the next delta (algorithms/detail/fixpoint.hpp).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "storage/spmm.hpp"

namespace fg {

/// Inclusion constraints over nodes and objects (pairs as parallel vectors).
struct inclusion_problem {
  vertex_t nodes = 0, objects = 0;
  std::vector<vertex_t> base_node, base_obj;  ///< obj ∈ pts(node)
  std::vector<vertex_t> copy_dst, copy_src;   ///< pts(dst) ⊇ pts(src)
  std::vector<vertex_t> load_dst, load_ptr;   ///< dst = *ptr: pts(dst) ⊇ pts(o), o ∈ pts(ptr); needs objects == nodes
  /// One family of stores: for o ∈ pts(ptr[j]), pts(field(o)) ⊇ pts(src[j]). `field_node`/`field_obj`
  /// list the pairs (field(o), o); empty means field(o) = o (Andersen's *p = s; objects == nodes).
  struct store_family {
    std::vector<vertex_t> ptr, src;
    std::vector<vertex_t> field_node, field_obj;
  };
  std::vector<store_family> stores;
  /// Calls through a pointer, resolved as the solution grows: for every function object f in
  /// pts(callee[j]), pts(formal_i(f)) ⊇ pts(actual_i) and pts(result[j]) ⊇ pts(ret(f)). Site j's
  /// actuals are args[arg_ptr[j], arg_ptr[j + 1]); -1 stands for a value that carries no pointer
  /// (in args, result, formals, ret). Extra actuals past a callee's formals (varargs) are dropped.
  struct call_sites {
    std::vector<vertex_t> callee, result, args;
    std::vector<offset_t> arg_ptr;  ///< callee.size() + 1 offsets (empty when there are no sites)
  };
  call_sites icalls;
  /// The functions an indirect call can reach: object[k] (an object id), its return node ret[k]
  /// and formals[formal_ptr[k], formal_ptr[k + 1]).
  struct function_table {
    std::vector<vertex_t> object, ret, formals;
    std::vector<offset_t> formal_ptr;
  };
  function_table functions;
  /// Throws fg::invalid_argument for an id out of range or a load/identity store with objects != nodes.
  void check() const;
};

struct inclusion_stats {
  offset_t facts = 0;       ///< |P|
  offset_t copy_edges = 0;  ///< |E| at the fixed point (given and derived)
  int iterations = 0;       ///< rounds run, the last of which found nothing new
  double seconds = 0;
  offset_t products = 0;
  std::size_t peak_bytes = 0;
};

/// The fixed point's pts as host CSR: row v lists pts(v), sorted.
struct inclusion_result {
  inclusion_stats stats;
  std::vector<offset_t> row_ptr;
  std::vector<vertex_t> col;
  offset_t size(vertex_t v) const { return row_ptr[std::size_t(v) + 1] - row_ptr[std::size_t(v)]; }
};

struct inclusion_options {
  spmm_options spmm;
  std::function<void(int, offset_t, offset_t)> progress;  ///< (round, new facts, facts so far)
};

/// @brief The least solution: exec::reference by masked SpMMs on the host (the matrix twin);
///        exec::device by solve_inclusion_bits in the CUDA build and by the wave solver below in
///        the CPU build (its OpenMP threads gain nothing over one thread with shared sets).
inclusion_result solve_inclusion(const inclusion_problem& p, exec where, const inclusion_options& opt = {});
/// @brief The oracle: a sequential worklist solver over hash-consed sparse bitmaps (no matrices, no
///        cycle collapse), pts sorted.
inclusion_result solve_inclusion_worklist(const inclusion_problem& p);
/// @brief The CPU solver: wave propagation with cycle collapse and difference propagation over
///        sparse bitmaps (algorithms/reference/pointsto_wave.cpp); what solve_inclusion runs for
///        exec::device in the CPU build. stats.iterations counts its rounds.
inclusion_result solve_inclusion_wave(const inclusion_problem& p, const inclusion_options& opt = {});

/// @brief |E| at the fixed point `r` of `p` (given and derived copy edges, as the constraints name
///        the nodes): what the matrix solvers count, for the solvers that keep no edge set.
offset_t count_copy_edges(const inclusion_problem& p, const inclusion_result& r);

/// @brief The device solver: the wave solver's rounds with the cycles kept on the host and the sets
///        as a dense bit matrix on the device (algorithms/pointsto_bits.cpp; OpenMP threads in the
///        CPU build, where the tests run it). Needs nodes x (objects named by base facts) / 8 bytes.
inclusion_result solve_inclusion_bits(const inclusion_problem& p, const inclusion_options& opt = {});

/// A points-to problem as read from a file: variables with names, and Andersen's four constraints.
struct pointsto_problem {
  std::string path;
  /// names[v]: the text format's identifier; empty for the numeric format (variable v is named "v")
  std::vector<std::string> names;
  inclusion_problem constraints;   ///< nodes == objects: the variables (names.size() when named)
  std::int64_t lines = 0;          ///< constraints read
};

/// @brief The Galois/Hardekopf numeric format: header "<vars> <constraints>", then per line
///        "<id> <src> <dst> <type> <offset>", type 0 dst = &src, 1 dst = src, 2 dst = *src,
///        3 *dst = src (the Galois PtsToCons enum and its reader); offsets must be 0.
/// @throws fg::input_error "file:line: what".
pointsto_problem read_pointsto_numeric(const std::string& path);
/// @brief The readable format: "p = &a", "p = q", "p = *q", "*p = q" per line, identifiers
///        [A-Za-z_][A-Za-z0-9_.]*, '#' comments, blank lines; variables numbered as they appear.
pointsto_problem read_pointsto_text(const std::string& path);
/// @brief LLVM IR (.ll, .bc: algorithms/llvm_ir.hpp) by its name or magic; else the numeric format
///        when the first data line is two integers, the text format otherwise.
pointsto_problem read_pointsto(const std::string& path);
/// @brief The problem in the text format, so that any solver can read it: names made identifiers
///        (other characters become '_'), and indirect calls as the copies `solution` (this problem's
///        least solution) resolves them to, which gives the text file the same least solution;
///        without a solution as 'func' / 'call' lines (read_pointsto_text reads them back).
/// @throws fg::invalid_argument for stores through a field map; fg::input_error when the file
///         cannot be written.
void write_pointsto_text(const pointsto_problem& p, const std::string& path, const inclusion_result* solution);

/// @brief "name: obj obj ..." (sizes: "name: count") per variable with a non-empty set, in variable
///        order, to an open file; names empty: the ids (the numeric format). False when a write failed.
bool write_pointsto_sets(std::FILE* out, const std::vector<std::string>& names, const std::vector<offset_t>& row_ptr,
                         const std::vector<vertex_t>& col, bool sizes);

}  // namespace fg
