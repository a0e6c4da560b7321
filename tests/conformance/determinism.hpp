// Bit-for-bit determinism of backends that declare deterministic = 1.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace conformance {

// Named outputs of one run of an op, downloaded.
using Outputs = std::vector<std::pair<std::string, std::vector<float>>>;

// Calls `run` three times (it uploads identical inputs, poisons its outputs,
// runs the op and downloads the results) and compares every output of the
// later runs with the first's by memcmp. Three runs, not two: a backend whose
// results differ on every other call (a ping-pong buffer, an alternating
// algorithm) shows a difference whichever call the check starts at. For a
// backend that does not declare determinism this prints a note instead.
void expect_deterministic(const std::string& op, const std::string& what,
                          const std::function<Outputs()>& run);

}  // namespace conformance
