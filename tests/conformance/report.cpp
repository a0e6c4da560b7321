#include "report.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <thread>

namespace conformance {
namespace {

std::string padded(const std::string& text, size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

void print_line(const std::string& op, const std::string& what, const std::string& detail,
                const char* verdict) {
  // Flushed line by line so a crash or a timeout still shows the last check.
  std::cout << padded(op, 20) << padded(what, 50) << padded(detail, 30) << verdict << std::endl;
}

std::vector<CheckResult>& mutable_results() {
  static std::vector<CheckResult> all;
  return all;
}

}  // namespace

Tally& tally() {
  static Tally counts;
  return counts;
}

const std::vector<CheckResult>& results() { return mutable_results(); }

std::recursive_mutex& report_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

namespace {

void record_line(bool ok, const std::string& op, const std::string& what,
                 const std::string& detail, double ratio) {
  std::lock_guard<std::recursive_mutex> lock(report_mutex());
  print_line(op, what, detail, ok ? "ok" : "FAIL");
  ++(ok ? tally().passed : tally().failed);
  CheckResult result;
  result.op = op;
  result.what = what;
  result.detail = detail;
  result.ok = ok;
  result.ratio = ratio;
  mutable_results().push_back(std::move(result));
}

}  // namespace

void record_from_watchdog(const std::string& op, const std::string& what,
                          const std::string& detail) {
  record_line(false, op, what, detail, std::numeric_limits<double>::quiet_NaN());
}

bool record(bool ok, const std::string& op, const std::string& what, const std::string& detail,
            double ratio) {
  record_line(ok, op, what, detail, ratio);
  // doctest counts it too, for its other reporters (console, junit); checks
  // made before doctest runs (a probe that fails) are ours alone.
  if (doctest::is_running_in_test) {
    const std::string message = op + " " + what + ": " + detail;
    CHECK_MESSAGE(ok, message);
  }
  return ok;
}

void explain(const std::string& text) {
  std::lock_guard<std::recursive_mutex> lock(report_mutex());
  std::cout << "    " << text << std::endl;
  if (!mutable_results().empty()) {
    std::string& explanation = mutable_results().back().explanation;
    explanation += (explanation.empty() ? "" : "; ") + text;
  }
}

void note(const std::string& op, const std::string& what, const std::string& detail) {
  std::lock_guard<std::recursive_mutex> lock(report_mutex());
  print_line(op, what, detail, "note");
  ++tally().notes;
}

void guarded(const std::string& op, const std::string& what, const std::function<void()>& body,
             double work) {
  set_running(op, what, work);
  try {
    body();
  } catch (const std::exception& e) {
    record(false, op, what, "error");
    explain(e.what());
  }
  // What runs between checks (doctest, the next check's setup) is timed anew.
  set_running(op, "after " + what);
}

bool require_member(const std::string& op, bool present) {
  if (!present) record(false, op, "", "unsupported (NULL member in the table)");
  return present;
}

std::string sci(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", value);
  return text;
}

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// ---- crash report ------------------------------------------------------------

namespace {

// Everything the handler writes, prepared outside it.
constexpr size_t kTextMax = 512;
char g_running[kTextMax] = "starting up";
char g_running_json[kTextMax] = "\"op\": \"\", \"check\": \"starting up\"";
char g_summary_tail[kTextMax] = "";  // ": crashed (seed S): FAILED\n"
char g_json_head[kTextMax] = "";     // {"backend": ..., "seed": S, "verdict": "crashed", "crash": {
char g_json_path[4096] = "";
char g_alt_stack[1 << 16];

void copy_text(char* to, const std::string& text) {
  const size_t n = text.size() < kTextMax - 1 ? text.size() : kTextMax - 1;
  std::memcpy(to, text.data(), n);
  to[n] = '\0';
}

std::string json_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out;
}

void write_text(int fd, const char* text) {
  size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t n = write(fd, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<size_t>(n);
  }
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
    default:
      return "a fatal signal";
  }
}

const int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

void on_fatal_signal(int sig) {
  const char* name = signal_name(sig);
  write_text(STDOUT_FILENO, "\nCRASH: ");
  write_text(STDOUT_FILENO, name);
  write_text(STDOUT_FILENO, " while running ");
  write_text(STDOUT_FILENO, g_running);
  write_text(STDOUT_FILENO, "\n");
  write_text(STDOUT_FILENO, g_summary_tail);
  if (g_json_path[0] != '\0') {
    const int fd = open(g_json_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      write_text(fd, g_json_head);
      write_text(fd, "\"signal\": \"");
      write_text(fd, name);
      write_text(fd, "\", ");
      write_text(fd, g_running_json);
      write_text(fd, "}}\n");
      close(fd);
    }
  }
  _exit(1);
}

}  // namespace

namespace {

struct Running {
  std::mutex mutex;
  std::string op = "backend", what = "starting up";
  std::chrono::steady_clock::time_point since = std::chrono::steady_clock::now();
  double work = 0.0;
  int failures_before = 0;
};

Running& running() {
  static Running now;
  return now;
}

std::atomic<uint64_t> g_max_failures{0};

}  // namespace

void set_max_failures(uint64_t max_failures) { g_max_failures = max_failures; }

uint64_t max_failures() { return g_max_failures; }

bool failure_limit_reached(int failures) {
  const uint64_t limit = g_max_failures;
  return limit > 0 && static_cast<uint64_t>(failures) >= limit;
}

RunningCheck running_check() {
  Running& now = running();
  std::lock_guard<std::mutex> lock(now.mutex);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - now.since;
  return RunningCheck{now.op, now.what, elapsed.count(), now.work, now.failures_before};
}

void set_running(const std::string& op, const std::string& what, double work) {
  int failures_before = 0;
  {
    std::lock_guard<std::recursive_mutex> lock(report_mutex());
    failures_before = tally().failed;
  }
  {
    Running& now = running();
    std::lock_guard<std::mutex> lock(now.mutex);
    now.op = op;
    now.what = what;
    now.since = std::chrono::steady_clock::now();
    now.work = work;
    now.failures_before = failures_before;
  }
  copy_text(g_running, op + " " + what);
  copy_text(g_running_json,
            "\"op\": \"" + json_escaped(op) + "\", \"check\": \"" + json_escaped(what) + "\"");
  if (failure_limit_reached(failures_before)) {
    // The watchdog ends the process within its next look (20 ms).
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

void install_crash_report(const std::string& backend, uint64_t seed, const std::string& json_path) {
  const std::string seed_text = std::to_string(seed);
  copy_text(g_summary_tail, "cae-conformance: " + backend + ": crashed (seed " + seed_text +
                                "; repeat with --seed " + seed_text + "): FAILED\n");
  copy_text(g_json_head, "{\"backend\": \"" + json_escaped(backend) + "\", \"seed\": " + seed_text +
                             ", \"verdict\": \"crashed\", \"failures\": [], \"crash\": {");
  if (json_path.size() < sizeof g_json_path) {
    std::memcpy(g_json_path, json_path.c_str(), json_path.size() + 1);
  }
  // Its own stack: a stack overflow must still be reported.
  stack_t alt{};
  alt.ss_sp = g_alt_stack;
  alt.ss_size = sizeof g_alt_stack;
  sigaltstack(&alt, nullptr);
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (int sig : kFatalSignals) sigaction(sig, &action, nullptr);
}

}  // namespace conformance
