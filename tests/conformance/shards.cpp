#include "shards.hpp"

#include <sys/wait.h>
#include <unistd.h>

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
#include <string>
#include <vector>

#include "child_runs.hpp"
#include "random_data.hpp"
#include "watchdog.hpp"

namespace conformance {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

volatile sig_atomic_t g_stop_signal = 0;
void on_stop_signal(int sig) { g_stop_signal = sig; }

// A child's check lines: its log without the header (shown once, from the
// first child) and without its own summary, which the parent's replaces. A
// child that did not pass keeps every line after its header: its crash or
// time-limit lines come after the point where a summary would be; one that
// stopped before its header ended (a backend that could not be loaded) keeps
// those lines too.
void print_share(const std::string& log_path, bool with_header, bool whole) {
  std::ifstream in(log_path);
  std::string line;
  bool in_header = true;
  std::vector<std::string> header, lines;
  while (std::getline(in, line)) {
    if (in_header) {
      if (with_header) std::cout << line << "\n";
      header.push_back(line);
      if (line.empty()) in_header = false;
      continue;
    }
    if (!whole && line.rfind("cae-conformance: ", 0) == 0) break;
    lines.push_back(line);
  }
  if (in_header && whole && !with_header) lines = header;
  while (!lines.empty() && lines.back().empty()) lines.pop_back();  // the blank before a summary
  for (const std::string& l : lines) std::cout << l << "\n";
}

// The children's JSON documents merged into one run's: counts added,
// failures in the suite's order, the worst error per op over all of them.
json merged_document(const std::vector<ChildResult>& done, uint64_t seed) {
  json doc = {{"seed", seed},
              {"checks", 0},
              {"passed", 0},
              {"failed", 0},
              {"notes", 0},
              {"failures", json::array()},
              {"worst", json::array()},
              {"crash", nullptr},
              {"processes", done.size()}};
  std::map<std::string, json> worst;
  for (const ChildResult& r : done) {
    const json& d = r.doc;
    for (const char* key : {"backend", "sha256", "reason"}) {
      if (d.contains(key) && !doc.contains(key)) doc[key] = d[key];
    }
    for (const char* key : {"checks", "passed", "failed", "notes"}) {
      doc[key] = doc[key].get<int64_t>() + d.value(key, int64_t{0});
    }
    if (d.contains("failures")) {
      for (const json& f : d["failures"]) doc["failures"].push_back(f);
    }
    if (d.contains("crash") && !d["crash"].is_null() && doc["crash"].is_null()) {
      doc["crash"] = d["crash"];
    }
    if (!d.contains("worst")) continue;
    for (const json& w : d["worst"]) {
      const std::string op = w.value("op", std::string("?"));
      if (!worst.count(op) || w.value("ratio", 0.0) > worst[op].value("ratio", 0.0)) worst[op] = w;
    }
  }
  for (const auto& [op, w] : worst) doc["worst"].push_back(w);
  return doc;
}

}  // namespace

int run_shards(const Options& options, int argc, char** argv) {
  const uint64_t seed = options.seed ? *options.seed : fresh_seed();
  const uint32_t jobs = options.jobs;
  const std::string program = fs::read_symlink("/proc/self/exe").string();
  const std::string dir = make_children_dir("shards");
  if (dir.empty()) return 1;
  const std::vector<std::string> args = child_args(argc, argv);

  catch_stop_signals(on_stop_signal);

  std::vector<ChildRun> children;
  for (uint32_t k = 0; k < jobs; ++k) {
    const std::string stem = dir + "/" + std::to_string(k);
    children.push_back({seed,
                        stem + ".json",
                        stem + ".log",
                        {"--shard", std::to_string(k) + "/" + std::to_string(jobs)}});
  }
  const ChildEnvironment env(jobs);

  std::vector<ChildResult> done(jobs);
  std::map<pid_t, uint32_t> running;
  int status_code = 0;
  bool stopping = false;
  try {
    for (uint32_t k = 0; k < jobs; ++k) running[spawn_child(program, args, children[k], env)] = k;
    while (!running.empty()) {
      if (g_stop_signal != 0 && !stopping) {
        stopping = true;  // each child ends with its own verdict (watchdog.hpp)
        for (const auto& [pid, k] : running) kill(pid, SIGTERM);
      }
      int status = 0;
      auto it = running.find(wait_for_child(status));  // none for an interrupted wait
      if (it == running.end()) continue;
      done[it->second] = collect_child(children[it->second], status);
      running.erase(it);
    }
  } catch (const std::exception& e) {
    std::cerr << "cae-conformance: " << e.what() << "\n";
    for (const auto& [pid, k] : running) kill(pid, SIGKILL);
    status_code = 1;
  }

  size_t passed = 0, skipped = 0;
  bool crashed = false;
  for (uint32_t k = 0; k < jobs; ++k) {
    const ChildResult& r = done[k];
    passed += r.verdict == "passed";
    skipped += r.verdict == "skipped";
    crashed = crashed || r.verdict == "crashed";
    print_share(children[k].log_path, k == 0, r.verdict != "passed");
  }
  json doc = merged_document(done, seed);
  // Every process passed its share, and the shares ran some check (a
  // --filter that matches nothing fails, as in a single run).
  const bool all_passed = status_code == 0 && passed == jobs && doc["passed"].get<int64_t>() > 0;
  const std::string verdict = all_passed        ? "passed"
                              : skipped == jobs ? "skipped"
                              : crashed         ? "crashed"
                                                : "failed";
  doc["verdict"] = verdict;
  const std::string name = doc.value("backend", options.backend);
  if (verdict == "skipped") {
    std::cout << "SKIPPED: " << name << ": " << doc.value("reason", std::string("unavailable here"))
              << std::endl;
  } else {
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.1f s", elapsed_seconds());
    std::cout << "\ncae-conformance: " << name << ": " << doc["checks"].get<int64_t>()
              << " checks, " << doc["passed"].get<int64_t>() << " passed, "
              << doc["failed"].get<int64_t>() << " failed, " << doc["notes"].get<int64_t>()
              << " notes (seed " << seed << ", " << elapsed << ", " << jobs
              << " processes): " << (all_passed ? "PASSED" : "FAILED") << std::endl;
    if (doc["checks"].get<int64_t>() == 0)
      std::cout << "  no check ran (does --filter match an op?)\n";
    if (!all_passed) {
      std::cout << "  repeat with: cae-conformance --backend " << options.backend << " --seed "
                << seed << "\n";
    }
  }
  if (!options.json.empty()) {
    if (!write_run_document(options.json, doc)) status_code = 1;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (stopping) {
    std::cout << "cae-conformance: " << name << ": stopped by signal " << g_stop_signal
              << ": FAILED" << std::endl;
    return 128 + g_stop_signal;
  }
  if (verdict == "skipped") return 77;
  // A run whose every process reached a verdict is judged, pass or fail, as
  // a single run's would be: a failed verdict outweighs an older pass.
  if (status_code == 0 && skipped == 0) record_children(options, done, all_passed, "the run");
  if (status_code != 0) return status_code;
  return all_passed ? 0 : 1;
}

}  // namespace conformance
