#include "certify.hpp"

#include <iostream>

#include "io/sha256.hpp"
#include "plugin/certification.hpp"

namespace conformance {
namespace {

bool looks_like_path(const std::string& spec) { return cae::names_a_backend_file(spec); }

}  // namespace

cae::DiscoveryOptions discovery_for(const Options& options) {
  cae::DiscoveryOptions discovery;
  discovery.plugin_dirs = options.plugin_dirs;
  if (looks_like_path(options.backend)) {
    discovery.explicit_files.push_back(options.backend);
    discovery.use_environment = false;
    discovery.use_default_dirs = false;
  }
  return discovery;
}

const cae::BackendRecord* find_backend(const cae::Registry& registry, const std::string& spec) {
  if (!looks_like_path(spec)) return registry.find(spec);
  for (const cae::BackendRecord& record : registry.backends()) {
    if (record.origin == "--backend") return &record;
  }
  return nullptr;
}

bool certifies(const Options& options) {
  // Backend options select other code paths: such a run is not the
  // certification of the backend as cae runs it by default.
  return options.record && options.filter.empty() && !options.quick &&
         options.backend_options.empty() && options.doctest_args.size() <= 1;
}

void record_certification(const std::string& plugin_path, const std::string& backend,
                          const std::string& version, const std::vector<uint64_t>& seeds,
                          bool passed) {
  try {
    cae::CertificationRecord record;
    record.backend = backend;
    record.backend_version = version;
    record.file = plugin_path;
    record.sha256 = cae::sha256_of_file(plugin_path);
    record.verdict = passed ? "passed" : "failed";
    record.seeds = seeds;
    const std::string where = cae::write_certification(plugin_path, record);
    std::cout << "certification (" << record.verdict << ") recorded in " << where << std::endl;
  } catch (const std::exception& e) {
    std::cout << "cae-conformance: the certification could not be recorded: " << e.what()
              << std::endl;
  }
}

}  // namespace conformance
