#include "launcher_ranks.hpp"

#include <cstdlib>
#include <vector>

#include "command.hpp"

namespace cae::cli {
namespace {

// Each launcher's own names. PMIx gives the rank alone; mpirun sets it beside
// Open MPI's, srun --mpi=pmix beside Slurm's.
struct LauncherVariables {
  const char* launcher;
  const char* rank;
  const char* size;   // nullptr: the launcher exports no size
  const char* local;  // nullptr: no index on the host
  bool mpi;
};

// In the order of preference for naming the source: the launcher nearest to
// the process first.
constexpr LauncherVariables kLaunchers[] = {
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
     true},
    {"PMIx", "PMIX_RANK", nullptr, nullptr, true},
    {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", false},
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK", false},
};

// One variable as read: its name and number.
struct Reading {
  const char* launcher = nullptr;
  const char* name = nullptr;
  int32_t value = 0;
  std::string text() const { return std::string(name) + "=" + std::to_string(value); }
  std::string owned_text() const { return std::string(launcher) + "'s " + text(); }
};

struct LauncherReading {
  const LauncherVariables* names;
  Reading rank;
  std::optional<Reading> size, local;
};

// A whole number >= 0 written in decimal digits only (no sign, no space), at
// most `high`. Anything else is the launcher's or the script's mistake.
int32_t parse_count(const char* name, const char* launcher, const std::string& text, int64_t high,
                    const std::string& meaning) {
  bool digits = !text.empty() && text.size() <= 10;
  for (char c : text) digits = digits && c >= '0' && c <= '9';
  const int64_t value = digits ? std::strtoll(text.c_str(), nullptr, 10) : -1;
  if (!digits || value > high) {
    throw UsageError(std::string(name) + "='" + text + "' (" + launcher + "'s " + meaning +
                     ") is not a whole number from 0 to " + std::to_string(high));
  }
  return int32_t(value);
}

std::optional<Reading> read_variable(const EnvironmentLookup& environment,
                                     const LauncherVariables& names, const char* name, int64_t high,
                                     const std::string& meaning) {
  if (!name) return std::nullopt;
  const char* text = environment(name);
  if (!text) return std::nullopt;
  return Reading{names.launcher, name, parse_count(name, names.launcher, text, high, meaning)};
}

std::optional<LauncherReading> read_launcher(const EnvironmentLookup& environment,
                                             const LauncherVariables& names, int32_t max_world) {
  // The rank is what a launcher sets for each process it starts; its size
  // alone describes an allocation (salloc's SLURM_NTASKS), not a launch.
  const std::optional<Reading> rank =
      read_variable(environment, names, names.rank, max_world - 1, "rank");
  if (!rank) return std::nullopt;
  const std::optional<Reading> size =
      read_variable(environment, names, names.size, max_world, "number of ranks");
  const std::optional<Reading> local =
      read_variable(environment, names, names.local, max_world - 1, "rank on this host");
  if (names.size && !size) {
    throw UsageError(std::string(names.rank) + " is set but " + names.size + " is not (" +
                     names.launcher + "'s number of ranks)");
  }
  if (size && size->value < 1) {
    throw UsageError(size->text() + " (" + names.launcher +
                     "'s number of ranks) must be at least 1");
  }
  for (const std::optional<Reading>& index : {rank, local}) {
    if (index && size && index->value >= size->value) {
      throw UsageError(index->text() + " is not below " + size->text() + " (" + names.launcher +
                       "'s number of ranks)");
    }
  }
  return LauncherReading{&names, *rank, size, local};
}

// Throws unless every reading present agrees with the first.
void require_same(const std::vector<const Reading*>& readings) {
  for (const Reading* other : readings) {
    if (other->value != readings.front()->value) {
      throw UsageError(readings.front()->owned_text() + " and " + other->owned_text() +
                       " disagree: start cae through one launcher, or unset the other's variables");
    }
  }
}

}  // namespace

EnvironmentLookup process_environment() {
  return [](const char* name) -> const char* { return std::getenv(name); };
}

std::optional<LauncherRanks> launcher_ranks(const EnvironmentLookup& environment,
                                            int32_t max_world) {
  std::vector<LauncherReading> found;
  for (const LauncherVariables& names : kLaunchers) {
    if (auto reading = read_launcher(environment, names, max_world)) found.push_back(*reading);
  }
  if (found.empty()) return std::nullopt;
  std::vector<const Reading*> ranks, sizes, locals;
  for (const LauncherReading& reading : found) {
    ranks.push_back(&reading.rank);
    if (reading.size) sizes.push_back(&*reading.size);
    if (reading.local) locals.push_back(&*reading.local);
  }
  require_same(ranks);
  if (sizes.empty()) {
    throw UsageError(ranks.front()->text() +
                     " is set but no launcher variable gives the number of "
                     "ranks (OMPI_COMM_WORLD_SIZE, SLURM_NTASKS or WORLD_SIZE)");
  }
  require_same(sizes);
  if (!locals.empty()) require_same(locals);

  LauncherRanks result;
  const LauncherReading* source = nullptr;
  for (const LauncherReading& reading : found) {
    if (!source && reading.size) source = &reading;
    result.mpi = result.mpi || reading.names->mpi;
  }
  result.launcher = source->names->launcher;
  result.rank = source->rank.value;
  result.world = source->size->value;
  result.variables = source->rank.text() + ", " + source->size->text();
  for (const LauncherReading& reading : found) {
    if (&reading != source) result.variables += ", " + reading.rank.text();
  }
  if (!locals.empty()) {
    result.local_rank = locals.front()->value;
    result.local_variable = locals.front()->name;
  }
  return result;
}

void require_agreement(const LauncherRanks& launcher, std::optional<int32_t> rank_option,
                       std::optional<int32_t> world_option) {
  const std::string source = launcher.launcher + " (" + launcher.variables + ")";
  if (rank_option && *rank_option != launcher.rank) {
    throw UsageError("--rank " + std::to_string(*rank_option) + " disagrees with rank " +
                     std::to_string(launcher.rank) + " from " + source +
                     ": leave --rank out under a launcher");
  }
  if (world_option && *world_option != launcher.world) {
    throw UsageError("--world-size " + std::to_string(*world_option) + " disagrees with " +
                     std::to_string(launcher.world) + " ranks from " + source +
                     ": leave --world-size out under a launcher");
  }
}

std::string launcher_ranks_text(const LauncherRanks& launcher) {
  return "rank " + std::to_string(launcher.rank) + " of " + std::to_string(launcher.world) +
         " from " + launcher.launcher + " (" + launcher.variables + ")";
}

}  // namespace cae::cli
