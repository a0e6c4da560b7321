// Where a chart's axis gets its tick marks, and how their numbers read.
#pragma once

#include <string>
#include <vector>

namespace cae {

struct AxisTicks {
  // The axis runs from `low` to `high` (for a log axis: the values, not their
  // logarithms); every tick lies within.
  double low = 0.0;
  double high = 1.0;
  std::vector<double> values;
  std::vector<std::string> labels;
};

// "Nice" ticks (1, 2 or 5 times a power of ten apart, about `target_count` of
// them) for data spanning [data_low, data_high]; the axis is widened to the
// ticks just outside the data. A single value gets a range around it. The
// axis spans at most +-1e300 (points beyond lie outside it).
AxisTicks linear_ticks(double data_low, double data_high, int target_count = 6);

// Ticks for a logarithmic axis over positive data: powers of ten, with 2 and
// 5 times them (or every digit) added when the data spans too few decades.
// The axis spans at most 1e-250..1e250.
AxisTicks log_ticks(double data_low, double data_high);

// Integer ticks from `first` to `last` (e.g. epochs), at most about 10.
AxisTicks integer_ticks(int first, int last);

// A compact number label: fixed decimals suited to `step` (the distance
// between neighbouring ticks), scientific notation for very small or large
// magnitudes.
std::string format_tick(double value, double step);

}  // namespace cae
