// A path for a test's file under the system's temp folder, in a folder of this process's own (so
// that suites running at once, ctest -j, never share one). Standard headers only: the suites that
// include just the public header use it too.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>

namespace fg::test {

inline std::string temp_path(const std::string& name) {
  const std::filesystem::path d = std::filesystem::temp_directory_path() / ("fg_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return (d / name).string();
}

}  // namespace fg::test
