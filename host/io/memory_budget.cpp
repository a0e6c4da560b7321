#include "io/memory_budget.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

namespace cae {
namespace {

constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

// The first number of a one-line file ("max" and unreadable: no limit).
uint64_t file_number(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return kNoLimit;
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    return kNoLimit;
  }
}

uint64_t limit_left(const std::string& limit_path, const std::string& usage_path) {
  const uint64_t limit = file_number(limit_path);
  if (limit == kNoLimit) return kNoLimit;
  const uint64_t usage = file_number(usage_path);
  if (usage == kNoLimit) return limit;
  return usage >= limit ? 0 : limit - usage;
}

// A field of /proc/meminfo in bytes; kNoLimit when absent.
uint64_t meminfo_bytes(const std::string& field) {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    uint64_t kib = 0;
    if (fields >> key >> kib && key == field + ":") return saturating_product(kib, 1024);
  }
  return kNoLimit;
}

// cgroup v2, then v1 (whose "no limit" is a huge number, harmless here).
constexpr const char* kCgroupLimits[][2] = {
    {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
    {"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"}};

}  // namespace

uint64_t saturating_product(uint64_t a, uint64_t b) {
  if (a != 0 && b > kNoLimit / a) return kNoLimit;
  return a * b;
}

std::string gib_text(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(uint64_t{1} << 30));
  return text;
}

uint64_t physical_memory_bytes() {
  // Read once: every file read asks, and the machine does not change.
  static const uint64_t physical = [] {
    uint64_t total = meminfo_bytes("MemTotal");
    for (const auto& cgroup : kCgroupLimits) total = std::min(total, file_number(cgroup[0]));
    return total;
  }();
  return physical;
}

uint64_t available_memory_bytes() {
  uint64_t available = meminfo_bytes("MemAvailable");
  for (const auto& cgroup : kCgroupLimits) {
    available = std::min(available, limit_left(cgroup[0], cgroup[1]));
  }
  return available;
}

void require_host_memory(uint64_t bytes, const std::string& what) {
  const uint64_t physical = physical_memory_bytes();
  if (bytes <= physical) return;
  throw MemoryRefused(what + " needs " + gib_text(bytes) + ", more than this machine's memory (" +
                      gib_text(physical) + ")");
}

void require_device_memory(uint64_t bytes, uint64_t device_bytes, const std::string& device,
                           const std::string& what) {
  if (device_bytes == 0 || bytes <= device_bytes) return;
  throw MemoryRefused(what + " needs " + gib_text(bytes) + ", more than the memory of " + device +
                      " (" + gib_text(device_bytes) + ")");
}

}  // namespace cae
