// io/memory_budget.hpp: sizes from files and models are checked against the
// machine before they are allocated, in arithmetic that cannot wrap.
#include "io/memory_budget.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

TEST_CASE("a size larger than the machine is refused, naming what asked for it") {
  const uint64_t physical = cae::physical_memory_bytes();
  REQUIRE(physical > 0);
  CHECK_NOTHROW(cae::require_host_memory(1 << 20, "a small read"));
  std::string message;
  try {
    cae::require_host_memory(UINT64_MAX, "reading D/test_y.bin");
  } catch (const cae::MemoryRefused& e) {
    message = e.what();
  }
  CHECK(message.rfind("reading D/test_y.bin needs ", 0) == 0);
  CHECK(message.find("more than this machine's memory (") != std::string::npos);
}

TEST_CASE("a device's memory is checked only when the backend reports it") {
  CHECK_NOTHROW(cae::require_device_memory(UINT64_MAX, 0, "a device", "a model"));
  CHECK_THROWS_AS(cae::require_device_memory(2 << 20, 1 << 20, "gpu 0", "a model"),
                  cae::MemoryRefused);
}

TEST_CASE("sizes multiply without wrapping") {
  CHECK(cae::saturating_product(3, 4) == 12);
  CHECK(cae::saturating_product(0, UINT64_MAX) == 0);
  CHECK(cae::saturating_product(uint64_t(1) << 40, uint64_t(1) << 40) == UINT64_MAX);
}
