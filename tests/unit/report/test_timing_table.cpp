#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "report/stopwatch.hpp"
#include "report/timing_table.hpp"

TEST_CASE("timing table aligns stages, seconds and shares") {
  std::string table = cae::format_timing_table({{"load", 1.0}, {"train", 3.0}});
  CHECK(table ==
        "stage  seconds   share\n"
        "----------------------\n"
        "load     1.000   25.0%\n"
        "train    3.000   75.0%\n"
        "----------------------\n"
        "total    4.000  100.0%\n");
}

TEST_CASE("timing table without time to share") {
  CHECK(cae::format_timing_table({}).find("total") != std::string::npos);
  std::string table = cae::format_timing_table({{"idle", 0.0}});
  CHECK(table.find("idle     0.000      -\n") != std::string::npos);
  CHECK(table.find("total    0.000      -\n") != std::string::npos);
}

TEST_CASE("the other row brings the table up to the program's wall time") {
  const auto sum = [](const cae::StageTimings& timings) {
    double total = 0.0;
    for (const auto& stage : timings) total += stage.second;
    return total;
  };
  // A stage that claims no time leaves all of it to "other".
  cae::StageTimings timings{{"start-up", 0.0}};
  const double before = cae::seconds_since_program_start();
  cae::account_the_rest(timings);
  const double after = cae::seconds_since_program_start();
  REQUIRE(timings.size() == 2);
  CHECK(timings.back().first == "other");
  CHECK(sum(timings) >= before);
  CHECK(sum(timings) <= after);
  // Called again, the same row is brought up to date rather than repeated.
  cae::account_the_rest(timings);
  CHECK(timings.size() == 2);
  CHECK(sum(timings) <= cae::seconds_since_program_start());
  // Stages that claim more than the wall time leave "other" at zero, never negative.
  cae::StageTimings over{{"train", after + 1000.0}};
  cae::account_the_rest(over);
  REQUIRE(over.size() == 2);
  CHECK(over.back().second == 0.0);
}

TEST_CASE("the program's clock starts when the process began, before the loader's work") {
  // The kernel's age of this process grows with the wall clock (a wrong
  // field of /proc/self/stat would not), and the program's clock is within
  // a tick of it: one started later than the process by more than a tick
  // (main, the first test) fails. The loader's work in a test binary is
  // shorter than a tick, so a clock started at static initialisation passes
  // here too; the pipeline's start-up row against its wall time measured
  // from outside shows the difference (docs/PERF.md).
  const double tick = 1.0 / double(sysconf(_SC_CLK_TCK));
  const double age_before = cae::process_age_seconds();
  const auto slept = std::chrono::milliseconds(100);
  std::this_thread::sleep_for(slept);
  const double age_after = cae::process_age_seconds();
  REQUIRE(age_before > 0.0);
  // A loaded machine (CI under the sanitizers) may oversleep, never undersleep.
  CHECK(age_after - age_before >= 0.1 - 0.001);
  CHECK(age_after - age_before < 0.1 + 0.5);
  const double since_start = cae::seconds_since_program_start();
  CHECK(since_start > age_after - tick);
  CHECK(since_start < age_after + tick + 0.5);
}
