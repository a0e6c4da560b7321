// A backend that never returns cannot keep the suite from its verdict.
//
// Every check runs under a time limit scaled to its work: --check-timeout
// seconds (default 60) for each started billion floating-point operations the
// check asks of the backend (a check that declares no work gets one such
// share). A watchdog thread compares the running check's time with its limit;
// past it, the check is recorded as FAILED naming the op and the time, and the
// suite ends at once with its summary line and JSON (the backend still holds
// the main thread, so no later check could run). SIGTERM, SIGINT and SIGHUP
// end the suite the same way: the running check is FAILED as interrupted, the
// summary and JSON follow, and the exit status is 128 + the signal.
//
// The whole run has a time limit too (--time-limit, default
// kDefaultTimeLimit): a backend slow in every call, each within its own
// check's limit, would otherwise keep certification going for hours. Past
// it, the running check is FAILED naming the limit and the suite ends the
// same way. The default leaves the cpu backend's run of one seed on two
// busy cores shared with a second seed (three to four minutes, about four
// times that under AddressSanitizer) more than twice what it needs.
//
// --max-failures N ends a run the same way once N checks have failed, at the
// start of the next check (so every failure's explanation is printed): a
// sweep over backends known to be wrong (tests/mutants) needs the verdict
// and the first failures, not every check of every seed.
#pragma once

#include <cstdint>
#include <functional>

namespace conformance {

constexpr double kDefaultCheckTimeout = 60.0;
constexpr double kWorkPerTimeout = 1e9;  // floating-point operations per --check-timeout
constexpr double kDefaultTimeLimit = 1800.0;  // seconds for a whole run (one seed)

// The limit, in seconds, of a check of `work` floating-point operations.
double check_limit(double check_timeout, double work);

// Starts the watchdog and the signal handlers; the run's `time_limit`
// counts from the first call of elapsed_seconds(). `finish` prints the summary,
// writes the JSON and returns the exit status; it runs with the report locked
// (report.hpp), once, on the watchdog's thread when a limit or a signal ends
// the suite; `interrupted` says a signal did (so no verdict on the backend).
void start_watchdog(double check_timeout, double time_limit, uint64_t max_failures,
                    std::function<int(bool interrupted)> finish);

// Seconds since the run started (the first call).
double elapsed_seconds();

// Stops the watchdog before the normal summary (a signal arriving later no
// longer ends the run early: the summary is written by the caller).
void stop_watchdog();

}  // namespace conformance
