#include "child_runs.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "certify.hpp"

extern char** environ;

namespace conformance {
namespace {

using nlohmann::json;

std::string signal_text(int sig) {
  const char* name = strsignal(sig);
  return "signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
}

}  // namespace

std::vector<std::string> child_args(int argc, char** argv) {
  const char* owned[] = {"--sweep", "--jobs", "--json", "--seed", "--shard"};
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    bool skip = false;
    for (const char* name : owned) {
      if (arg == name) {
        skip = true;
        ++i;  // its value
      } else if (arg.rfind(std::string(name) + "=", 0) == 0) {
        skip = true;
      }
    }
    if (!skip) args.push_back(arg);
  }
  return args;
}

ChildEnvironment::ChildEnvironment(size_t jobs) {
  for (char** e = environ; *e != nullptr; ++e) entries_.emplace_back(*e);
  if (jobs > 1 && std::getenv("OMP_WAIT_POLICY") == nullptr)
    entries_.emplace_back("OMP_WAIT_POLICY=passive");
  // Taken once every entry is in place: the strings no longer move.
  for (std::string& entry : entries_) pointers_.push_back(entry.data());
  pointers_.push_back(nullptr);
}

pid_t spawn_child(const std::string& program, const std::vector<std::string>& args,
                  const ChildRun& child, const ChildEnvironment& env) {
  std::vector<std::string> full = {program};
  full.insert(full.end(), args.begin(), args.end());
  // The parent records the certification of the whole run at once (certify.hpp).
  full.insert(full.end(),
              {"--seed", std::to_string(child.seed), "--json", child.json_path, "--no-record"});
  full.insert(full.end(), child.extra_args.begin(), child.extra_args.end());
  std::vector<char*> argv;
  for (std::string& a : full) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, child.log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  const int err = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), env.envp());
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) {
    throw std::runtime_error("cannot start " + program + ": " + std::strerror(err));
  }
  return pid;
}

pid_t wait_for_child(int& status) {
  const pid_t pid = waitpid(-1, &status, 0);
  if (pid >= 0 || errno == EINTR) return pid;
  throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
}

ChildResult collect_child(const ChildRun& child, int status) {
  ChildResult r;
  r.seed = child.seed;
  std::ifstream in(child.json_path);
  if (in) {
    try {
      in >> r.doc;
      r.verdict = r.doc.value("verdict", "failed");
    } catch (const std::exception&) {
      r.doc = json();
    }
  }
  if (r.doc.is_null() || r.verdict.empty()) {
    r.verdict = "crashed";
    std::string how = WIFSIGNALED(status)
                          ? "killed by " + signal_text(WTERMSIG(status))
                          : "exited " + std::to_string(WEXITSTATUS(status)) + " without a verdict";
    r.doc = {{"seed", child.seed},
             {"verdict", "crashed"},
             {"failures", json::array()},
             {"crash", {{"signal", how}, {"op", ""}, {"check", "(unknown: no report)"}}}};
  } else if (r.verdict == "passed" && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    r.verdict = "failed";  // a verdict file that disagrees with the exit status is not a pass
    r.doc["verdict"] = "failed";
  }
  return r;
}

std::string make_children_dir(const std::string& kind) {
  std::string path = "/tmp/cae-conformance-" + kind + "-XXXXXX";
  if (mkdtemp(path.data())) return path;
  std::cerr << "cae-conformance: cannot make a temporary folder: " << std::strerror(errno) << "\n";
  return "";
}

void catch_stop_signals(void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaction(sig, &action, nullptr);
}

bool write_run_document(const std::string& path, const nlohmann::json& doc) {
  std::ofstream out(path, std::ios::trunc);
  out << doc.dump(1) << "\n";
  if (out) return true;
  std::cerr << "cae-conformance: cannot write " << path << "\n";
  return false;
}

void record_children(const Options& options, const std::vector<ChildResult>& done, bool passed,
                     const std::string& what) {
  if (!certifies(options)) {
    say_not_certified(options);
    return;
  }
  const cae::Registry registry = cae::Registry::discover(discovery_for(options));
  const cae::BackendRecord* backend = find_backend(registry, options.backend);
  if (!backend) return;
  std::string loaded_sha256;
  std::vector<uint64_t> seeds;
  for (const ChildResult& r : done) {
    seeds.push_back(r.seed);
    const std::string seen = r.doc.value("sha256", std::string());
    if (loaded_sha256.empty()) loaded_sha256 = seen;
    if (!seen.empty() && seen != loaded_sha256) {
      std::cout << "cae-conformance: " << backend->plugin.path << " changed during " << what
                << " (seed " << r.seed << " checked other contents): nothing recorded" << std::endl;
      return;
    }
  }
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
  record_certification(backend->plugin.path, loaded_sha256, backend->name,
                       backend->table().version ? backend->table().version : "", seeds, passed);
}

std::vector<std::string> failure_lines(const std::string& log_path) {
  std::ifstream in(log_path);
  std::vector<std::string> lines;
  std::string line;
  bool under_failure = false;
  while (std::getline(in, line)) {
    const bool failed = line.size() >= 4 && line.compare(line.size() - 4, 4, "FAIL") == 0;
    const bool detail = under_failure && line.rfind("    ", 0) == 0;
    const bool crash = line.rfind("CRASH", 0) == 0 || line.rfind("SKIPPED", 0) == 0 ||
                       line.find("FAILED (") != std::string::npos;
    if (failed || detail || crash) lines.push_back(line);
    under_failure = failed || detail;
  }
  return lines;
}

}  // namespace conformance
