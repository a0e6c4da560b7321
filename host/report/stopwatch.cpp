#include "stopwatch.hpp"

namespace cae {
namespace {

// Started while the program is initialised, before main.
const Stopwatch program_clock;

}  // namespace

double seconds_since_program_start() { return program_clock.seconds(); }

}  // namespace cae
