#include "linear_placement.hpp"

#include <algorithm>
#include <ostream>
#include <string>

namespace cae::cli {

std::vector<Context*> linear_devices(LinearPlace place, const std::vector<Context*>& contexts,
                                     int64_t rows, int64_t dim, std::ostream& log) {
  if (place == LinearPlace::Host) return {};
  if (place == LinearPlace::Backend) return contexts;
  auto on_host = [&](const std::string& why) {
    log << "linear: passes on the host (--linear-on auto: " << why << ")\n";
    return std::vector<Context*>{};
  };
  if (contexts.empty()) return on_host("no backend in use");
  const std::string name = contexts.front()->backend_name();
  for (const Context* context : contexts) {
    if (!context->has_host_memory()) return on_host(name + " keeps its tensors in host memory");
  }
  // Each device holds its share of the rows twice (as they are and
  // transposed), with an eighth more for the products and scratch.
  const uint64_t share = (uint64_t(std::max<int64_t>(rows, 0)) + contexts.size() - 1) /
                         contexts.size() * uint64_t(std::max<int64_t>(dim, 0)) * sizeof(float);
  const uint64_t needed = 2 * share + 2 * share / 8;
  for (const Context* context : contexts) {
    const uint64_t free_bytes = context->device_info().memory_free_bytes;
    if (needed > free_bytes) {
      return on_host("the features need " + std::to_string(needed >> 20) + " MiB of " + name +
                     "'s memory per device, " + std::to_string(free_bytes >> 20) + " MiB free");
    }
  }
  log << "linear: passes on the backend (" << name << ", --linear-on auto)\n";
  return contexts;
}

}  // namespace cae::cli
