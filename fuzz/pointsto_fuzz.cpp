// Points-to constraint files (algorithms/pointsto_file.cpp): the numeric and the text format. Inputs
// that start with bitcode's magic go to LLVM's bitcode reader (algorithms/llvm_ir.cpp), LLVM's code
// and not ours to fuzz: they are left out.
#include <cstring>

#include "algorithms/pointsto.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  if (n >= 4 && std::memcmp(data, "BC\xC0\xDE", 4) == 0) return 0;
  const std::string path = fg::fuzz::as_file(data, n, ".pts");
  return fg::fuzz::expect_clean([&] { (void)fg::read_pointsto(path); });
}
