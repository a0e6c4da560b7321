// Command line of cae-conformance. Options the suite does not know are kept
// for doctest (e.g. -s, --list-test-cases), so both sets work side by side.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conformance {

struct Options {
  std::string backend;                   // a backend name or a path to its .so
  std::vector<std::string> plugin_dirs;  // extra folders to search, in order
  int32_t device = 0;
  std::optional<uint64_t> seed;  // unset: a fresh one, printed so a run can be repeated
  std::string filter;            // only the checks of ops whose name contains this
  bool quick = false;            // fewer and smaller shapes
  int models = 2;                // random models whose layers are checked
  bool large_models = false;     // the presets on 96x96 images too
  uint64_t sweep = 0;            // > 0: run this many seeds, each in a child process
  uint32_t jobs = 1;             // children at once: a sweep's seeds, or one seed's test cases
  uint32_t shard = 0, shards = 1;  // --shard K/J: this process runs test cases K, K + J, ...
  std::string json;              // write the verdict as JSON to this file
  std::vector<std::string> backend_options;  // --backend-option NAME=VALUE, in order
  double check_timeout = 60.0;   // seconds per billion operations of a check (watchdog.hpp)
  double time_limit = 1800.0;    // seconds for the whole run (watchdog.hpp)
  uint64_t max_failures = 0;     // > 0: end the run after this many failed checks (watchdog.hpp)
  bool record = true;            // --no-record: do not write a certification record
  bool help = false;
  std::vector<std::string> doctest_args;  // everything else, argv[0] first
};

// Throws std::invalid_argument with a message for the user.
Options parse_options(int argc, char** argv);

std::string usage_text();

}  // namespace conformance
