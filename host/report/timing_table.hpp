// Stage timings as a small text table for the terminal.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cae {

// One (stage name, seconds) per stage, in the order they ran.
using StageTimings = std::vector<std::pair<std::string, double>>;

// Columns stage / seconds / share (of the sum), aligned, followed by a total
// line; every line ends in '\n'. With no stages: just the header and a zero
// total. Shares are "-" when the total is not positive.
std::string format_timing_table(const StageTimings& stages);

// Sets the "other" row (added when missing) to what no stage covered since
// the program started (report/stopwatch.hpp): log lines between stages,
// freeing what the stages held, publishing the files. The table then sums
// to the wall time so far.
void account_the_rest(StageTimings& timings);

}  // namespace cae
