#include "distributed_options.hpp"

#include "option_checks.hpp"

namespace cae::cli {
namespace {

constexpr int32_t kMaxWorldSize = 65536;
constexpr int kMaxTimeoutSeconds = 86400;

}  // namespace

void add_distributed_options(po::options_description& options) {
  options.add_options()
      ("rank", po::value<int32_t>()->value_name("R"), "this process's rank, 0..W-1 (one process per device; rank 0 writes the outputs)")
      ("world-size", po::value<int32_t>()->default_value(1)->value_name("W"), "processes training together (docs/distributed.md)")
      ("nccl-id-file", po::value<std::string>()->value_name("PATH"), "where rank 0 writes the group id the other ranks read (same path for every rank)")
      ("group-timeout", po::value<int>()->default_value(300)->value_name("S"), "seconds a rank waits for the id file or for another rank's step");
}

Rendezvous rendezvous_from(const po::variables_map& vm) {
  Rendezvous r;
  r.world = option_in_range<int32_t>(vm, "world-size", 1, kMaxWorldSize);
  r.timeout = std::chrono::seconds(option_in_range<int>(vm, "group-timeout", 1, kMaxTimeoutSeconds));
  if (r.world == 1) {
    if (vm.count("rank") && vm["rank"].as<int32_t>() != 0) {
      throw UsageError("--rank " + std::to_string(vm["rank"].as<int32_t>()) +
                       " needs a --world-size above it (a single process is rank 0)");
    }
    if (vm.count("nccl-id-file")) throw UsageError("--nccl-id-file needs --world-size 2 or more");
    return r;
  }
  if (!vm.count("rank")) {
    throw UsageError("--world-size " + std::to_string(r.world) +
                     " needs --rank (0.." + std::to_string(r.world - 1) + ", from the launcher)");
  }
  r.rank = vm["rank"].as<int32_t>();
  if (r.rank < 0 || r.rank >= r.world) {
    throw UsageError("--rank " + std::to_string(r.rank) + " is outside 0.." +
                     std::to_string(r.world - 1) + " for --world-size " + std::to_string(r.world));
  }
  if (!vm.count("nccl-id-file") || vm["nccl-id-file"].as<std::string>().empty()) {
    throw UsageError("--world-size " + std::to_string(r.world) +
                     " needs --nccl-id-file PATH (where rank 0 writes the group id for the others)");
  }
  r.id_file = vm["nccl-id-file"].as<std::string>();
  if (r.rank == 0) prepare_output_file(r.id_file, "--nccl-id-file");
  return r;
}

void require_batch_divisible_by_ranks(int batch, int32_t world) {
  if (batch % world != 0) {
    throw UsageError("--batch " + std::to_string(batch) + " (the global batch) cannot be split into " +
                     std::to_string(world) + " equal shards, one per rank: use a multiple of " +
                     std::to_string(world));
  }
}

void require_one_device_per_rank(const Rendezvous& rendezvous, size_t devices) {
  if (rendezvous.world > 1 && devices != 1) {
    throw UsageError("--world-size runs one device per process: give each rank --device N, not --devices with " +
                     std::to_string(devices) + " devices");
  }
}

}  // namespace cae::cli
