// Range checks for numeric options: a bad value is a UsageError naming the
// option (exit code 2), never a silent clamp.
#pragma once

#include <string>

#include "command.hpp"

namespace cae::cli {

template <class T>
T option_in_range(const po::variables_map& vm, const char* name, T low, T high) {
  T value = vm[name].as<T>();
  if (value < low || value > high) {
    throw UsageError("--" + std::string(name) + " must be between " + std::to_string(low) + " and " +
                     std::to_string(high) + ", got " + std::to_string(value));
  }
  return value;
}

// Makes sure a file can later be written at `path` (creating its folder), so a
// long run fails at once, not after hours, when the destination is unusable.
void prepare_output_file(const std::string& path);

// --data DIR, or data/ (CIFAR-10 fetched there) when not given.
void add_data_option(po::options_description& options);
std::string resolve_data_dir(const po::variables_map& vm);

}  // namespace cae::cli
