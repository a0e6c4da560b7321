#include "commands.hpp"

namespace cae::cli {

const std::vector<Command>& all_commands() {
  static const std::vector<Command> commands = {
      backends_command(),
      info_command(),
  };
  return commands;
}

}  // namespace cae::cli
