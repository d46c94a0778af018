// Context-free-language reachability (all-pairs) as a fixed point of boolean SpMMs over DCSR: one
// growing pattern store per nonterminal, evaluated semi-naively (King et al. 2016, §I; the POCR
// alias and value-flow benchmarks).
//
// Files (the POCR distribution, shared/data/pocr-alias):
//  Both: blank lines and lines whose first token starts with '#' are skipped.
//  - graph: "src dst label [index]" per line (tabs or spaces), node ids non-negative integers (the
//    node set is 0..max id). Labels ending in "_i" (f_i, call_i, ret_i, ...) are indexed: the 4th
//    column is the index (a field, a call site). "bar" labels (abar, dbar, fbar_i) are the reverse
//    edges; the .peg files list them explicitly next to their forward edge, so a bar label is just
//    another terminal here. Labels the grammar does not use are skipped (counted).
//  - grammar: one production per line, "LHS RHS1 [RHS2 ...]"; a line with only LHS is LHS -> ε.
//    A symbol is a nonterminal when it is some production's LHS, a terminal (edge label) otherwise.
//    Section lines ending in ':' — "Count:" is followed by the nonterminal(s) whose pairs are
//    reported; "Production:" starts productions; "Insert:" and "Follow:" are POCR solver hints and
//    are skipped with their lines. A symbol ending in "_i" is indexed: within one production every
//    indexed symbol carries the same index (V -> FV_i f_i: the field of FV_i matches f's).
//
// Normalisation: RHS longer than 2 is split with fresh nonterminals ("L.1", ...); ε rules put
// (v, v) for every node v into their LHS; unary rules copy (X \ N appended to N). Indexed
// nonterminals must be defined by "N_i -> t_i X" (t_i an indexed terminal, X unindexed) and used by
// "Y -> N_i u_i" (u_i an indexed terminal, Y unindexed) — the shape of aa.cfg and vf.cfg — and are
// fused into Y -> t_i X u_i, computed without a matrix per index: T' (t's distinct (source, index)
// "ports" x nodes) · ΔX, each entry's column moved to u's port (column, the row's index) by a
// binary search (the one kernel of its own, algorithms/detail/cfl_kernels.hpp), times U' (u-ports
// x nodes), rows lifted back to nodes by one more SpMM, masked by Y. Other indexed shapes are
// rejected with the grammar's file:line.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "storage/spmm.hpp"

namespace fg {

struct cfl_grammar {
  std::string path;
  std::vector<std::string> names;  ///< symbols; fresh ones from normalisation included
  std::vector<char> terminal, indexed;
  struct rule {
    int lhs = -1, a = -1, b = -1;  ///< a = b = -1: ε; b = -1: unary
    std::int64_t line = 0;         ///< the production's line in the grammar file
  };
  std::vector<rule> rules;         ///< normalised: at most two RHS symbols
  std::vector<int> count;          ///< the Count: nonterminals
  int find(const std::string& name) const;  ///< -1 when absent
};

/// @throws fg::input_error "file:line: what" (unknown Count: symbol, unsupported indexed shape, ...).
cfl_grammar read_cfl_grammar(const std::string& path);

/// Y -> t_i X u_i, from "Y -> N_i u_i" and "N_i -> t_i X" (the indexed shape read_cfl_grammar takes).
struct cfl_fused_rule {
  int y, t, x, u;
};
std::vector<cfl_fused_rule> fused_rules(const cfl_grammar& g);

struct cfl_graph {
  std::string path;
  vertex_t nodes = 0;
  /// Per grammar symbol (terminals only): its edges; idx empty for an unindexed label.
  std::vector<std::vector<vertex_t>> src, dst, idx;
  std::int64_t edges = 0, skipped = 0;  ///< edges kept, edges whose label the grammar does not use
};

/// @throws fg::input_error "file:line: what".
cfl_graph read_cfl_graph(const std::string& path, const cfl_grammar& g);

struct cfl_result {
  std::vector<offset_t> counts;  ///< pairs of each Count: nonterminal
  /// With cfl_options::want_pairs: the pairs of each Count: nonterminal, sorted.
  std::vector<std::vector<std::pair<vertex_t, vertex_t>>> count_pairs;
  std::vector<offset_t> pairs;   ///< pairs of every symbol (indexed ones: 0 in the matrix solver, fused)
  int iterations = 0;            ///< rounds, the last finding nothing new (worklist: edges popped)
  double seconds = 0;
  offset_t products = 0;
  std::size_t peak_bytes = 0;
};

struct cfl_options {
  spmm_options spmm;
  std::function<void(int, offset_t, offset_t)> progress;  ///< (round, new pairs, pairs so far)
  bool want_pairs = false;
};

/// @brief The value-flow grammar's shape (A -> A A | t_i A u_i | a | ε, Count: A) solved as an
///        inclusion system by the bit-row solver (algorithms/cfl_value_flow.cpp), in either build
///        (the CPU build runs its device steps on OpenMP); nullopt for any other grammar.
std::optional<cfl_result> solve_cfl_value_flow(const cfl_grammar& g, const cfl_graph& graph, const cfl_options& opt = {});

/// @brief All-pairs CFL-reachability by semi-naive masked SpMMs on the given twin (the CUDA build's
///        device twin takes solve_cfl_value_flow for that grammar's shape; the CPU build's device
///        twin is solve_cfl_sets below, which beats the OpenMP SpMMs by an order of magnitude).
cfl_result solve_cfl(const cfl_grammar& g, const cfl_graph& graph, exec where, const cfl_options& opt = {});
/// @brief The CPU solver: a worklist of per-node successor sets (sparse bitmaps) with difference
///        propagation, and transitive symbols (X -> X X) kept as the closure of their base edges
///        (algorithms/reference/cfl_sets.cpp). iterations: the worklist's pops.
cfl_result solve_cfl_sets(const cfl_grammar& g, const cfl_graph& graph, const cfl_options& opt = {});
/// @brief The oracle: the classic worklist algorithm over edge sets (sequential, no matrices).
cfl_result solve_cfl_worklist(const cfl_grammar& g, const cfl_graph& graph);

}  // namespace fg
