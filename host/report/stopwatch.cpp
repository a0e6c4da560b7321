#include "stopwatch.hpp"

#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace cae {
namespace {

using Clock = std::chrono::steady_clock;

// The dynamic loader maps the program's libraries before any static
// initialiser runs (cae links about thirty, OpenBLAS starting its threads
// among them): a clock started there misses that part of the wall time a
// user measures from outside. The kernel records when the process began
// (/proc/self/stat, field 22, in clock ticks on CLOCK_BOOTTIME); the clock
// starts that long before now, at the middle of its tick. A process forked
// long before it ran cae (its start then says nothing of cae's own) and a
// system without /proc leave the clock at the initialiser, as before.
constexpr double kLongestPlausibleLoad = 1.0;  // seconds

Clock::time_point program_start_time() {
  const double loading = process_age_seconds();
  return Clock::now() - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                            loading < kLongestPlausibleLoad ? loading : 0.0));
}

// Set while the program is initialised, before main.
const Clock::time_point program_start = program_start_time();

}  // namespace

double process_age_seconds() {
  std::ifstream stat_file("/proc/self/stat");
  std::string line;
  if (!std::getline(stat_file, line)) return 0.0;
  // The command name (field 2) is in parentheses and may hold spaces.
  const size_t name_end = line.rfind(')');
  if (name_end == std::string::npos) return 0.0;
  std::istringstream fields(line.substr(name_end + 1));
  std::string skipped;
  for (int field = 3; field < 22; ++field) fields >> skipped;
  unsigned long long start_ticks = 0;
  if (!(fields >> start_ticks)) return 0.0;
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  timespec now{};
  if (ticks_per_second <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0) return 0.0;
  const double began = (double(start_ticks) + 0.5) / double(ticks_per_second);
  const double elapsed = double(now.tv_sec) + 1e-9 * double(now.tv_nsec) - began;
  return elapsed > 0.0 ? elapsed : 0.0;
}

double seconds_since_program_start() {
  return std::chrono::duration<double>(Clock::now() - program_start).count();
}

}  // namespace cae
