// What the loader fuzz targets share: the input written to a file in memory (/dev/shm) under a
// name with the extension the loader expects, and the one rule every loader must keep: malformed
// input ends in a fluxgraph::error (input_error, with the file and line), never a crash, a hang,
// an out-of-range read or another exception. libFuzzer reports anything else.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "fluxgraph/error.hpp"

namespace fg::fuzz {

/// The bytes as a file named ...`ext` (one per process: libFuzzer runs one input at a time).
inline std::string as_file(const std::uint8_t* data, std::size_t n, const char* ext) {
  const std::string path = "/dev/shm/fg_fuzz_" + std::to_string(::getpid()) + ext;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) __builtin_trap();
  if (n > 0 && std::fwrite(data, 1, n, f) != n) __builtin_trap();
  std::fclose(f);
  return path;
}

/// Runs `load`; a fluxgraph::error is the expected way to refuse an input.
template <class F>
int expect_clean(F load) {
  try {
    load();
  } catch (const fluxgraph::error&) {
  }
  return 0;
}

}  // namespace fg::fuzz
