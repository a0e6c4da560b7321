// A subcommand of `cae`: its name, one-line summary, options and body. Each
// subcommand lives in its own file and is listed in command_list.cpp.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cae::cli {

namespace po = boost::program_options;

// Thrown for bad command lines: main prints one line and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Command {
  std::string name;
  std::string synopsis;  // "cae backends [-v] [--plugin-dir DIR]..."
  std::string summary;   // one line for `cae help`
  // Declares options and positionals; the body receives the parsed map.
  std::function<void(po::options_description&, po::positional_options_description&)> declare;
  std::function<int(const po::variables_map&)> run;
  // Longer text after the options in `cae help <command>` (formats, rules).
  std::string details = {};
};

const std::vector<Command>& all_commands();
const Command* find_command(const std::string& name);

// Parses args for `command` and runs it. Maps errors to exit codes:
// 0 ok, 1 failure at run time, 2 bad usage (including a bad number, found
// before any data is loaded); a command stopped by a signal returns 128 + it.
int run_command(const Command& command, const std::vector<std::string>& args);

// Prints "usage: ...", the summary and the options of one command.
void print_command_help(const Command& command, std::ostream& out);

}  // namespace cae::cli
