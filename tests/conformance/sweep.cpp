#include "sweep.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "certify.hpp"

extern char** environ;

namespace conformance {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The child's command line: ours without the sweep's own options, with a seed
// and a JSON file of its own.
std::vector<std::string> child_args(int argc, char** argv) {
  const char* owned[] = {"--sweep", "--jobs", "--json", "--seed"};
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

struct Child {
  uint64_t seed;
  std::string json_path, log_path;
};

struct SeedResult {
  uint64_t seed = 0;
  std::string verdict;  // passed, failed, crashed, skipped
  json doc;             // the child's JSON (or one made up for a child that left none)
};

std::string signal_text(int sig) {
  const char* name = strsignal(sig);
  return "signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
}

// The children's environment: the sweep's own, plus, when seeds run side by
// side, OMP_WAIT_POLICY=passive (unless it is set): an OpenMP backend's idle
// threads then sleep instead of spinning, and do not take the cores the other
// seeds' threads are waiting for (spinning made a sweep of the cpu backend at
// two jobs on two cores three times slower than one job).
std::vector<std::string> child_environment(size_t jobs) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  if (jobs > 1 && std::getenv("OMP_WAIT_POLICY") == nullptr) env.emplace_back("OMP_WAIT_POLICY=passive");
  return env;
}

// `envp`: the NULL-terminated pointers into child_environment()'s strings.
pid_t spawn(const std::string& program, const std::vector<std::string>& args, const Child& c,
            char* const* envp) {
  std::vector<std::string> full = {program};
  full.insert(full.end(), args.begin(), args.end());
  // The parent records the certification of all seeds at once (certify.hpp).
  full.insert(full.end(), {"--seed", std::to_string(c.seed), "--json", c.json_path, "--no-record"});
  std::vector<char*> argv;
  for (std::string& a : full) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, c.log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  const int err = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) {
    throw std::runtime_error("cannot start " + program + ": " + std::strerror(err));
  }
  return pid;
}

// What the child left: its JSON, or a verdict made from how it ended.
SeedResult collect(const Child& c, int status) {
  SeedResult r;
  r.seed = c.seed;
  std::ifstream in(c.json_path);
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
    r.doc = {{"seed", c.seed},
             {"verdict", "crashed"},
             {"failures", json::array()},
             {"crash", {{"signal", how}, {"op", ""}, {"check", "(unknown: no report)"}}}};
  } else if (r.verdict == "passed" && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    r.verdict = "failed";  // a verdict file that disagrees with the exit status is not a pass
    r.doc["verdict"] = "failed";
  }
  return r;
}

// The lines of a child's log that explain a failure.
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

void print_seed(const SeedResult& r, const std::string& log_path) {
  const json& d = r.doc;
  std::cout << "seed " << r.seed << ": ";
  if (r.verdict == "passed") {
    std::cout << "PASSED (" << d.value("checks", 0) << " checks)\n";
  } else if (r.verdict == "skipped") {
    std::cout << "SKIPPED: " << d.value("reason", std::string("unavailable")) << "\n";
  } else if (r.verdict == "crashed") {
    const json& crash = d["crash"];
    std::cout << "CRASHED (" << crash.value("signal", std::string("?")) << " while running "
              << crash.value("op", std::string("")) << " " << crash.value("check", std::string(""))
              << ")\n";
  } else {
    std::cout << "FAILED (" << d.value("failed", 0) << " of " << d.value("checks", 0)
              << " checks)\n";
  }
  // Flushed seed by seed: a sweep's log read while it runs, or after the
  // machine it ran on went away, still shows every seed that ended.
  if (r.verdict == "passed" || r.verdict == "skipped") {
    std::cout << std::flush;
    return;
  }
  const std::vector<std::string> lines = failure_lines(log_path);
  constexpr size_t kShown = 24;
  for (size_t i = 0; i < lines.size() && i < kShown; ++i) std::cout << "  " << lines[i] << "\n";
  if (lines.size() > kShown) std::cout << "  ... (" << lines.size() - kShown << " more lines)\n";
  std::cout << std::flush;
}

struct Worst {
  double ratio = -1.0;
  uint64_t seed = 0;
  std::string check;
};

// A stop signal to the sweep: its children are stopped (each ends with its
// own verdict, watchdog.hpp) and the sweep still prints its summary.
volatile sig_atomic_t g_stop_signal = 0;
void on_stop_signal(int sig) { g_stop_signal = sig; }

// Records the verdict of all seeds at once, for the contents every seed
// loaded (each child names them in its JSON: the parent never loads the
// backend itself); a sweep that does not certify says so instead.
void record_sweep(const Options& options, const std::vector<SeedResult>& done, bool passed) {
  if (!certifies(options)) {
    say_not_certified(options);
    return;
  }
  const cae::Registry registry = cae::Registry::discover(discovery_for(options));
  const cae::BackendRecord* backend = find_backend(registry, options.backend);
  if (!backend) return;
  std::string loaded_sha256;
  std::vector<uint64_t> seeds;
  for (const SeedResult& r : done) {
    seeds.push_back(r.seed);
    const std::string seen = r.doc.value("sha256", std::string());
    if (loaded_sha256.empty()) loaded_sha256 = seen;
    if (!seen.empty() && seen != loaded_sha256) {
      std::cout << "cae-conformance: " << backend->plugin.path << " changed during the sweep (seed "
                << r.seed << " checked other contents): nothing recorded" << std::endl;
      return;
    }
  }
  std::sort(seeds.begin(), seeds.end());
  record_certification(backend->plugin.path, loaded_sha256, backend->name,
                       backend->table().version ? backend->table().version : "", seeds, passed);
}

}  // namespace

int run_sweep(const Options& options, int argc, char** argv) {
  const uint64_t first = options.seed ? *options.seed : 1;
  const std::string program = fs::read_symlink("/proc/self/exe").string();
  char dir_template[] = "/tmp/cae-conformance-sweep-XXXXXX";
  if (!mkdtemp(dir_template)) {
    std::cerr << "cae-conformance: cannot make a temporary folder: " << std::strerror(errno)
              << "\n";
    return 1;
  }
  const std::string dir = dir_template;
  const std::vector<std::string> args = child_args(argc, argv);
  std::cout << "cae-conformance: sweep of " << options.sweep << " seeds (" << first << ".."
            << first + options.sweep - 1 << ") of " << options.backend << ", " << options.jobs
            << " at a time" << std::endl;

  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaction(sig, &action, nullptr);

  std::map<pid_t, Child> running;
  std::vector<SeedResult> done;
  std::vector<std::string> env = child_environment(options.jobs);
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  uint64_t next = 0;
  int status_code = 0;
  bool stopping = false;
  try {
    while (next < options.sweep || !running.empty()) {
      if (g_stop_signal != 0 && !stopping) {
        stopping = true;
        next = options.sweep;  // start no more seeds
        for (const auto& [pid, c] : running) kill(pid, SIGTERM);
      }
      while (next < options.sweep && running.size() < options.jobs) {
        const uint64_t seed = first + next++;
        Child c{seed, dir + "/" + std::to_string(seed) + ".json",
                dir + "/" + std::to_string(seed) + ".log"};
        running[spawn(program, args, c, envp.data())] = c;
      }
      int status = 0;
      const pid_t pid = waitpid(-1, &status, 0);
      if (pid < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
      }
      auto it = running.find(pid);
      if (it == running.end()) continue;
      SeedResult r = collect(it->second, status);
      print_seed(r, it->second.log_path);
      done.push_back(std::move(r));
      running.erase(it);
    }
  } catch (const std::exception& e) {
    std::cerr << "cae-conformance: " << e.what() << "\n";
    for (const auto& [pid, c] : running) kill(pid, SIGKILL);
    status_code = 1;
  }

  std::map<std::string, Worst> worst;
  std::map<std::string, std::vector<uint64_t>> by_verdict;
  for (const SeedResult& r : done) {
    by_verdict[r.verdict].push_back(r.seed);
    if (!r.doc.contains("worst")) continue;
    for (const json& w : r.doc["worst"]) {
      Worst& slot = worst[w.value("op", std::string("?"))];
      const double ratio = w.value("ratio", 0.0);
      if (ratio > slot.ratio) slot = {ratio, r.seed, w.value("check", std::string(""))};
    }
  }
  std::cout << "\nworst error per op (err/bound, <= 1 passes), over " << done.size() << " seeds:\n";
  char line[512];
  for (const auto& [op, w] : worst) {
    std::snprintf(line, sizeof line, "  %-20s %9.2e  seed %-8llu %s\n", op.c_str(), w.ratio,
                  static_cast<unsigned long long>(w.seed), w.check.c_str());
    std::cout << line;
  }
  const size_t passed = by_verdict["passed"].size(), skipped = by_verdict["skipped"].size();
  const size_t bad = done.size() - passed - skipped;
  std::cout << "\ncae-conformance: " << options.backend << ": sweep of " << done.size()
            << " seeds: " << passed << " passed, " << by_verdict["failed"].size() << " failed, "
            << by_verdict["crashed"].size() << " crashed, " << skipped << " skipped";
  for (const char* verdict : {"failed", "crashed"}) {
    if (by_verdict[verdict].empty()) continue;
    std::cout << "\n  " << verdict << " seeds:";
    for (uint64_t s : by_verdict[verdict]) std::cout << " " << s;
  }
  if (bad > 0) {
    const uint64_t s =
        by_verdict["failed"].empty() ? by_verdict["crashed"][0] : by_verdict["failed"][0];
    std::cout << "\n  repeat one with: cae-conformance --backend " << options.backend << " --seed "
              << s;
  }
  std::cout << std::endl;

  if (!options.json.empty()) {
    json doc = {{"backend", options.backend}, {"seeds", json::array()}, {"worst", json::array()}};
    for (const SeedResult& r : done) {
      json entry = r.doc;
      entry["seed"] = r.seed;
      entry["verdict"] = r.verdict;
      doc["seeds"].push_back(entry);
    }
    for (const auto& [op, w] : worst) {
      doc["worst"].push_back(
          {{"op", op}, {"ratio", w.ratio}, {"seed", w.seed}, {"check", w.check}});
    }
    std::ofstream out(options.json, std::ios::trunc);
    out << doc.dump(1) << "\n";
    if (!out) {
      std::cerr << "cae-conformance: cannot write " << options.json << "\n";
      status_code = 1;
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (stopping) {
    std::cout << "cae-conformance: " << options.backend << ": sweep stopped by signal "
              << g_stop_signal << " after " << done.size() << " of " << options.sweep
              << " seeds: FAILED" << std::endl;
    return 128 + g_stop_signal;
  }
  if (status_code == 0 && skipped == 0 && done.size() == options.sweep) {
    record_sweep(options, done, bad == 0);
  }
  if (status_code != 0) return status_code;
  if (bad > 0 || done.size() < options.sweep) return 1;
  if (skipped == done.size()) {
    // The line tests/run-tests.sh and CTest logs show as the reason.
    std::cout << "SKIPPED: " << options.backend << ": "
              << done.front().doc.value("reason", std::string("unavailable here")) << std::endl;
    return 77;
  }
  return 0;
}

}  // namespace conformance
