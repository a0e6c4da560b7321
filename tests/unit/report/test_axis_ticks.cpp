#include <doctest/doctest.h>

#include <cmath>
#include <utility>

#include "report/axis_ticks.hpp"

TEST_CASE("linear ticks are round numbers that cover the data") {
  cae::AxisTicks ticks = cae::linear_ticks(0.0109, 0.051);
  CHECK(ticks.low <= 0.0109);
  CHECK(ticks.high >= 0.051);
  CHECK(ticks.labels.front() == "0.01");
  CHECK(ticks.labels.back() == "0.06");
  CHECK(ticks.values.size() == ticks.labels.size());
  CHECK(ticks.values.size() >= 4);
  CHECK(ticks.values.size() <= 10);

  cae::AxisTicks wide = cae::linear_ticks(0, 95);
  CHECK(wide.labels == std::vector<std::string>{"0", "20", "40", "60", "80", "100"});

  cae::AxisTicks flat = cae::linear_ticks(2.0, 2.0);
  CHECK(flat.low < 2.0);
  CHECK(flat.high > 2.0);
}

TEST_CASE("log ticks use decades, or finer steps over a short range") {
  cae::AxisTicks decades = cae::log_ticks(0.001, 5.0);
  CHECK(decades.labels == std::vector<std::string>{"0.001", "0.01", "0.1", "1"});
  cae::AxisTicks short_range = cae::log_ticks(0.0109, 0.051);
  CHECK(short_range.labels.front() == "0.01");
  CHECK(short_range.labels.back() == "0.06");
  CHECK(short_range.low <= 0.0109);
  CHECK(short_range.high >= 0.051);
}

TEST_CASE("integer ticks for epochs") {
  CHECK(cae::integer_ticks(1, 5).labels == std::vector<std::string>{"1", "2", "3", "4", "5"});
  CHECK(cae::integer_ticks(1, 20).labels == std::vector<std::string>{"5", "10", "15", "20"});
  cae::AxisTicks one = cae::integer_ticks(1, 1);
  CHECK(one.labels == std::vector<std::string>{"1"});
  CHECK(one.low < 1.0);
  CHECK(one.high > 1.0);
}

TEST_CASE("tick labels") {
  CHECK(cae::format_tick(0.0, 0.1) == "0");
  CHECK(cae::format_tick(0.25, 0.05) == "0.25");
  CHECK(cae::format_tick(1500, 500) == "1500");
  CHECK(cae::format_tick(0.0002, 0.0001) == "2e-04");
  CHECK(cae::format_tick(0.00025, 0.00005) == "2.5e-04");
}

TEST_CASE("ticks of data at the ends of double stay finite") {
  // A loss table may hold any finite value: 1e308 once overflowed the
  // axis margins to infinity (undefined behaviour in the tick exponents).
  for (const auto& [low, high] : {std::pair{200.0, 1e308}, std::pair{4.9e-324, 1.0},
                                  std::pair{1e-320, 1e308}}) {
    const cae::AxisTicks log = cae::log_ticks(low, high);
    CHECK(std::isfinite(log.low));
    CHECK(std::isfinite(log.high));
    CHECK(log.low > 0.0);
    CHECK_FALSE(log.values.empty());
  }
  const cae::AxisTicks linear = cae::linear_ticks(-1.7e308, 1.7e308);
  CHECK(std::isfinite(linear.low));
  CHECK(std::isfinite(linear.high));
  CHECK_FALSE(linear.values.empty());
}
