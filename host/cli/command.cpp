#include "command.hpp"

#include <iostream>

#include "plugin/backend_error.hpp"

namespace cae::cli {

const Command* find_command(const std::string& name) {
  for (const auto& command : all_commands()) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

void print_command_help(const Command& command, std::ostream& out) {
  po::options_description options("options");
  po::positional_options_description positionals;
  command.declare(options, positionals);
  out << "usage: " << command.synopsis << "\n\n" << command.summary << "\n\n" << options;
}

int run_command(const Command& command, const std::vector<std::string>& args) {
  po::options_description options("options");
  options.add_options()("help,h", "show this help");
  po::positional_options_description positionals;
  command.declare(options, positionals);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positionals).run(), vm);
    if (vm.count("help")) {
      print_command_help(command, std::cout);
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cae " << command.name << ": " << e.what() << " (see `cae help " << command.name
              << "`)\n";
    return 2;
  }
  try {
    return command.run(vm);
  } catch (const UsageError& e) {
    std::cerr << "cae " << command.name << ": " << e.what() << "\n";
    return 2;
  } catch (const BackendError& e) {
    std::cerr << "cae " << command.name << ": " << e.what();
    // The one remedy a user can apply at once.
    if (e.status() == CAE_STATUS_OUT_OF_MEMORY) std::cerr << " (try a smaller --batch)";
    std::cerr << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "cae " << command.name << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace cae::cli
