// device_info: what the CPU is called, how much memory the machine has, and
// the numeric promises of this backend.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"

namespace cae_cpu {
namespace {

std::string trim(const std::string& s) {
  const char* space = " \t\r\n";
  size_t begin = s.find_first_not_of(space);
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(space) - begin + 1);
}

// The "model name" line of /proc/cpuinfo (Linux x86 and most others).
std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    size_t colon = line.find(':');
    if (colon != std::string::npos && trim(line.substr(0, colon)) == "model name") {
      std::string name = trim(line.substr(colon + 1));
      if (!name.empty()) return name;
    }
  }
  return "CPU";
}

// A "<Key>: <n> kB" line of /proc/meminfo in bytes, or 0 when absent.
uint64_t meminfo_bytes(const std::string& key) {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    if (line.compare(0, key.size() + 1, key + ":") != 0) continue;
    std::istringstream fields(line.substr(key.size() + 1));
    uint64_t kib = 0;
    fields >> kib;
    return kib * 1024;
  }
  return 0;
}

uint64_t sysconf_bytes(int pages_name) {
  long pages = sysconf(pages_name);
  long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * page_size : 0;
}

}  // namespace

cae_status device_info(cae_context ctx, cae_device_info* out) {
  return cae_plugin::guard(ctx, [&] {
    cae_context_s& c = context_arg(ctx, "device_info");
    cae_plugin::require(out != nullptr, "device_info: output struct pointer is NULL");
    cae_device_info info{};
    info.struct_size = sizeof info;
    info.precision = CAE_PRECISION_FP32;
    info.deterministic = 1;  // fixed-order reductions throughout (see cpu_parallel.hpp)
    info.compute_units = c.threads;
    info.memory_total_bytes = meminfo_bytes("MemTotal");
    if (info.memory_total_bytes == 0) info.memory_total_bytes = sysconf_bytes(_SC_PHYS_PAGES);
    // MemAvailable counts reclaimable page cache too: what a new allocation can get.
    info.memory_free_bytes = meminfo_bytes("MemAvailable");
    if (info.memory_free_bytes == 0) info.memory_free_bytes = sysconf_bytes(_SC_AVPHYS_PAGES);
    cae_plugin::copy_string(info.device_name, cpu_model_name());
    cae_plugin::write_out_struct(out, info);
  });
}

}  // namespace cae_cpu
