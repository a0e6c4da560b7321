// A grouped bar chart: one group per category, one bar per series in each
// group (e.g. per op: one bar per backend; per class: one bar per run).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "report/color.hpp"
#include "report/figure.hpp"

namespace cae {

struct BarSeries {
  std::string name;            // legend entry
  std::vector<double> values;  // one per category; NaN (or <= 0 on a log axis) = no bar
  Rgb color;
};

struct BarChartOptions {
  int width = 860;
  int height = 340;
  std::string title;
  std::string y_label;
  // For values that differ by orders of magnitude (a naive kernel next to a
  // tensor-core one); bars then grow from the axis' bottom. Values within a
  // factor of 10 of each other get a linear axis from 0 all the same.
  bool log_scale = false;
  // Values the axis must reach even without data there (e.g. 0 and 100 for
  // percentages); NaN = none.
  double axis_includes_low = std::numeric_limits<double>::quiet_NaN();
  double axis_includes_high = std::numeric_limits<double>::quiet_NaN();
  // A legend (right of the plot) names the series; one series may not need it.
  bool legend = true;
};

// Category names that do not fit under their group are slanted. Throws
// std::invalid_argument when there are no categories, a series has a
// different number of values, or the size is below 240x160.
Figure bar_chart_figure(const std::vector<std::string>& categories,
                        const std::vector<BarSeries>& series, const BarChartOptions& options = {});

}  // namespace cae
