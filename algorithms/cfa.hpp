// 0-CFA of a small CPS λ-calculus as sparse boolean matrix operations (EigenCFA-style; King et al.
// 2016, §I), iterated to a fixed point.
//
// Language (s-expressions, ';' comments to the end of the line): a term is a variable, a lambda
// "(lambda (x1 ... xn) body)" or a call "(f a1 ... an)" whose function and arguments are variables
// or lambdas (CPS: no nested calls). A file holds one or more top-level terms. Variables are scoped
// lexically; every binder is its own variable (shadowing allowed), an unbound reference is an error.
//
// Analysis: the store σ (node x lambda) holds the flow sets; nodes are the variables and one node
// per lambda term (σ(λ-node, λ) = 1). A call (f a1 ... an) says: for every λ ∈ σ(f), σ(param_i(λ))
// ⊇ σ(a_i). That is the inclusion-constraint system of algorithms/pointsto.hpp with one store
// family per argument position i — "*f.param_i = a_i" — whose field map sends λ to its i-th
// parameter: each round, new bindings ΔE = F_i·(Δσᵀ·S_i) (S_i(f, a_i) per call) and new flow
// Δσ' = (E·Δσ ∪ ΔE·σ) \ σ in the matrix formulation; solved by solve_inclusion (the matrix loop as the
// reference twin, the bit-row solver on the GPU, the wave solver in the CPU build). Arity
// mismatches bind the common prefix of parameters and arguments.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/pointsto.hpp"

namespace fg {

struct cfa_program {
  std::string path;
  struct variable {
    std::string name;
    std::int64_t line = 0;
  };
  struct lambda {
    std::vector<int> params;  ///< variable ids
    std::int64_t line = 0, column = 0;
  };
  struct atom {
    bool is_lambda = false;
    int id = -1;  ///< variable or lambda id
  };
  struct call {
    atom fn;
    std::vector<atom> args;
    std::int64_t line = 0;
  };
  std::vector<variable> vars;
  std::vector<lambda> lambdas;
  std::vector<call> calls;
  /// "(x k)@3:5": the lambda's parameters and position, for output.
  std::string lambda_name(int l) const;
};

/// @throws fg::input_error "file:line: what" (unbalanced parentheses, a malformed lambda, a nested
///         call, an unbound variable, ...).
cfa_program read_cfa_program(const std::string& path);

/// Flow sets of the variables: row v lists the lambdas that may flow to variable v, sorted.
struct cfa_result {
  std::vector<offset_t> row_ptr;
  std::vector<vertex_t> col;
  offset_t facts = 0;  ///< Σ |flow(v)| over the variables
  int iterations = 0;  ///< rounds (interpreter: passes over the calls)
  double seconds = 0;
};

/// @brief 0-CFA by the inclusion solver on the given twin (solve_inclusion).
cfa_result analyse_cfa(const cfa_program& p, exec where);
/// @brief The oracle: a direct abstract interpreter (passes over the calls until nothing changes).
cfa_result analyse_cfa_interpreter(const cfa_program& p);

}  // namespace fg
