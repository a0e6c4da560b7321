#include "device_list.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

namespace cae::cli {

std::vector<int> parse_device_list(const std::string& text, int device_count,
                                   const std::string& backend) {
  const std::string where = "--devices '" + text + "': ";
  const std::string range =
      "backend " + backend + " has " + std::to_string(device_count) +
      (device_count == 1 ? " device (0)"
                         : " devices (0.." + std::to_string(device_count - 1) + ")");
  std::vector<int> devices;
  if (text == "all") {
    for (int i = 0; i < device_count; ++i) devices.push_back(i);
    if (devices.empty()) throw UsageError(where + "backend " + backend + " reports no device");
    return devices;
  }
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty() || item.size() > 6 ||
        !std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); })) {
      throw UsageError(where + "'" + item + "' is not a device index (expected e.g. 0,1 or all)");
    }
    const int index = std::stoi(item);
    if (index >= device_count)
      throw UsageError(where + "device " + item + " does not exist: " + range);
    if (std::find(devices.begin(), devices.end(), index) != devices.end()) {
      throw UsageError(where + "device " + item + " is listed twice");
    }
    devices.push_back(index);
  }
  if (devices.empty() || text.back() == ',') {
    throw UsageError(where + "expected a comma-separated list of device indices, or all");
  }
  return devices;
}

void check_device_list_syntax(const std::string& text) {
  // "all" means every device the backend has, unknown until it is loaded:
  // expanding it against an unbounded count would build a list of 2^31.
  if (text == "all") return;
  try {
    parse_device_list(text, std::numeric_limits<int>::max(), "");
  } catch (const UsageError& e) {
    throw po::error(e.what());
  }
}

std::vector<int> requested_devices(const po::variables_map& vm, int device_count,
                                   const std::string& backend) {
  if (!vm.count("devices")) return {vm["device"].as<int>()};
  if (!vm["device"].defaulted()) throw UsageError("give --device or --devices, not both");
  return parse_device_list(vm["devices"].as<std::string>(), device_count, backend);
}

void require_batch_divisible(int batch, size_t devices) {
  if (devices > 1 && batch % int(devices) != 0) {
    throw UsageError("--batch " + std::to_string(batch) + " cannot be split into " +
                     std::to_string(devices) +
                     " equal shards (one per device of --devices): use a multiple of " +
                     std::to_string(devices));
  }
}

}  // namespace cae::cli
