// Shared check of the analysis tests: a loader throws fg::input_error "PATH:LINE: what" (LINE >= 1).
#pragma once
#include <doctest/doctest.h>

#include <string>

#include "core/error.hpp"

namespace fg::test {

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
