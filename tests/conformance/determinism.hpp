// Bit-for-bit determinism of backends that declare deterministic = 1.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace conformance {

// Named outputs of one run of an op, downloaded.
using Outputs = std::vector<std::pair<std::string, std::vector<float>>>;

// Calls `run` twice (it uploads identical inputs, poisons its outputs, runs the
// op and downloads the results) and compares every output with memcmp. For a
// backend that does not declare determinism this prints a note instead.
void expect_deterministic(const std::string& op, const std::string& what,
                          const std::function<Outputs()>& run);

}  // namespace conformance
