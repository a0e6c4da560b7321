// Constructors of every subcommand, one per file; command_list.cpp orders them.
#pragma once

#include "command.hpp"

namespace cae::cli {

Command backends_command();
Command info_command();
Command data_command();
Command train_command();
Command extract_command();
Command import_weights_command();
Command bench_command();
Command svm_command();
Command evaluate_command();
Command pipeline_command();
Command report_command();

}  // namespace cae::cli
