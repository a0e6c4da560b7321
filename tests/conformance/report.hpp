// Readable output, one line per check:
//   conv2d_forward      x[3,1,7,5] w[4,1,3,3] relu        err/bound 2.1e-03 <= 1 ...  ok
// the tally behind the final summary, the results kept for --json, and the
// crash report. A failed check is also reported to doctest, so doctest's own
// exit status and failure details agree with ours.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

namespace conformance {

struct Tally {
  int passed = 0;
  int failed = 0;
  int notes = 0;  // information only (optional members, allowed "unsupported" answers)
};

Tally& tally();

// One recorded check. `ratio` is the worst error over its bound (<= 1 passes)
// for checks against the reference, NaN for the others.
struct CheckResult {
  std::string op, what, detail, explanation;
  bool ok = false;
  double ratio = std::numeric_limits<double>::quiet_NaN();
};
const std::vector<CheckResult>& results();

// Prints the line and counts it; returns `ok`.
bool record(bool ok, const std::string& op, const std::string& what, const std::string& detail,
            double ratio = std::numeric_limits<double>::quiet_NaN());
// An indented line under the previous one (why a check failed).
void explain(const std::string& text);
// A line that is neither a pass nor a failure.
void note(const std::string& op, const std::string& what, const std::string& detail);

// Held while a line is printed and recorded, so that the watchdog
// (watchdog.hpp) can end the suite between two lines, never inside one.
std::recursive_mutex& report_mutex();

// record() for the watchdog's thread: a FAILED check doctest is not told of
// (doctest's assertions belong to the thread running the test case).
void record_from_watchdog(const std::string& op, const std::string& what,
                          const std::string& detail);

// Runs `body`; an exception escaping it (a BackendError from a call that should
// have succeeded, a guard zone found overwritten, or a bug in the suite)
// becomes one failed check naming it. Also marks the check as running, so a
// crash inside `body` names it. `work`: the floating-point operations the check
// asks of the backend, which scale its time limit (watchdog.hpp).
void guarded(const std::string& op, const std::string& what, const std::function<void()>& body,
             double work = 0.0);

// The op is in the table (a NULL member means "unsupported", which fails).
bool require_member(const std::string& op, bool present);

// "2.1e-08": short scientific notation for measurements.
std::string sci(double value);
// "0.9", "0.01": parameters as people write them.
std::string num(double value);

// ---- a crash is a verdict too ----------------------------------------------

// From here on, a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: a
// backend's bad access, heap corruption caught by free()) prints which check
// was running, a FAILED summary and, with a json_path, a crash record there,
// then ends the process with exit status 1. Only async-signal-safe calls run
// in the handler; everything it prints is prepared here.
void install_crash_report(const std::string& backend, uint64_t seed, const std::string& json_path);

// The check now running (set by guarded(); also usable around other calls),
// with the work that scales its time limit.
void set_running(const std::string& op, const std::string& what, double work = 0.0);

// --max-failures (watchdog.hpp): once this many checks have failed, the next
// check's set_running() waits there for the watchdog to end the run, so no
// check after them starts. 0: no limit.
void set_max_failures(uint64_t max_failures);
uint64_t max_failures();
// Whether `failures` failed checks reach the --max-failures limit.
bool failure_limit_reached(int failures);

struct RunningCheck {
  std::string op, what;
  double seconds = 0.0;  // since set_running
  double work = 0.0;
  // Failed checks recorded before this one began: their explanations are
  // printed, so the run may end here without cutting one short.
  int failures_before = 0;
};
RunningCheck running_check();

}  // namespace conformance
