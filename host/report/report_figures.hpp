// Figures built from a run's summary numbers, shared by the run report and
// the comparison of runs.
#pragma once

#include <string>
#include <vector>

#include "report/bar_chart.hpp"
#include "report/timing_table.hpp"

namespace cae {

// One group per class, one bar per series (a run), accuracy in percent.
Figure per_class_accuracy_figure(const std::vector<std::string>& class_names,
                                 const std::vector<BarSeries>& accuracy_fractions);

// One group per stage (in order of first appearance), one bar per run.
Figure stage_timings_figure(const std::vector<std::string>& run_names,
                            const std::vector<StageTimings>& timings);

}  // namespace cae
