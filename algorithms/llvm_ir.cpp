// Andersen constraints from LLVM IR (algorithms/llvm_ir.hpp), field-insensitive, the way SVF and the
// Hardekopf-Lin front end model a module:
//   nodes    every value that carries a pointer (pointer-typed, aggregates holding pointers, and
//            integers computed from ptrtoint), each global and function's address, each function's
//            return; abstract objects: one per global, function, alloca and allocation call.
//   globals  @g = &@g(obj); a function @f = &@f(obj); a pointer in @g's initializer: @g(obj) ∋ it.
//   body     alloca: p = &p(obj); load: d = *p; store: *p = v; GEP, casts, phi, select,
//            extract/insertvalue and integer arithmetic on carried pointers: copies; ret: f:(ret) = v.
//   calls    direct: formals = actuals, result = f:(ret); memcpy/memmove (and the intrinsics):
//            t = *src, *dst = t; allocators: result = &(heap); common libc functions by their
//            effect (strcpy returns its first argument, strtol stores its first into *endptr, ...);
//            indirect: a call site the solver resolves from the function pointer's pts (icalls).
//   Unknown external functions add nothing (as SVF without its extapi models).
#include "algorithms/llvm_ir.hpp"

#include <fstream>

#include "core/error.hpp"

#if defined(FG_WITH_LLVM)
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/SourceMgr.h>

#include <algorithm>

#include "algorithms/llvm_ir_model.hpp"
#endif

namespace fg {

bool looks_like_llvm_ir(const std::string& path) {
  auto ends = [&](const char* s) {
    const std::string e(s);
    return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".ll") || ends(".bc")) return true;
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && magic[0] == 'B' && magic[1] == 'C' && magic[2] == char(0xC0) && magic[3] == char(0xDE);
}

#if defined(FG_WITH_LLVM)

bool llvm_ir_supported() noexcept { return true; }

pointsto_problem read_llvm_ir(const std::string& path) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseIRFile(path, err, ctx);
  if (!m) throw input_error(path, std::max(err.getLineNo(), 0), "LLVM cannot read it: " + err.getMessage().str());
  pointsto_problem out = detail::model_module(*m);
  out.path = path;
  return out;
}

#else

bool llvm_ir_supported() noexcept { return false; }

pointsto_problem read_llvm_ir(const std::string& path) {
  throw invalid_argument(path + ": this build of fluxgraph has no LLVM, so it cannot read LLVM IR (install llvm-14-dev and "
                         "configure with FG_LLVM=auto or ON), or pass a constraint file");
}

#endif

}  // namespace fg
