// Andersen constraints from LLVM IR (.ll text or .bc bitcode), read through LLVM's own library when
// the build found it (FG_LLVM=auto; fg::llvm_ir_supported() tells). See algorithms/llvm_ir.cpp for
// the model: which values and objects become nodes, and the constraint each instruction adds.
#pragma once
#include <string>

#include "algorithms/pointsto.hpp"

namespace fg {

/// @brief Whether this build reads LLVM IR.
bool llvm_ir_supported() noexcept;

/// @brief Whether the file looks like LLVM IR: a .ll / .bc name, or bitcode's magic bytes.
bool looks_like_llvm_ir(const std::string& path);

/// @brief The points-to problem of a module, field-insensitive. Nodes are named the way the IR
///        names values, qualified by their function ("main:%p", "@g", "main:%3"); the abstract
///        objects are "<the value that creates it>(obj)" for globals, functions and allocas and
///        "(heap)" for allocation calls. Indirect calls are left to the solver (icalls/functions).
/// @throws fg::input_error naming the file (and LLVM's line and message) for IR LLVM cannot read;
///         fg::invalid_argument when the build has no LLVM.
pointsto_problem read_llvm_ir(const std::string& path);

}  // namespace fg
