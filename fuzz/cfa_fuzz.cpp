// CPS lambda-calculus programs for 0-CFA (algorithms/cfa_program.cpp): s-expressions, binding.
#include "algorithms/cfa.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  const std::string path = fg::fuzz::as_file(data, n, ".scm");
  return fg::fuzz::expect_clean([&] { (void)fg::read_cfa_program(path); });
}
