#include "first_use_certification.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "plugin/certification.hpp"

extern char** environ;

namespace cae::cli {
namespace {

namespace fs = std::filesystem;

// Backends that came with this cae: its install prefix or its build tree
// (registry.cpp names those origins).
bool is_bundled(const BackendRecord& backend) {
  return backend.origin == "install" || backend.origin == "build tree";
}

// The next backend worth certifying: available, bundled, without a verdict on
// its exact file, and faster (higher priority) than today's default.
const BackendRecord* next_candidate(const Registry& registry, const std::set<std::string>& tried) {
  const BackendRecord* current = registry.default_backend();
  const BackendRecord* best = nullptr;
  for (const auto& b : registry.backends()) {
    if (!b.available || !is_bundled(b) || b.certification.certified || b.certification.failed ||
        tried.count(b.name)) {
      continue;
    }
    if (current && b.priority <= current->priority) continue;
    if (!best || b.priority > best->priority) best = &b;
  }
  return best;
}

struct ConformanceRun {
  int exit_status = -1;  // -1: could not start, or ended by a signal
  std::string failure;   // why it could not start or how it ended
  double seconds = 0;
};

// Runs `program args...` with stdout and stderr into `log_path`.
ConformanceRun run_logged(const std::string& program, const std::vector<std::string>& args,
                          const std::string& log_path) {
  ConformanceRun run;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, STDIN_FILENO);
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    run.failure = "cannot start " + program + ": " + std::strerror(spawned);
    return run;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      run.failure = std::string("waiting for cae-conformance: ") + std::strerror(errno);
      return run;
    }
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) {
    run.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    run.failure = "cae-conformance ended by signal " + std::to_string(WTERMSIG(status));
  }
  return run;
}

// cae-conformance's closing line for `backend` ("N checks, N passed, ...:
// PASSED"), without its prefix; empty when the log has none.
std::string verdict_line(const std::string& log_path, const std::string& backend) {
  std::ifstream log(log_path);
  const std::string prefix = "cae-conformance: " + backend + ": ";
  std::string line, last;
  while (std::getline(log, line)) {
    if (line.rfind(prefix, 0) == 0) last = line.substr(prefix.size());
  }
  return last;
}

// Processes cae-conformance deals the certification's test cases to
// (--jobs): on a GPU most of a run is the host's float64 references and
// random data, which several cores share out. A quarter of the cores, at
// most four, so that an OpenMP backend's own threads keep most of the
// machine; one on a small machine, as before.
int certification_processes() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, std::min(4, cores / 4));
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds);
  return text;
}

}  // namespace

void add_first_use_certification_option(po::options_description& options) {
  options.add_options()(
      "certify-on-first-use", po::value<bool>()->default_value(true, "true")->value_name("true|false"),
      "without --backend: certify the fastest bundled backend that runs here with "
      "cae-conformance before its first use (one line, its verdict and time); false: choose "
      "only among backends certified by hand");
}

void certify_default_on_first_use(Registry& registry, const po::variables_map& vm,
                                  std::ostream& log) {
  if (vm.count("backend")) return;
  if (vm.count("certify-on-first-use") && !vm["certify-on-first-use"].as<bool>()) return;
  const std::string conformance = (fs::path(executable_dir()) / "cae-conformance").string();
  std::set<std::string> tried;
  while (const BackendRecord* candidate = next_candidate(registry, tried)) {
    const std::string name = candidate->name;
    tried.insert(name);
    std::error_code error;
    if (!fs::is_regular_file(conformance, error)) {
      log << "cae: cannot certify " << name << " on first use: " << conformance
          << " is missing\n";
      return;
    }
    const std::string logs = certification_cache_dir() + "/logs";
    fs::create_directories(logs, error);
    const std::string log_path = logs + "/" + name + ".log";
    std::vector<std::string> args{"--backend", candidate->plugin.path};
    if (const int jobs = certification_processes(); jobs > 1) {
      args.insert(args.end(), {"--jobs", std::to_string(jobs)});
    }
    std::string shown;
    for (const std::string& arg : args) shown += " " + arg;
    log << "cae: certifying " << name << " on first use (cae-conformance" << shown << "; log "
        << log_path << ") ..." << std::flush;
    const ConformanceRun run = run_logged(conformance, args, log_path);
    registry.reread_certification(name);
    const BackendRecord* after = registry.find(name);
    const std::string verdict = verdict_line(log_path, name);
    if (after && after->certification.certified) {
      log << " certified in " << seconds_text(run.seconds) << " (" << verdict << ")\n";
      return;
    }
    log << " NOT certified"
        << (!run.failure.empty() ? ": " + run.failure
            : !verdict.empty()   ? ": " + verdict
                                 : ": exit status " + std::to_string(run.exit_status))
        << "; the next backend is tried (details: " << log_path << ")\n";
  }
}

}  // namespace cae::cli
