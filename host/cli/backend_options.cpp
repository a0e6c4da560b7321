#include "backend_options.hpp"

#include <filesystem>
#include <iostream>

#include "device_list.hpp"
#include "ignored_options.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"

namespace cae::cli {

namespace {

// More threads than this only slow a CPU backend down, and far more (100,000)
// overflow the OpenMP runtime's stacks.
constexpr int kMaxThreads = 1024;

}  // namespace

int32_t device_count_of(const BackendRecord& backend) {
  cae_probe_result result{};
  result.struct_size = sizeof result;
  if (backend.table().probe(&result) != CAE_STATUS_OK) return -1;
  return result.device_count;
}

void add_backend_options(po::options_description& options) {
  options.add_options()
      ("backend,b", path_value("--backend")->value_name("NAME|PATH"),
       "backend to use: a name (case-insensitive) or a path to a backend .so; default: the "
       "available certified backend of highest priority (`cae backends` marks it): unless one "
       "was certified by hand, the fastest of cae's own that passes cae-conformance here, "
       "certified on first use (--certify-on-first-use)")
      ("plugin-dir", path_values("--plugin-dir")->value_name("DIR")->composing(),
       "also search DIR for backends (repeatable; searched before CAE_PLUGIN_PATH)")
      ("device", po::value<int>()->default_value(0)->value_name("I"), "device index (GPU backends)")
      ("devices", po::value<std::string>()->value_name("LIST|all")->notifier(check_device_list_syntax),
       "several devices, e.g. 0,1 or all: data-parallel training, extraction split by rows")
      ("threads", po::value<int>()->default_value(0)->value_name("N"),
       "host threads for CPU backends (0 = all cores, at most 1024)")
      ("backend-option", po::value<std::vector<std::string>>()->value_name("NAME=VALUE")->composing(),
       "set one of the backend's declared options (repeatable; `cae info --backend B` lists "
       "them with their defaults and allowed values), e.g. v4's bf16-terms=3");
}

void refuse_backend_options(const po::variables_map& vm, const std::string& reason) {
  refuse_given_options(vm,
                       {"backend", "plugin-dir", "device", "devices", "threads", "backend-option",
                        "certify-on-first-use"},
                       reason);
}

BackendOptionValues chosen_backend_options(const BackendRecord& backend,
                                           const po::variables_map& vm) {
  if (!vm.count("backend-option")) return {};
  try {
    return check_backend_options(backend.table(),
                                 vm["backend-option"].as<std::vector<std::string>>());
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

Registry discover_backends(const po::variables_map& vm) {
  // Every command with backend options passes here first, `cae backends` too.
  if (vm.count("threads")) option_in_range(vm, "threads", 0, kMaxThreads);
  DiscoveryOptions options;
  if (vm.count("backend")) {
    const std::string& spec = vm["backend"].as<std::string>();
    if (names_a_backend_file(spec)) options.explicit_files.push_back(spec);
  }
  if (vm.count("plugin-dir")) options.plugin_dirs = vm["plugin-dir"].as<std::vector<std::string>>();
  for (const std::string& dir : options.plugin_dirs) {
    // A folder the user named and that is not there is a typo, not an empty search.
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error)) {
      throw UsageError("--plugin-dir " + dir + " is not a folder");
    }
  }
  return Registry::discover(options);
}

const BackendRecord& select_backend(const Registry& registry, const po::variables_map& vm) {
  std::string spec = vm.count("backend") ? vm["backend"].as<std::string>() : "";
  if (vm.count("backend") && spec.empty()) {
    // Not a silent fallback to the default: the user meant some backend.
    throw UsageError("--backend is empty; name a backend (see `cae backends`) or leave it out");
  }
  const int device = vm.count("device") ? vm["device"].as<int>() : 0;
  if (device < 0) throw UsageError("--device must be >= 0");
  const BackendRecord* backend = nullptr;
  try {
    backend = &registry.select(spec);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  // Chosen by default over a backend that would rank higher but is not
  // certified (a fresh install with a GPU: cpu over v4): one line saying
  // why, since the run is otherwise far slower than the user expects.
  if (spec.empty()) {
    if (const BackendRecord* above = registry.uncertified_above(*backend)) {
      std::cerr << "cae: note: the default backend is " << backend->name << ": " << above->name
                << " is available but not certified (certify it: cae-conformance --backend "
                << above->plugin.path << "; or name it: --backend " << above->name << ")\n";
    }
  }
  // Named on purpose, so used; but the user hears that nothing vouches for it.
  if (!backend->certification.certified) {
    std::cerr << "cae: warning: backend " << backend->name
              << " is not certified: " << backend->certification.summary << "\n";
  }
  // Checked here for every backend, so none can ignore a device it lacks.
  const int32_t devices = device_count_of(*backend);
  if (devices >= 0 && device >= devices) {
    throw UsageError("--device " + std::to_string(device) + ": backend " + backend->name + " has " +
                     std::to_string(devices) + (devices == 1 ? " device" : " devices") +
                     (devices > 0 ? " (0.." + std::to_string(devices - 1) + ")" : ""));
  }
  return *backend;
}

void print_discovery_warnings(const Registry& registry) {
  for (const auto& warning : registry.warnings()) std::cerr << "cae: " << warning << "\n";
}

}  // namespace cae::cli
