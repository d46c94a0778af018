// One main for every test executable. Each test case's duration is printed as it ends, unbuffered:
// when a suite is killed by a timeout (run 36: fg_test_backend ran past 300 s on the GPU, 132 s
// the run before), the log then names the last case that finished.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <iostream>

int main(int argc, char** argv) {
  std::cout << std::unitbuf;
  doctest::Context context;
  context.setOption("duration", true);
  context.applyCommandLine(argc, argv);
  return context.run();
}
