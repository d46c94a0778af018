// Program analyses as fixed points over the engine's sparse sets and matrices: Andersen's points-to,
// CFL-reachability under a context-free grammar, and 0-CFA of a CPS lambda-calculus program. Each
// runs where `where` says (device::automatic: the GPU in the CUDA build, OpenMP threads in the CPU
// build; device::cpu: the CUDA build's sequential host twin) and returns host arrays.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fluxgraph/graph.hpp"

namespace fluxgraph {

/// Counters of an analysis run.
struct analysis_info {
  std::int64_t facts = 0;     ///< pairs in the result (points-to facts, CFL pairs, flow facts)
  int iterations = 0;         ///< semi-naive rounds, the last of which found nothing new
  double seconds = 0;
  std::size_t peak_bytes = 0; ///< device memory at the peak (0 where not measured)
  std::int64_t copy_edges = 0; ///< points-to: copy edges at the fixed point (given and derived)
};

/// Hears an analysis after every round: (round, new facts, facts so far).
using analysis_progress = std::function<void(int, std::int64_t, std::int64_t)>;

// --- Andersen's points-to ------------------------------------------------------------------------
/// @brief Constraints over variables 0 .. variables - 1 (an object is a variable whose address is
///        taken), as parallel id vectors: dst = &src, dst = src, dst = *src and *dst = src.
struct pointsto_constraints {
  vertex_id variables = 0;  ///< 0: the largest id + 1
  std::vector<std::int32_t> address_dst, address_src;
  std::vector<std::int32_t> copy_dst, copy_src;
  std::vector<std::int32_t> load_dst, load_src;
  std::vector<std::int32_t> store_dst, store_src;
  /// optional: names[v] (read_pointsto fills it for the text format and LLVM IR; numeric files name v "v")
  std::vector<std::string> names;
  /// Calls through a pointer (LLVM IR), resolved while solving: for each function object f that
  /// call_callee[j] may point to, f's formals ⊇ the site's actuals and call_result[j] ⊇ f's return.
  /// Site j's actuals are call_args[call_arg_begin[j], call_arg_begin[j + 1]); -1 marks a value that
  /// carries no pointer (in call_result, call_args, function_return, function_formals).
  std::vector<std::int32_t> call_callee, call_result, call_args;
  std::vector<std::int64_t> call_arg_begin;
  /// The functions such calls reach: function_object[k], its return node and formals
  /// function_formals[function_formal_begin[k], function_formal_begin[k + 1]).
  std::vector<std::int32_t> function_object, function_return, function_formals;
  std::vector<std::int64_t> function_formal_begin;
};

/// @brief The least solution: row v of the CSR lists the objects v may point to, sorted.
/// @throws fluxgraph::invalid_argument (a negative or too large id, vectors of unequal length)
csr pointsto(const pointsto_constraints& c, device where = device::automatic, analysis_info* info = nullptr,
             const analysis_progress& progress = {});
/// @brief The oracle: a sequential worklist solver over hash-consed sparse bitmaps (no matrices); the same CSR.
csr pointsto_reference(const pointsto_constraints& c, analysis_info* info = nullptr);
/// @brief A constraint file (the Galois numeric format or 'p = &a' / 'p = q' / 'p = *q' / '*p = q'
///        lines) or LLVM IR (.ll / .bc, in a build with LLVM): the module's Andersen constraints,
///        field-insensitive, with its indirect calls; names as the IR's ("main:%p", "@g").
/// @throws fluxgraph::input_error naming the file and line (IR that LLVM cannot read included);
///         fluxgraph::invalid_argument for IR in a build without LLVM
pointsto_constraints read_pointsto(const std::string& path);
/// @brief Writes c as 'p = &a' / 'p = q' / 'p = *q' / '*p = q' lines that any solver reads, names
///        made identifiers; indirect calls become the copies `solution` (c's least solution, from
///        pointsto()) resolves them to, so the file has the same least solution. Without a
///        solution they stay calls: 'func f [p1, -] -> r' and 'r = call fp [a1, -]' lines, which
///        read_pointsto reads back ('-': an argument or parameter that carries no pointer).
/// @throws fluxgraph::input_error (I/O)
void write_pointsto(const pointsto_constraints& c, const std::string& path, const csr* solution = nullptr);
/// @brief Writes a solution as "name: obj obj ..." lines (sizes: "name: count"), one per variable
///        with a non-empty set, in variable order, to an open file; names empty: the ids.
/// @return false when a write failed
bool write_pointsto_sets(std::FILE* out, const std::vector<std::string>& names, const csr& sets, bool sizes = false);

// --- CFL-reachability ----------------------------------------------------------------------------
/// A context-free grammar in POCR's .cfg format, normalised (at most two symbols a rule).
class cfl_grammar {
 public:
  /// @throws fluxgraph::input_error naming the file and line
  static cfl_grammar read(const std::string& path);
  /// The terminals: the labels an edge may carry.
  std::vector<std::string> terminals() const;
  /// The Count: nonterminals, whose pairs cfl_reach reports.
  std::vector<std::string> counted() const;
  /// Every symbol (fresh ones from the normalisation included), and the normalised rules' number.
  std::vector<std::string> symbols() const;
  std::int64_t rules() const;
  std::string path() const;
  struct impl;
  std::shared_ptr<const impl> p;
};

/// Labelled edges src[i] -label[i]-> dst[i]. index: empty, or one per edge (an indexed label's
/// index, e.g. a call site; ignored for unindexed labels). Labels the grammar does not use are
/// skipped (cfl_result::skipped).
struct labelled_edges {
  std::vector<std::int32_t> src, dst;
  std::vector<std::string> label;
  std::vector<std::int32_t> index;
};

struct cfl_result {
  std::vector<std::string> symbols;  ///< the Count: nonterminals
  std::vector<std::int64_t> counts;  ///< pairs of each
  std::vector<coo> pairs;            ///< with want_pairs: each symbol's pairs, sorted
  std::vector<std::int64_t> symbol_pairs;  ///< pairs of every grammar symbol (cfl_grammar::symbols)
  vertex_id nodes = 0;               ///< the graph's: largest id + 1
  std::int64_t edges = 0;            ///< edges with a label the grammar uses
  std::int64_t skipped = 0;          ///< edges whose label the grammar does not use
  analysis_info info;
};

/// @brief All-pairs CFL-reachability: the pairs (u, v) joined by a path whose labels the grammar's
///        Count: symbols derive.
/// @throws fluxgraph::invalid_argument (a negative id, an indexed label without its index, vectors
///         of unequal length)
cfl_result cfl_reach(const cfl_grammar& g, const labelled_edges& e, device where = device::automatic,
                     bool want_pairs = false, const analysis_progress& progress = {});
/// @brief The same on a graph file of 'src dst label [index]' lines (POCR's .peg / .vfg).
/// @throws fluxgraph::input_error naming the file and line
cfl_result cfl_reach(const cfl_grammar& g, const std::string& graph_path, device where = device::automatic,
                     bool want_pairs = false, const analysis_progress& progress = {});
/// @brief The oracle: the classic worklist algorithm over edge sets (sequential, no matrices).
cfl_result cfl_reach_reference(const cfl_grammar& g, const std::string& graph_path);

// --- 0-CFA ---------------------------------------------------------------------------------------
struct cfa_result {
  std::int64_t calls = 0;              ///< call sites in the program
  std::vector<std::string> variables;  ///< "name@line"
  std::vector<std::string> lambdas;    ///< "(x k)@line:column"
  csr flows;                           ///< row v: the lambdas that may flow to variable v, sorted
  analysis_info info;
};
/// @brief 0-CFA of a CPS lambda-calculus program (s-expressions).
/// @throws fluxgraph::input_error naming the file and line
cfa_result cfa(const std::string& program_path, device where = device::automatic);
/// @brief The oracle: a direct abstract interpreter (passes over the calls until nothing changes).
cfa_result cfa_reference(const std::string& program_path);

}  // namespace fluxgraph
