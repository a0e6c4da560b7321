#include "watchdog.hpp"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <thread>

#include "report.hpp"

namespace conformance {
namespace {

volatile sig_atomic_t g_stop_signal = 0;

void on_stop_signal(int sig) { g_stop_signal = sig; }

const char* stop_signal_name(int sig) {
  switch (sig) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    default:
      return "SIGHUP";
  }
}

struct Watchdog {
  std::thread thread;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
};

Watchdog& watchdog() {
  static Watchdog dog;
  return dog;
}

// Ends the process with the summary: the report stays locked, so the main
// thread (inside the backend, or about to record) prints nothing after it.
[[noreturn]] void end_suite(const std::function<int(bool)>& finish, int exit_status) {
  const int verdict_status = finish(exit_status != 0);
  std::cout << std::flush;
  std::fflush(nullptr);
  std::_Exit(exit_status != 0 ? exit_status : verdict_status);
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds);
  return text;
}

void watch(double check_timeout, double time_limit, std::function<int(bool)> finish) {
  Watchdog& dog = watchdog();
  std::unique_lock<std::mutex> lock(dog.mutex);
  while (!dog.stopping) {
    dog.wake.wait_for(lock, std::chrono::milliseconds(20));
    if (dog.stopping) return;
    const int sig = g_stop_signal;
    const RunningCheck running = running_check();
    const double limit = check_limit(check_timeout, running.work);
    const double total = elapsed_seconds();
    const bool enough_failures = failure_limit_reached(running.failures_before);
    if (sig == 0 && running.seconds <= limit && total <= time_limit && !enough_failures) continue;
    std::lock_guard<std::recursive_mutex> report(report_mutex());
    if (sig != 0) {
      record_from_watchdog(running.op, running.what,
                           std::string("interrupted by ") + stop_signal_name(sig) + " after " +
                               seconds_text(running.seconds));
      explain("the suite was stopped; the checks after this one were not run");
      end_suite(finish, 128 + sig);
    }
    if (enough_failures) {
      std::cout << "cae-conformance: " << running.failures_before
                << " failed checks (--max-failures " << max_failures()
                << "): the suite stops here, the checks after them were not run" << std::endl;
      end_suite(finish, 0);
    }
    if (total > time_limit) {
      record_from_watchdog(running.op, running.what,
                           "the run passed its time limit of " + seconds_text(time_limit) +
                               " (--time-limit) after " + seconds_text(total));
      explain("the backend is too slow to finish the checks in time; the suite stops here, "
              "the checks after this one were not run");
      end_suite(finish, 0);
    }
    record_from_watchdog(running.op, running.what,
                         "timed out after " + seconds_text(running.seconds) + " (limit " +
                             seconds_text(limit) + ", --check-timeout)");
    explain("the backend did not return from " + running.op +
            "; the suite stops here, the checks after this one were not run");
    end_suite(finish, 0);
  }
}

}  // namespace

double check_limit(double check_timeout, double work) {
  return check_timeout * std::max(1.0, std::ceil(work / kWorkPerTimeout));
}

double elapsed_seconds() {
  static const auto started = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

void start_watchdog(double check_timeout, double time_limit, uint64_t max_failures,
                    std::function<int(bool)> finish) {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaction(sig, &action, nullptr);
  set_max_failures(max_failures);
  watchdog().thread = std::thread(watch, check_timeout, time_limit, std::move(finish));
}

void stop_watchdog() {
  Watchdog& dog = watchdog();
  {
    std::lock_guard<std::mutex> lock(dog.mutex);
    dog.stopping = true;
  }
  dog.wake.notify_all();
  if (dog.thread.joinable()) dog.thread.join();
}

}  // namespace conformance
