// The one-process commands under a launcher (host/cli/single_process.cpp):
// refused as one of several ranks, run as the only one or without a launcher.
#include "single_process.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>

#include "command.hpp"

namespace {

using Variables = std::map<std::string, std::string>;

cae::cli::EnvironmentLookup environment(const Variables& variables) {
  return [variables](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
}

TEST_CASE("a one-process command refuses to run as one of several ranks") {
  CHECK_THROWS_WITH_AS(
      cae::cli::require_single_process(
          "cae evaluate", environment({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "1"}})),
      doctest::Contains("cae evaluate runs as one process, but this is rank 1 of 2 from torchrun"),
      cae::cli::UsageError);
  CHECK_NOTHROW(cae::cli::require_single_process(
      "cae evaluate", environment({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}})));
  CHECK_NOTHROW(cae::cli::require_single_process("cae evaluate", environment({})));
}

}  // namespace
