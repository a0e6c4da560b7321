// Constructors of every subcommand, one per file; command_list.cpp orders them.
#pragma once

#include "command.hpp"

namespace cae::cli {

Command backends_command();
Command info_command();

}  // namespace cae::cli
