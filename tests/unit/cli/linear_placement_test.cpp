// --linear-on (host/cli/linear_placement.cpp): host and backend choose
// without asking; auto takes the backend in use only where every device has
// memory of its own (page-locked host memory offered) and the rows and
// their transpose fit in its free memory, and says its choice in one line.
#include "linear_placement.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../build_tree_registry.hpp"

namespace cae::cli {
namespace {

const cae_backend_table& cpu_table() { return test::build_tree_registry().select("cpu").table(); }

cae_status malloc_host(cae_context, size_t bytes, void** out) {
  *out = std::malloc(bytes);
  return *out ? CAE_STATUS_OK : CAE_STATUS_OUT_OF_MEMORY;
}
void free_host(cae_context, void* ptr) { std::free(ptr); }

// The cpu backend offering page-locked host memory: what the host takes for
// a device with memory of its own.
const cae_backend_table& device_like_table() {
  static const cae_backend_table table = [] {
    cae_backend_table copy = cpu_table();
    copy.host_alloc = malloc_host;
    copy.host_free = free_host;
    return copy;
  }();
  return table;
}

TEST_CASE("host and backend choose without asking") {
  Context cpu(cpu_table(), 0, 1);
  const std::vector<Context*> contexts = {&cpu};
  std::ostringstream log;
  CHECK(linear_devices(LinearPlace::Host, contexts, 1000, 10, log).empty());
  CHECK(linear_devices(LinearPlace::Backend, contexts, 1000, 10, log) == contexts);
  CHECK(log.str().empty());
}

TEST_CASE("auto: the host for a backend whose tensors are in host memory, or none in use") {
  Context cpu(cpu_table(), 0, 1);
  std::ostringstream log;
  CHECK(linear_devices(LinearPlace::Auto, {&cpu}, 1000, 10, log).empty());
  CHECK(log.str() ==
        "linear: passes on the host (--linear-on auto: cpu keeps its tensors in host memory)\n");
  std::ostringstream none;
  CHECK(linear_devices(LinearPlace::Auto, {}, 1000, 10, none).empty());
  CHECK(none.str() == "linear: passes on the host (--linear-on auto: no backend in use)\n");
}

TEST_CASE("auto: a device with memory of its own when the rows fit, else the host") {
  Context first(device_like_table(), 0, 1), second(device_like_table(), 1, 1);
  REQUIRE(first.has_host_memory());
  const std::vector<Context*> contexts = {&first, &second};
  std::ostringstream log;
  CHECK(linear_devices(LinearPlace::Auto, contexts, 1000, 10, log) == contexts);
  CHECK(log.str() == "linear: passes on the backend (cpu, --linear-on auto)\n");
  // Far more than any device's free memory: the host, with the sizes.
  std::ostringstream big;
  CHECK(linear_devices(LinearPlace::Auto, contexts, int64_t(1) << 40, 1000, big).empty());
  CHECK(big.str().find("linear: passes on the host (--linear-on auto: the features need ") == 0);
  CHECK(big.str().find("MiB free)") != std::string::npos);
}

}  // namespace
}  // namespace cae::cli
