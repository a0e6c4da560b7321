// A run of the full check set is a certification: its verdict is recorded
// for the exact plugin file (host/plugin/certification.hpp), so that cae
// chooses its default among certified backends. A run that checks less or
// allows more (--filter, --quick, fewer --models, a larger --check-timeout
// or --time-limit, doctest's own options) and one with --backend-option,
// which checks another configuration, report their verdict and certify
// nothing; neither do the children of a sweep, whose parent records the
// seeds together. The record is about the file's contents as they were
// loaded: a file that changed during the run is not recorded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"
#include "plugin/registry.hpp"

namespace conformance {

// The fewest random models (--models) of a certification.
constexpr int kCertifyingModels = 2;

// Discovery as --backend asks: a path names exactly that file, a name is
// looked up along the usual search path.
cae::DiscoveryOptions discovery_for(const Options& options);
const cae::BackendRecord* find_backend(const cae::Registry& registry, const std::string& spec);

// Why this run is not a certification ("" when it is): each option that
// narrows or weakens the full check set, named with what it changes.
std::string certification_refusal(const Options& options);
inline bool certifies(const Options& options) { return certification_refusal(options).empty(); }

// The one line a run that does not certify ends with.
void say_not_certified(const Options& options);

// Writes the record and says where (or why not) on stdout. `loaded_sha256`
// is the digest of the file as the run loaded it: when the file differs now,
// nothing is recorded ("" when no seed got as far as loading it, each
// having crashed first: a failure, recorded for the file as it is).
void record_certification(const std::string& plugin_path, const std::string& loaded_sha256,
                          const std::string& backend, const std::string& version,
                          const std::vector<uint64_t>& seeds, bool passed);

}  // namespace conformance
