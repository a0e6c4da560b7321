// The commands that run in one process (`cae svm`, `cae evaluate`): started
// by a launcher as several ranks, each rank would repeat the whole job and
// all would write the same outputs. They stop instead, saying how to run them.
#pragma once

#include <string>

#include "launcher_ranks.hpp"

namespace cae::cli {

// Throws UsageError when `environment` says this process is one of several
// ranks of a launcher (mpirun, srun, torchrun); `command` is "cae pipeline".
void require_single_process(const std::string& command,
                            const EnvironmentLookup& environment = process_environment());

}  // namespace cae::cli
