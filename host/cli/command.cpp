#include "command.hpp"

#include <iostream>

#include "failure_message.hpp"
#include "option_checks.hpp"

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
  if (!command.details.empty()) out << "\n" << command.details;
}

int run_command(const Command& command, const std::vector<std::string>& args) {
  po::options_description options("options");
  options.add_options()("help,h", "show this help");
  po::positional_options_description positionals;
  command.declare(options, positionals);
  po::variables_map vm;
  try {
    const po::parsed_options parsed =
        po::command_line_parser(args).options(options).positional(positionals).run();
    po::store(parsed, vm);
    if (vm.count("help")) {
      print_command_help(command, std::cout);
      return 0;
    }
    po::notify(vm);
    check_option_values(parsed, vm);
  } catch (const po::error& e) {
    std::cerr << "cae " << command.name << ": " << e.what() << " (see `cae help " << command.name
              << "`)\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "cae " << command.name << ": " << e.what() << "\n";
    return 2;
  }
  try {
    return command.run(vm);
  } catch (const UsageError& e) {
    std::cerr << "cae " << command.name << ": " << e.what() << "\n";
    return 2;
  } catch (...) {
    std::cerr << "cae " << command.name << ": " << failure_message(std::current_exception()) << "\n";
    return 1;
  }
}

}  // namespace cae::cli
