// One main for every test executable. Each test case's duration is printed as it ends, unbuffered:
// when a suite is killed by a timeout (fg_test_backend once ran past 300 s on the GPU, 132 s
// the run before), the log then names the last case that finished. Each case's start is printed too
// (once fg_test_backend_2 and the Python suite hung together under `ctest -j 4` and passed
// alone; the log named only the case before).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <iostream>

namespace {
struct start_listener : doctest::IReporter {
  explicit start_listener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& tc) override {
    std::cout << "[start] " << tc.m_name << '\n';
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
}  // namespace
REGISTER_LISTENER("start", 1, start_listener);

int main(int argc, char** argv) {
  std::cout << std::unitbuf;
  doctest::Context context;
  context.setOption("duration", true);
  context.applyCommandLine(argc, argv);
  return context.run();
}
