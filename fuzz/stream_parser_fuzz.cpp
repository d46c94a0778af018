// The live input parsers (loaders/edge_parser.cpp), fed as a pipe delivers: the first byte picks
// the format, the second the chunk size and the batch limit. The edges and errors must not depend
// on where the chunks are cut: the input parsed in one chunk gives the same.
#include <algorithm>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "loaders/edge_parser.hpp"

namespace {
struct outcome {
  std::vector<std::int64_t> edges;  // kind, u, v per edge; -1 and the position per error
  bool operator==(const outcome& o) const { return edges == o.edges; }
};

outcome parse(fg::input_format f, const char* p, std::size_t n, std::size_t chunk, std::size_t limit) {
  outcome out;
  const auto parser = fg::edge_parser::make(f);
  fg::raw_edges batch;
  const auto drain = [&] {
    for (;;) {
      const fg::parse_stop s = parser->parse(batch, batch.size() + limit);
      // In line order: delete j came after the first del_after[j] inserts.
      std::size_t i = 0;
      for (std::size_t j = 0; j <= batch.del_src.size(); ++j) {
        const std::size_t upto = j < batch.del_src.size() ? batch.del_after[j] : batch.ins_src.size();
        for (; i < upto; ++i) out.edges.insert(out.edges.end(), {1, batch.ins_src[i], batch.ins_dst[i]});
        if (j < batch.del_src.size()) out.edges.insert(out.edges.end(), {2, batch.del_src[j], batch.del_dst[j]});
      }
      batch.clear();
      if (s == fg::parse_stop::need_input) return;
      if (s == fg::parse_stop::bad_input) out.edges.insert(out.edges.end(), {-1, parser->error().line, parser->error().byte});
    }
  };
  for (std::size_t at = 0; at < n; at += chunk) {
    parser->feed(p + at, std::min(chunk, n - at));
    drain();
  }
  if (!parser->finish()) out.edges.insert(out.edges.end(), {-2, parser->error().line, parser->error().byte});
  else drain();
  return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  if (n < 2) return 0;
  const fg::input_format f = data[0] % 3 == 0 ? fg::input_format::text : data[0] % 3 == 1 ? fg::input_format::bin32 : fg::input_format::bin64;
  const std::size_t chunk = 1 + data[1] % 64, limit = 1 + data[1] / 64;
  const char* p = reinterpret_cast<const char*>(data + 2);
  const outcome cut = parse(f, p, n - 2, chunk, limit), whole = parse(f, p, n - 2, n, 1 << 20);
  if (!(cut == whole)) __builtin_trap();
  return 0;
}
