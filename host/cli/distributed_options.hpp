// --rank, --world-size, --nccl-id-file, --group-timeout: this process is one
// rank of a training run spread over several processes, one device each
// (docs/distributed.md). Under a launcher (mpirun, srun, torchrun) the rank,
// the size and the device come from the launcher's variables
// (launcher_ranks.hpp); under MPI the group id travels through MPI, else
// every rank names the same id file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "command.hpp"
#include "launcher_ranks.hpp"
#include "plugin/group_rendezvous.hpp"

namespace cae::cli {

void add_distributed_options(po::options_description& options);

struct DistributedRun {
  Rendezvous rendezvous;  // world 1: a plain single-process run
  // The launcher that gave the rank (nothing for options alone, or a launch of one process).
  std::optional<LauncherRanks> launcher;
  // The launcher's device for this rank (its index on the host) where the
  // command line names none.
  std::optional<int> device;
};

// The run the options and the launcher's variables ask for. `out` is the
// command's output file: with MPI and a backend without process-group
// members, the ranks exchange through files beside it. Throws UsageError (one
// line naming the option or variable) for a world below 1, a rank outside
// 0..world-1, options that disagree with the launcher, a world above 1 with
// no way to carry the group id (no --nccl-id-file and no MPI), or a rank or
// id file given for a single process.
DistributedRun distributed_run_from(const po::variables_map& vm, const EnvironmentLookup& environment,
                                    const std::string& out);

// The first line of a run that a launcher placed: its rank, where it came
// from, its device and how the group id travels.
std::string distributed_run_text(const DistributedRun& run);

// `vm` with --device set to the launcher's device when the command line gave
// neither --device nor --devices; `vm` itself otherwise.
po::variables_map with_launcher_device(const po::variables_map& vm, const DistributedRun& run);

// Throws UsageError unless `batch` (the global batch) splits into one equal
// shard per rank.
void require_batch_divisible_by_ranks(int batch, int32_t world);

// Throws UsageError unless a rank of a group of processes runs on one device.
void require_one_device_per_rank(const Rendezvous& rendezvous, size_t devices);

// This rank's group when the run spans processes, nullptr for a single
// process: one device per rank (`devices` contexts here) and, when given,
// `global_batch` split into one equal shard per rank, checked first.
std::unique_ptr<ProcessGroup> join_ranks(const Rendezvous& rendezvous, Context& context,
                                         size_t devices,
                                         std::optional<int> global_batch = std::nullopt);

}  // namespace cae::cli
