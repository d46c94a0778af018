// Matrix Market files (loaders/matrix_market.cpp): header, size line, entries, symmetry.
#include "fuzz/fuzz_support.hpp"
#include "loaders/graph_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  const std::string path = fg::fuzz::as_file(data, n, ".mtx");
  return fg::fuzz::expect_clean([&] {
    const fg::edge_file f = fg::read_matrix_market(path);
    for (std::size_t i = 0; i < f.src.size(); ++i)  // what the loader hands on is in range
      if (f.src[i] < 0 || f.src[i] >= f.num_vertices || f.dst[i] < 0 || f.dst[i] >= f.num_vertices) __builtin_trap();
  });
}
