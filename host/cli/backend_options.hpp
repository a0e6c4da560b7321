// Options every backend-using command shares (--backend, --plugin-dir,
// --device, --threads, --backend-option) and the discovery they drive.
#pragma once

#include "command.hpp"
#include "plugin/declared_options.hpp"
#include "plugin/registry.hpp"

namespace cae::cli {

void add_backend_options(po::options_description& options);

// For a run that uses no backend (`cae svm --classifier linear`): a UsageError
// "--NAME <reason>" for the first of these options (or
// --certify-on-first-use) the user gave (ignored_options.hpp).
void refuse_backend_options(const po::variables_map& vm, const std::string& reason);

// Discovery for the parsed options: --backend PATH.so becomes an explicit file.
Registry discover_backends(const po::variables_map& vm);

// The backend the user asked for (or the best available): throws UsageError
// with the list of choices when the name is unknown or it cannot run here.
const BackendRecord& select_backend(const Registry& registry, const po::variables_map& vm);

// The --backend-option values, checked against the backend's declarations:
// UsageError (exit 2) for an undeclared name, a bad value or a backend
// without options.
BackendOptionValues chosen_backend_options(const BackendRecord& backend,
                                           const po::variables_map& vm);

// The devices the backend's probe reports (1 for a CPU), or -1 when the probe
// fails (the registry has already reported that as "unavailable").
int32_t device_count_of(const BackendRecord& backend);

// Prints the registry's warnings (duplicates) to stderr.
void print_discovery_warnings(const Registry& registry);

}  // namespace cae::cli
