// The constraint model of algorithms/llvm_ir.cpp over a parsed module (LLVM builds only).
#pragma once
#include <llvm/IR/Module.h>

#include "algorithms/pointsto.hpp"

namespace fg::detail {

/// @brief The module's points-to problem: names, constraints, indirect call sites, function table.
pointsto_problem model_module(const llvm::Module& m);

}  // namespace fg::detail
