// --devices LIST|all (host/cli/device_list.cpp): lists and "all" against a
// backend's device count, one-line errors naming the item, and the syntax
// check made before the backend is known.
#include "device_list.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using cae::cli::check_device_list_syntax;
using cae::cli::parse_device_list;
using cae::cli::UsageError;

TEST_CASE("a list keeps its order; all is every device of the backend") {
  CHECK(parse_device_list("0,1,3", 4, "cpu") == std::vector<int>{0, 1, 3});
  CHECK(parse_device_list("2,0", 4, "cpu") == std::vector<int>{2, 0});
  CHECK(parse_device_list("all", 4, "cpu") == std::vector<int>{0, 1, 2, 3});
  CHECK(parse_device_list("all", 1, "cpu") == std::vector<int>{0});
}

TEST_CASE("bad lists are refused naming the item") {
  CHECK_THROWS_WITH_AS(parse_device_list("0,4", 4, "cpu"),
                       "--devices '0,4': device 4 does not exist: backend cpu has 4 devices (0..3)",
                       UsageError);
  CHECK_THROWS_WITH_AS(parse_device_list("1,1", 4, "cpu"), "--devices '1,1': device 1 is listed twice",
                       UsageError);
  CHECK_THROWS_WITH_AS(parse_device_list("0,x", 4, "cpu"),
                       "--devices '0,x': 'x' is not a device index (expected e.g. 0,1 or all)",
                       UsageError);
  CHECK_THROWS_AS(parse_device_list("0,", 4, "cpu"), UsageError);
  CHECK_THROWS_AS(parse_device_list("", 4, "cpu"), UsageError);
  CHECK_THROWS_WITH_AS(parse_device_list("all", 0, "stub"),
                       "--devices 'all': backend stub reports no device", UsageError);
}

TEST_CASE("the syntax check accepts all and lists, refuses malformed ones") {
  // Before the backend is loaded its device count is unknown: "all" is
  // accepted as it is, not expanded (against an unbounded count it would be
  // a list of 2^31 indices).
  CHECK_NOTHROW(check_device_list_syntax("all"));
  CHECK_NOTHROW(check_device_list_syntax("0,1,7"));
  CHECK_THROWS(check_device_list_syntax("0,0"));
  CHECK_THROWS(check_device_list_syntax("-1"));
  CHECK_THROWS(check_device_list_syntax(""));
}
