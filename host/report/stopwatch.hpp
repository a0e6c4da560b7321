// Wall-clock seconds for stage timings and per-epoch figures.
#pragma once

#include <chrono>

namespace cae {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  void restart() { start_ = std::chrono::steady_clock::now(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  // Seconds since the last lap (or the start), and a new lap begins: for a
  // stage's consecutive parts.
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Seconds since the process began (the kernel's record of its start, so the
// dynamic loader's work before main counts), so that a stage table can
// account for the whole wall time: start-up before the first stage, and
// whatever follows the last.
double seconds_since_program_start();

// Seconds since the kernel started this process (to its clock tick, 10 ms
// on Linux, read at the tick's middle); 0 where /proc cannot tell.
double process_age_seconds();

}  // namespace cae
