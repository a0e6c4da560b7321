#include "distributed_options.hpp"

#include <filesystem>

#include "option_checks.hpp"
#include "path_options.hpp"
#include "plugin/mpi_bootstrap.hpp"

namespace cae::cli {
namespace {

constexpr int32_t kMaxWorldSize = 65536;
constexpr int kMaxTimeoutSeconds = 86400;

std::optional<int32_t> given(const po::variables_map& vm, const char* name) {
  if (!vm.count(name) || vm[name].defaulted()) return std::nullopt;
  return vm[name].as<int32_t>();
}

// How the group id reaches the other ranks of a launched run: the id file
// when one is named, else MPI where both the launcher and this build have it.
void choose_id_carrier(Rendezvous& r, const std::optional<LauncherRanks>& launcher,
                       const std::string& out) {
  if (!r.id_file.empty()) return;
  const std::string world = "--world-size " + std::to_string(r.world);
  if (!launcher) {
    throw UsageError(
        world + " needs --nccl-id-file PATH (where rank 0 writes the group id for the others)");
  }
  const std::string source = launcher->launcher + " (" + launcher->variables + ")";
  if (!launcher->mpi) {
    throw UsageError(std::to_string(r.world) + " ranks from " + source +
                     " need --nccl-id-file PATH (a path every rank sees), or an MPI launcher "
                     "(mpirun, srun --mpi=pmix) to carry the group id");
  }
  if (!kBuiltWithMpi) {
    throw UsageError(std::to_string(r.world) + " ranks from " + source +
                     ": this cae was built without MPI, so give --nccl-id-file PATH (a path every "
                     "rank sees)");
  }
  r.through_mpi = true;
  // Files of the host's exchange (backends without process-group members)
  // go beside the output, which every rank of one host sees.
  r.exchange_folder = std::filesystem::absolute(out).parent_path().string();
}

}  // namespace

void add_distributed_options(po::options_description& options) {
  options.add_options()
      ("rank", po::value<int32_t>()->value_name("R"), "this process's rank, 0..W-1 (one process per device; rank 0 writes the outputs); "
       "by default the launcher's (OMPI_COMM_WORLD_RANK, PMIX_RANK, SLURM_PROCID, RANK)")
      ("world-size", po::value<int32_t>()->default_value(1)->value_name("W"), "processes working together, one device each (docs/distributed.md); "
       "by default the launcher's (OMPI_COMM_WORLD_SIZE, SLURM_NTASKS, WORLD_SIZE)")
      ("nccl-id-file", output_file_value("--nccl-id-file")->value_name("PATH"), "where rank 0 writes the group id the other ranks read (same path for every rank); "
       "not needed under mpirun or srun --mpi=pmix in a build with MPI")
      ("group-timeout", po::value<int>()->default_value(300)->value_name("S"), "seconds a rank waits for the id file, for every rank to join the backend's group (NCCL), or for another rank's step in the host's file exchange");
}

DistributedRun distributed_run_from(const po::variables_map& vm,
                                    const EnvironmentLookup& environment, const std::string& out) {
  DistributedRun run;
  Rendezvous& r = run.rendezvous;
  r.world = option_in_range<int32_t>(vm, "world-size", 1, kMaxWorldSize);
  r.timeout =
      std::chrono::seconds(option_in_range<int>(vm, "group-timeout", 1, kMaxTimeoutSeconds));
  std::optional<int32_t> rank =
      vm.count("rank") ? std::optional(vm["rank"].as<int32_t>()) : std::nullopt;
  std::optional<LauncherRanks> launcher = launcher_ranks(environment, kMaxWorldSize);
  if (launcher) {
    require_agreement(*launcher, rank, given(vm, "world-size"));
    // A launch of one process runs as a plain one.
    if (launcher->world > 1) {
      r.world = launcher->world;
      rank = launcher->rank;
      if (launcher->local_rank && !vm.count("devices") && vm["device"].defaulted()) {
        run.device = *launcher->local_rank;
      }
      run.launcher = std::move(launcher);
    }
  }
  if (r.world == 1) {
    if (rank && *rank != 0) {
      throw UsageError("--rank " + std::to_string(*rank) +
                       " needs a --world-size above it (a single process is rank 0)");
    }
    if (vm.count("nccl-id-file")) throw UsageError("--nccl-id-file needs --world-size 2 or more");
    return run;
  }
  if (!rank) {
    throw UsageError("--world-size " + std::to_string(r.world) + " needs --rank (0.." +
                     std::to_string(r.world - 1) + ", from the launcher)");
  }
  r.rank = *rank;
  if (r.rank < 0 || r.rank >= r.world) {
    throw UsageError("--rank " + std::to_string(r.rank) + " is outside 0.." +
                     std::to_string(r.world - 1) + " for --world-size " + std::to_string(r.world));
  }
  if (vm.count("nccl-id-file")) r.id_file = vm["nccl-id-file"].as<std::string>();
  choose_id_carrier(r, run.launcher, out);
  if (r.rank == 0 && !r.id_file.empty()) prepare_output_file(r.id_file, "--nccl-id-file");
  return run;
}

std::string distributed_run_text(const DistributedRun& run) {
  std::string text = launcher_ranks_text(*run.launcher);
  if (run.device) {
    text += ", device " + std::to_string(*run.device) + " from " + run.launcher->local_variable;
  }
  return text + (run.rendezvous.through_mpi ? ", group id through MPI"
                                            : ", group id through " + run.rendezvous.id_file);
}

po::variables_map with_launcher_device(const po::variables_map& vm, const DistributedRun& run) {
  po::variables_map placed = vm;
  if (run.device) placed.at("device").value() = *run.device;
  return placed;
}

void require_batch_divisible_by_ranks(int batch, int32_t world) {
  if (batch % world != 0) {
    throw UsageError("--batch " + std::to_string(batch) +
                     " (the global batch) cannot be split into " + std::to_string(world) +
                     " equal shards, one per rank: use a multiple of " + std::to_string(world));
  }
}

void require_one_device_per_rank(const Rendezvous& rendezvous, size_t devices) {
  if (rendezvous.world > 1 && devices != 1) {
    throw UsageError(
        "--world-size runs one device per process: give each rank --device N, not --devices with " +
        std::to_string(devices) + " devices");
  }
}

std::unique_ptr<ProcessGroup> join_ranks(const Rendezvous& rendezvous, Context& context,
                                         size_t devices, std::optional<int> global_batch) {
  require_one_device_per_rank(rendezvous, devices);
  if (rendezvous.world <= 1) return nullptr;
  if (global_batch) require_batch_divisible_by_ranks(*global_batch, rendezvous.world);
  return join_process_group(context, rendezvous);
}

}  // namespace cae::cli
