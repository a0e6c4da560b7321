#include <doctest/doctest.h>

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
