// cae: the backend-agnostic host program. `cae help` lists the subcommands.
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "command.hpp"
#include "failure_message.hpp"
#include "io/exit_cleanup.hpp"

namespace {

void print_overview(std::ostream& out) {
  out << "cae " CAE_VERSION " — convolutional-autoencoder feature learning on pluggable backends\n\n"
         "usage: cae <command> [options]\n\ncommands:\n";
  for (const auto& command : cae::cli::all_commands()) {
    out << "  " << command.name << std::string(command.name.size() < 16 ? 16 - command.name.size() : 1, ' ')
        << command.summary << "\n";
  }
  out << "\n`cae help <command>` or `cae <command> --help` shows a command's options.\n";
}

int run_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_overview(std::cerr);
    return 2;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h") {
    print_overview(std::cout);
    return 0;
  }
  if (first == "--version") {
    std::cout << "cae " CAE_VERSION "\n";
    return 0;
  }
  if (first == "help") {
    if (args.size() == 1) {
      print_overview(std::cout);
      return 0;
    }
    const auto* command = cae::cli::find_command(args[1]);
    if (!command) {
      std::cerr << "cae: unknown command '" << args[1] << "' (see `cae help`)\n";
      return 2;
    }
    cae::cli::print_command_help(*command, std::cout);
    return 0;
  }
  const auto* command = cae::cli::find_command(first);
  if (!command) {
    std::cerr << "cae: unknown command '" << first << "' (see `cae help`)\n";
    return 2;
  }
  return cae::cli::run_command(*command, std::vector<std::string>(args.begin() + 1, args.end()));
}

// OpenBLAS (linked for the linear classifier, used by the cpu backend)
// starts a thread pool when it is loaded, and each pool thread maps a 128 MiB
// buffer at once; under an address-space limit (`ulimit -v`) one that cannot
// retries forever, using a core and blocking the exit. The pool is sized from
// OPENBLAS_NUM_THREADS when the library loads, before main, so with a limit
// in effect cae runs itself again once with that set to 1: GEMMs then run on
// the threads that call them (the cpu backend's and the linear classifier's
// way anyway). exec() ends the stuck threads with the old image.
void restart_without_blas_pool(char** argv) {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
  const char* threads = std::getenv("OPENBLAS_NUM_THREADS");
  if (threads != nullptr && std::string(threads) == "1") return;
  ::setenv("OPENBLAS_NUM_THREADS", "1", 1);
  ::execv("/proc/self/exe", argv);  // returns only on failure: go on as we are
}

}  // namespace

int main(int argc, char** argv) {
  restart_without_blas_pool(argv);
  // Before anything is written: a signal removes temporaries and exits with
  // 128 + its number; a file-size limit becomes a write error (EFBIG).
  cae::install_exit_cleanup();
  int status = 1;
  try {
    status = run_main(argc, argv);
  } catch (...) {
    std::cerr << "cae: " << cae::cli::failure_message(std::current_exception()) << "\n";
  }
  if (status != 0) {
    // The error is said and the command's own cleanup (locks, temporaries)
    // is done. Nothing more is owed: exit now, without static destructors
    // and library shutdown hooks, which may wait forever on threads a failed
    // allocation left behind (OpenBLAS's retry loop under `ulimit -v`).
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(status);
  }
  return status;
}
