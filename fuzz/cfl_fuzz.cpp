// CFL-reachability inputs (algorithms/cfl_file.cpp): a grammar, then a labelled graph read under it.
// The input is GRAMMAR '\0' GRAPH; without a '\0', the graph of a fixed grammar.
#include <algorithm>

#include "algorithms/cfl.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  static const char fixed[] = "Count: M\nM -> d\nM -> dbar V d\nV -> M a\nV -> abar M\nV -> a\n";
  const std::uint8_t* cut = std::find(data, data + n, std::uint8_t(0));
  std::string grammar(fixed), graph(reinterpret_cast<const char*>(data), n);
  if (cut != data + n) {
    grammar.assign(reinterpret_cast<const char*>(data), std::size_t(cut - data));
    graph.assign(reinterpret_cast<const char*>(cut + 1), std::size_t(data + n - cut - 1));
  }
  const std::string gpath = fg::fuzz::as_file(reinterpret_cast<const std::uint8_t*>(grammar.data()), grammar.size(), ".cfg");
  return fg::fuzz::expect_clean([&] {
    const fg::cfl_grammar g = fg::read_cfl_grammar(gpath);
    const std::string path = fg::fuzz::as_file(reinterpret_cast<const std::uint8_t*>(graph.data()), graph.size(), ".dot");
    (void)fg::read_cfl_graph(path, g);
  });
}
