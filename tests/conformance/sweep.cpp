#include "sweep.hpp"

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
#include "child_runs.hpp"

namespace conformance {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void print_seed(const ChildResult& r, const std::string& log_path) {
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

}  // namespace

int run_sweep(const Options& options, int argc, char** argv) {
  const uint64_t first = options.seed ? *options.seed : 1;
  const std::string program = fs::read_symlink("/proc/self/exe").string();
  const std::string dir = make_children_dir("sweep");
  if (dir.empty()) return 1;
  const std::vector<std::string> args = child_args(argc, argv);
  std::cout << "cae-conformance: sweep of " << options.sweep << " seeds (" << first << ".."
            << first + options.sweep - 1 << ") of " << options.backend << ", " << options.jobs
            << " at a time" << std::endl;

  catch_stop_signals(on_stop_signal);

  std::map<pid_t, ChildRun> running;
  std::vector<ChildResult> done;
  const ChildEnvironment env(options.jobs);
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
        ChildRun c{seed,
                   dir + "/" + std::to_string(seed) + ".json",
                   dir + "/" + std::to_string(seed) + ".log",
                   {}};
        running[spawn_child(program, args, c, env)] = c;
      }
      int status = 0;
      auto it = running.find(wait_for_child(status));  // none for an interrupted wait
      if (it == running.end()) continue;
      ChildResult r = collect_child(it->second, status);
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
  for (const ChildResult& r : done) {
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
    for (const ChildResult& r : done) {
      json entry = r.doc;
      entry["seed"] = r.seed;
      entry["verdict"] = r.verdict;
      doc["seeds"].push_back(entry);
    }
    for (const auto& [op, w] : worst) {
      doc["worst"].push_back(
          {{"op", op}, {"ratio", w.ratio}, {"seed", w.seed}, {"check", w.check}});
    }
    if (!write_run_document(options.json, doc)) status_code = 1;
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
    record_children(options, done, bad == 0, "the sweep");
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
