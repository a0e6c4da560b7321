// `cae backends`: what discovery found, whether each backend can run here,
// and with -v every file considered and why it was rejected.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "backend_options.hpp"
#include "commands.hpp"
#include "plugin/compiled_graph.hpp"
#include "plugin/context.hpp"

namespace cae::cli {
namespace {

std::string gib(uint64_t bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / (1024.0 * 1024 * 1024)
      << " GiB";
  return out.str();
}

// "available: NVIDIA H200, 139.8 GiB, fp32, deterministic" — needs a context.
std::string availability(const BackendRecord& backend, int device) {
  if (!backend.available) return "unavailable: " + backend.unavailable_reason;
  // Checked here, since a backend may ignore a device index it does not have.
  const int32_t devices = device_count_of(backend);
  if (devices >= 0 && device >= devices) {
    return "unavailable: no device " + std::to_string(device) + " (it has " +
           std::to_string(devices) + ")";
  }
  try {
    Context context(backend.table(), device);
    DeviceInfo info = context.device_info();
    return "available: " + info.name + ", " + gib(info.memory_total_bytes) + ", " +
           precision_name(info.precision) + (info.deterministic ? ", deterministic" : "") + ", " +
           std::to_string(backend.device_count) +
           (backend.device_count == 1 ? " device" : " devices");
  } catch (const std::exception& e) {
    return std::string("unavailable: ") + e.what();
  }
}

int run_backends(const po::variables_map& vm) {
  Registry registry = discover_backends(vm);
  print_discovery_warnings(registry);
  bool verbose = vm.count("verbose") > 0;
  int device = vm["device"].as<int>();
  if (device < 0) throw UsageError("--device must be >= 0");

  if (registry.backends().empty()) std::cout << "no backends found\n";
  const BackendRecord* chosen = registry.default_backend();
  for (const auto& backend : registry.backends()) {
    const auto& table = backend.table();
    std::cout << std::left << std::setw(8) << backend.name << " " << std::setw(8)
              << (table.version ? table.version : "?") << " ABI " << table.abi_major << "."
              << table.abi_minor << "  " << availability(backend, device) << "\n"
              << "         " << backend.plugin.path << "\n"
              << "         " << (backend.certification.certified ? "certified: " : "not certified: ")
              << backend.certification.summary << (&backend == chosen ? "; the default" : "")
              << "\n";
    if (verbose && table.description) std::cout << "         " << table.description << "\n";
    if (verbose) {
      std::cout << "         "
                << (has_graph_members(table) ? "compiles graphs (ABI 1.5)" : "runs op by op (no graphs)")
                << "\n";
    }
  }
  if (!chosen && !registry.backends().empty()) {
    std::cout << "no default backend: none is both available and certified (name one with "
                 "--backend, or certify one with cae-conformance)\n";
  }
  if (verbose || registry.backends().empty()) {
    std::cout << "\nfolders searched, in order:\n";
    for (const auto& [dir, origin] : registry.searched_dirs()) {
      std::cout << "  " << dir << " (" << origin << ")\n";
    }
    std::cout << "\nfiles considered:\n";
    for (const auto& file : registry.considered()) {
      std::cout << "  " << (file.accepted ? "loaded   " : "rejected ") << file.path << " ("
                << file.origin << ")";
      if (!file.accepted) std::cout << "\n           " << file.rejection;
      std::cout << "\n";
    }
    if (registry.considered().empty()) std::cout << "  (none)\n";
    if (verbose && !registry.notices().empty()) {
      std::cout << "\nnotes:\n";
      for (const auto& notice : registry.notices()) std::cout << "  " << notice << "\n";
    }
  }
  return 0;
}

}  // namespace

Command backends_command() {
  return {"backends", "cae backends [-v] [--plugin-dir DIR]... [--backend PATH.so]",
          "List the backends found, whether they run here, their certification, the default",
          [](po::options_description& options, po::positional_options_description&) {
            options.add_options()("verbose,v", "also list every file considered and why it was rejected");
            add_backend_options(options);
          },
          run_backends,
          "A row per backend: name, version, ABI version, path, and \"available: device,\n"
          "memory, precision\" or \"unavailable: reason\"; its device count, its certification\n"
          "(\"certified: passed seeds ...\" or \"not certified: why\") and which one is the\n"
          "default: the available certified backend with the highest priority. -v also lists\n"
          "every folder searched and every file considered, with why it was rejected (not a\n"
          "plugin, missing entry symbol, ABI major mismatch, table too small).\n"};
}

}  // namespace cae::cli
