// SNAP / whitespace edge lists (loaders/edge_list.cpp): comments, weights, id mapping.
#include "fuzz/fuzz_support.hpp"
#include "loaders/graph_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  const std::string path = fg::fuzz::as_file(data, n, ".txt");
  return fg::fuzz::expect_clean([&] {
    const fg::edge_file f = fg::read_edge_list(path);
    if (std::int64_t(f.original_id.size()) != f.num_vertices) __builtin_trap();
    for (std::size_t i = 0; i < f.src.size(); ++i)
      if (f.src[i] < 0 || f.src[i] >= f.num_vertices || f.dst[i] < 0 || f.dst[i] >= f.num_vertices) __builtin_trap();
  });
}
