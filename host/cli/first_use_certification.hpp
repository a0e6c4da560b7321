// Certification on first use: when no backend is named, the backend that
// would be the default (the fastest bundled one that runs here) is certified
// by cae-conformance before it is used, so that a first run on a GPU machine
// trains on the GPU without a command typed beforehand, and nothing
// uncertified runs silently.
#pragma once

#include <iosfwd>

#include "command.hpp"
#include "plugin/registry.hpp"

namespace cae::cli {

// Declares --certify-on-first-use.
void add_first_use_certification_option(po::options_description& options);

// With no --backend and --certify-on-first-use on (the default): while an
// available, bundled backend outranks the certified default and has no
// verdict for its exact file, runs `cae-conformance --backend FILE` on it
// (the full certifying run; the record is kept where cae-conformance keeps
// it) and says the verdict in one line with its time. A failure says why in
// one line and moves on to the next such backend. Backends dropped into
// other folders are never certified automatically: a file cannot make
// itself the default by being found.
void certify_default_on_first_use(Registry& registry, const po::variables_map& vm,
                                  std::ostream& log);

}  // namespace cae::cli
