// --devices LIST|all: which devices of the selected backend a command uses,
// one context each (data-parallel training, extraction split by rows).
#pragma once

#include <string>
#include <vector>

#include "command.hpp"

namespace cae::cli {

// "0,1,3" -> {0,1,3}; "all" -> 0..device_count-1. Throws UsageError (one line
// naming the problem) for an empty item, a non-number, a repeat, or an index
// outside 0..device_count-1.
std::vector<int> parse_device_list(const std::string& text, int device_count,
                                   const std::string& backend);

// The syntax alone (the backend is not known yet), while the command line is
// parsed, so a malformed list fails before any work: throws po::error.
void check_device_list_syntax(const std::string& text);

// The devices a command runs on: --devices when given, else --device alone.
// Throws UsageError when both are given.
std::vector<int> requested_devices(const po::variables_map& vm, int device_count,
                                   const std::string& backend);

// Throws UsageError unless `batch` splits into equal shards over `devices`.
void require_batch_divisible(int batch, size_t devices);

}  // namespace cae::cli
