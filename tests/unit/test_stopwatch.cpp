// device_stopwatch: device time between two marks (events in the CUDA build, a host clock in the
// CPU build). With an idle device, a mark is reached when it is queued, so a host pause between the
// marks is what it measures in both builds.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "core/error.hpp"
#include "core/stopwatch.hpp"

using namespace fg;

TEST_CASE("device_stopwatch: the time between its marks, and an error before them") {
  device_stopwatch w;
  CHECK_THROWS_AS(w.seconds(), invalid_argument);
  w.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  w.stop();
  const double s = w.seconds();
  CHECK(s >= 0.019);
  CHECK(s < 1.0);
  w.start();  // reusable: a second stretch replaces the first
  w.stop();
  CHECK(w.seconds() < s);
}
