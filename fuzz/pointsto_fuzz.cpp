// Points-to constraint files (loaders/pointsto_file.cpp): the numeric and the text format.
#include "algorithms/pointsto.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  const std::string path = fg::fuzz::as_file(data, n, ".pts");
  return fg::fuzz::expect_clean([&] { (void)fg::read_pointsto(path); });
}
