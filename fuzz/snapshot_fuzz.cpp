// Store snapshots (loaders/snapshot.cpp): every byte checked before a graph is built. What is
// accepted must be consistent (the reader promises offsets and columns in range).
#include "fuzz/fuzz_support.hpp"
#include "loaders/snapshot.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  const std::string path = fg::fuzz::as_file(data, n, ".fgsnap");
  return fg::fuzz::expect_clean([&] {
    const fg::snapshot s = fg::read_snapshot(path);
    if (s.row_ptr.size() != std::size_t(s.vertices) + 1 || s.row_ptr.back() != std::int64_t(s.col.size())) __builtin_trap();
    for (const std::int32_t c : s.col)
      if (c < 0 || c >= s.vertices) __builtin_trap();
  });
}
