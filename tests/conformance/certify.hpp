// A full run is a certification: its verdict is recorded for the exact
// plugin file (host/plugin/certification.hpp), so that cae chooses its
// default among certified backends. A run narrowed by --filter, --quick or
// doctest's own options checks less, and one with --backend-option checks
// another configuration: they certify nothing; neither do the
// children of a sweep, whose parent records the seeds together.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"
#include "plugin/registry.hpp"

namespace conformance {

// Discovery as --backend asks: a path names exactly that file, a name is
// looked up along the usual search path.
cae::DiscoveryOptions discovery_for(const Options& options);
const cae::BackendRecord* find_backend(const cae::Registry& registry, const std::string& spec);

bool certifies(const Options& options);

// Writes the record and says where (or why not) on stdout.
void record_certification(const std::string& plugin_path, const std::string& backend,
                          const std::string& version, const std::vector<uint64_t>& seeds,
                          bool passed);

}  // namespace conformance
