// A line chart of the loss per epoch.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/color.hpp"
#include "report/figure.hpp"

namespace cae {

struct LossSeries {
  std::string name;            // legend entry
  std::vector<double> values;  // values[i] belongs to epoch i + 1; NaN = not measured
  Rgb color;
  bool dashed = false;  // e.g. test MSE next to a solid training loss
};

struct LossCurveOptions {
  int width = 720;
  int height = 420;
  // Log scale suits losses that fall by orders of magnitude; non-positive
  // values are then left out.
  bool log_scale = false;
  std::string title = "Loss per epoch";
  std::string x_label = "epoch";
  std::string y_label = "loss";
};

// Every series against epochs 1..N with axes, grid, ticks and a legend that
// also shows each series' last value. Missing values are skipped and their
// neighbours joined. With no plottable value at all the chart says so instead
// of failing, so a run stopped early still gets its report.
// Throws std::invalid_argument for a size below 200x150.
Figure loss_curve_figure(const std::vector<LossSeries>& series,
                         const LossCurveOptions& options = {});

// The usual pair: training loss and test-set MSE, in two distinct colours.
std::vector<LossSeries> train_and_test_series(const std::vector<double>& train_loss,
                                              const std::vector<double>& test_mse);

// True when the positive values span more than a factor of 10: the first
// epoch's loss is often 10-100x the last, and a log axis keeps the tail readable.
bool prefers_log_scale(const std::vector<LossSeries>& series);

// Writes the PNG, the SVG next to it and the numbers behind them as CSV
// (loss_series_csv, same name with .csv), so `cae report` can redraw the
// chart later; IoError (a std::runtime_error) names the path on failure.
void write_loss_curve_png(const std::filesystem::path& path, const std::vector<LossSeries>& series,
                          const LossCurveOptions& options = {});

}  // namespace cae
