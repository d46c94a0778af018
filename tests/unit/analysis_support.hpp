// Shared by the analysis tests (points-to, CFL, 0-CFA): test data paths, named result sets, and the
// check that a loader throws fg::input_error "PATH:LINE: what" (LINE >= 1).
#pragma once
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "core/error.hpp"

namespace fg::test {

inline std::string data(const std::string& name) { return std::string(FG_TEST_DATA_DIR) + "/" + name; }

/// Named sets: variable -> the names in its set.
using name_sets = std::map<std::string, std::set<std::string>>;

template <class F>
void check_input_error(const std::string& path, F&& load) {
  CAPTURE(path);
  try {
    load();
    FAIL("no error");
  } catch (const input_error& err) {
    CHECK(err.line() >= 1);
    CHECK(std::string(err.what()).rfind(path + ":" + std::to_string(err.line()) + ": ", 0) == 0);
    MESSAGE(std::string(err.what()));
  }
}

}  // namespace fg::test
