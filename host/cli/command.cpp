#include "command.hpp"

#include <iostream>

#include "failure_message.hpp"
#include "io/confined_folder.hpp"
#include "option_checks.hpp"

namespace cae::cli {

namespace {
constexpr unsigned kHelpColumns = 100;
constexpr unsigned kHelpDescriptionColumns = 64;
}  // namespace

const Command* find_command(const std::string& name) {
  for (const auto& command : all_commands()) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

void print_command_help(const Command& command, std::ostream& out) {
  // 100 columns, of which at least 64 for the descriptions: wide enough that
  // a composed --features recipe quoted in a description (the pipeline's best
  // recipe) is never broken in the middle of its token.
  po::options_description options("options", kHelpColumns, kHelpDescriptionColumns);
  po::positional_options_description positionals;
  command.declare(options, positionals);
  out << "usage: " << command.synopsis << "\n\n" << command.summary << "\n\n" << options;
  if (!command.details.empty()) out << "\n" << command.details;
}

namespace {

// Boost reports `--flag VALUE` as "too many positional options": the flag
// took nothing and VALUE became a positional. The option the user wrote is
// the culprit; "" when the failure is something else.
std::string flag_given_a_value(const std::vector<std::string>& args,
                               const po::options_description& options) {
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--") break;
    if (args[i].rfind("--", 0) != 0 || args[i].find('=') != std::string::npos) continue;
    const po::option_description* option = options.find_nothrow(args[i].substr(2), false);
    if (!option || option->semantic()->max_tokens() != 0) continue;
    const std::string& next = args[i + 1];
    if (next.empty() || next[0] != '-') {
      return args[i] + " is a flag: it takes no value, but '" + next +
             "' follows it (give " + args[i] + " alone to turn it on, leave it out to keep it off)";
    }
  }
  return "";
}

}  // namespace

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
    std::string text = e.what();
    if (dynamic_cast<const po::too_many_positional_options_error*>(&e)) {
      const std::string flag = flag_given_a_value(args, options);
      if (!flag.empty()) text = flag;
    }
    std::cerr << "cae " << command.name << ": " << text << " (see `cae help " << command.name
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
  } catch (const OutputPathError& e) {
    // An output the user has to change, found as a file was about to be
    // written (a name read from report.json): nothing was written.
    std::cerr << "cae " << command.name << ": " << e.what() << "\n";
    return 2;
  } catch (...) {
    std::cerr << "cae " << command.name << ": " << failure_message(std::current_exception()) << "\n";
    return 1;
  }
}

}  // namespace cae::cli
