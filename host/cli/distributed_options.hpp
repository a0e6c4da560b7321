// --rank, --world-size, --nccl-id-file, --group-timeout: this process is one
// rank of a training run spread over several processes, one device each
// (docs/distributed.md). The launcher (torchrun, srun, mpirun, a script)
// passes its rank and size variables; every rank names the same id file.
#pragma once

#include <cstdint>
#include <string>

#include "command.hpp"
#include "plugin/group_rendezvous.hpp"

namespace cae::cli {

void add_distributed_options(po::options_description& options);

// The rendezvous the options ask for (world 1: a plain single-process run).
// Throws UsageError (one line naming the option) for a world below 1, a rank
// outside 0..world-1, a world above 1 without --nccl-id-file, or a rank or id
// file given for a single process.
Rendezvous rendezvous_from(const po::variables_map& vm);

// Throws UsageError unless `batch` (the global batch) splits into one equal
// shard per rank.
void require_batch_divisible_by_ranks(int batch, int32_t world);

// Throws UsageError unless a rank of a group of processes runs on one device.
void require_one_device_per_rank(const Rendezvous& rendezvous, size_t devices);

}  // namespace cae::cli
