#include "single_process.hpp"

#include "command.hpp"

namespace cae::cli {

void require_single_process(const std::string& command, const EnvironmentLookup& environment) {
  // Any size: a malformed launcher variable is refused by launcher_ranks itself.
  constexpr int32_t kAnyWorld = 1 << 30;
  const std::optional<LauncherRanks> launcher = launcher_ranks(environment, kAnyWorld);
  if (!launcher || launcher->world <= 1) return;
  throw UsageError(command + " runs as one process, but this is " + launcher_ranks_text(*launcher) +
                   ": train across ranks with `cae train`, then start " + command +
                   " once (docs/distributed.md)");
}

}  // namespace cae::cli
