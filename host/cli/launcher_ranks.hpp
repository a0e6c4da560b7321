// A rank's place in a job as its launcher states it: Open MPI's mpirun and
// PMIx (srun --mpi=pmix), Slurm's srun and torchrun each export the rank, the
// number of ranks and the rank's index on its host in variables of their own
// (docs/distributed.md). These variables are the launchers' documented
// interface, so `cae train` reads them instead of asking the job script to
// copy them into --rank and --world-size.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace cae::cli {

// Looks one environment variable up: its value, or nullptr when unset.
using EnvironmentLookup = std::function<const char*(const char*)>;

// The process's own environment (std::getenv).
EnvironmentLookup process_environment();

struct LauncherRanks {
  std::string launcher;   // "Open MPI", "Slurm", "torchrun": the one whose size is used
  std::string variables;  // what it was read from, e.g. "SLURM_PROCID=1, SLURM_NTASKS=2"
  int32_t rank = 0;
  int32_t world = 1;
  std::optional<int32_t> local_rank;  // the rank's index among those on its host
  std::string local_variable;         // the variable local_rank comes from
  // Started by an MPI launcher (mpirun, or srun with PMIx), so MPI_Init can
  // reach the other ranks.
  bool mpi = false;
};

// The launcher's ranks, or nothing when no launcher variable is set. Throws
// UsageError (one line naming the variable) for a malformed value (not a
// whole number, negative, a size of 0 or above `max_world`, a rank not below
// its size), for a rank without a size, and when two launchers' variables
// disagree (naming both).
std::optional<LauncherRanks> launcher_ranks(const EnvironmentLookup& environment,
                                            int32_t max_world);

// Throws UsageError naming both when --rank or --world-size (given on the
// command line) disagree with the launcher's.
void require_agreement(const LauncherRanks& launcher, std::optional<int32_t> rank_option,
                       std::optional<int32_t> world_option);

// "rank 1 of 2 from Slurm (SLURM_PROCID=1, SLURM_NTASKS=2)": what the run's
// first line says.
std::string launcher_ranks_text(const LauncherRanks& launcher);

}  // namespace cae::cli
