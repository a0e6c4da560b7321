#include "certify.hpp"

#include <iostream>

#include "io/sha256.hpp"
#include "plugin/certification.hpp"
#include "report.hpp"
#include "watchdog.hpp"

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

std::string certification_refusal(const Options& options) {
  std::vector<std::string> reasons;
  if (!options.record) reasons.push_back("--no-record");
  if (!options.filter.empty()) reasons.push_back("--filter runs only some checks");
  if (options.quick) reasons.push_back("--quick checks fewer and smaller shapes");
  if (options.shards > 1) reasons.push_back("--shard runs one process's share of the checks");
  if (options.max_failures > 0) {
    reasons.push_back("--max-failures may end the run before every check ran");
  }
  if (options.models < kCertifyingModels) {
    reasons.push_back("--models " + std::to_string(options.models) +
                      " checks fewer random models than " + std::to_string(kCertifyingModels));
  }
  // A larger limit lets a slower (or hanging) backend pass; a smaller one
  // only asks more.
  if (options.check_timeout > kDefaultCheckTimeout) {
    reasons.push_back("--check-timeout " + num(options.check_timeout) + " allows more than " +
                      num(kDefaultCheckTimeout) + " s per check");
  }
  if (options.time_limit > kDefaultTimeLimit) {
    reasons.push_back("--time-limit " + num(options.time_limit) + " allows more than " +
                      num(kDefaultTimeLimit) + " s for the run");
  }
  // Backend options select other code paths: such a run is not the
  // certification of the backend as cae runs it by default.
  if (!options.backend_options.empty()) {
    reasons.push_back("--backend-option checks a setting other than the backend's defaults");
  }
  if (options.doctest_args.size() > 1) {
    reasons.push_back("doctest options (" + options.doctest_args[1] + ") may leave checks out");
  }
  std::string text;
  for (const std::string& reason : reasons) text += (text.empty() ? "" : "; ") + reason;
  return text;
}

void say_not_certified(const Options& options) {
  std::cout << "cae-conformance: not a certification (" << certification_refusal(options)
            << "): nothing recorded" << std::endl;
}

void record_certification(const std::string& plugin_path, const std::string& loaded_sha256,
                          const std::string& backend, const std::string& version,
                          const std::vector<uint64_t>& seeds, bool passed) {
  try {
    cae::CertificationRecord record;
    record.backend = backend;
    record.backend_version = version;
    record.file = plugin_path;
    record.sha256 = cae::sha256_of_file(plugin_path);
    if (!loaded_sha256.empty() && record.sha256 != loaded_sha256) {
      std::cout << "cae-conformance: " << plugin_path
                << " changed during the run (its checks were of other contents): nothing recorded"
                << std::endl;
      return;
    }
    record.verdict = passed ? "passed" : "failed";
    record.seeds = seeds;
    const std::string where = cae::write_certification(plugin_path, record);
    std::cout << "certification (" << record.verdict << ") recorded in " << where << std::endl;
    // A failed record that this run could not replace (beside a plugin in a
    // read-only folder) still stands: say what cae reads.
    const cae::Certification now = cae::certification_of(plugin_path, backend, version);
    if (now.certified != passed) {
      std::cout << "cae-conformance: cae still reads this file as " << now.summary << std::endl;
    }
  } catch (const std::exception& e) {
    std::cout << "cae-conformance: the certification could not be recorded: " << e.what()
              << std::endl;
  }
}

}  // namespace conformance
