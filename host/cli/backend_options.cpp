#include "backend_options.hpp"

#include <iostream>

#include "device_list.hpp"

namespace cae::cli {
void add_backend_options(po::options_description& options) {
  options.add_options()
      ("backend,b", po::value<std::string>()->value_name("NAME|PATH"),
       "backend to use: a name (case-insensitive) or a path to a backend .so; default: the "
       "available backend with the highest priority")
      ("plugin-dir", po::value<std::vector<std::string>>()->value_name("DIR")->composing(),
       "also search DIR for backends (repeatable; searched before CAE_PLUGIN_PATH)")
      ("device", po::value<int>()->default_value(0)->value_name("I"), "device index (GPU backends)")
      ("devices", po::value<std::string>()->value_name("LIST|all")->notifier(check_device_list_syntax),
       "several devices, e.g. 0,1 or all: data-parallel training, extraction split by rows")
      ("threads", po::value<int>()->default_value(0)->value_name("N"),
       "host threads for CPU backends (0 = all cores)");
}

Registry discover_backends(const po::variables_map& vm) {
  DiscoveryOptions options;
  if (vm.count("backend")) {
    const std::string& spec = vm["backend"].as<std::string>();
    if (names_a_backend_file(spec)) options.explicit_files.push_back(spec);
  }
  if (vm.count("plugin-dir")) options.plugin_dirs = vm["plugin-dir"].as<std::vector<std::string>>();
  return Registry::discover(options);
}

const BackendRecord& select_backend(const Registry& registry, const po::variables_map& vm) {
  std::string spec = vm.count("backend") ? vm["backend"].as<std::string>() : "";
  if (vm.count("device") && vm["device"].as<int>() < 0) {
    throw UsageError("--device must be >= 0");
  }
  if (vm.count("threads") && vm["threads"].as<int>() < 0) {
    throw UsageError("--threads must be >= 0");
  }
  try {
    return registry.select(spec);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void print_discovery_warnings(const Registry& registry) {
  for (const auto& warning : registry.warnings()) std::cerr << "cae: " << warning << "\n";
}

}  // namespace cae::cli
