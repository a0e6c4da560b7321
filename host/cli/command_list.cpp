#include "commands.hpp"

namespace cae::cli {

const std::vector<Command>& all_commands() {
  static const std::vector<Command> commands = {
      backends_command(),
      info_command(),
      data_command(),
      train_command(),
      extract_command(),
      svm_command(),
      evaluate_command(),
      pipeline_command(),
      import_weights_command(),
      bench_command(),
      report_command(),
  };
  return commands;
}

}  // namespace cae::cli
