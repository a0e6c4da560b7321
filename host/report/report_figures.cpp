#include "report/report_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "report/color.hpp"

namespace cae {

Figure per_class_accuracy_figure(const std::vector<std::string>& class_names,
                                 const std::vector<BarSeries>& accuracy_fractions) {
  std::vector<BarSeries> percent = accuracy_fractions;
  for (BarSeries& s : percent) {
    for (double& v : s.values) v *= 100.0;
  }
  BarChartOptions options;
  options.title = "Accuracy per class";
  options.y_label = "accuracy (%)";
  options.height = 320;
  options.axis_includes_low = 0.0;
  options.axis_includes_high = 100.0;
  // One run needs no legend; several are told apart by it.
  options.legend = accuracy_fractions.size() > 1;
  return bar_chart_figure(class_names, percent, options);
}

Figure stage_timings_figure(const std::vector<std::string>& run_names,
                            const std::vector<StageTimings>& timings) {
  std::vector<std::string> stages;
  for (const StageTimings& run : timings) {
    for (const auto& stage : run) {
      if (std::find(stages.begin(), stages.end(), stage.first) == stages.end()) {
        stages.push_back(stage.first);
      }
    }
  }
  if (stages.empty()) stages.push_back("(none)");
  std::vector<BarSeries> series;
  for (std::size_t r = 0; r < timings.size(); ++r) {
    BarSeries s{r < run_names.size() ? run_names[r] : std::to_string(r + 1),
                std::vector<double>(stages.size(), std::numeric_limits<double>::quiet_NaN()),
                series_color(r)};
    for (const auto& [name, seconds] : timings[r]) {
      auto at = std::find(stages.begin(), stages.end(), name) - stages.begin();
      s.values[static_cast<std::size_t>(at)] = seconds;
    }
    series.push_back(std::move(s));
  }
  BarChartOptions options;
  options.title = "Stage timings";
  options.y_label = "seconds";
  // Stages range from milliseconds (report) to minutes (training).
  options.log_scale = true;
  return bar_chart_figure(stages, series, options);
}

}  // namespace cae
