#include "report/loss_curve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "report/loss_csv.hpp"
#include "report/plot_frame.hpp"

namespace cae {
namespace {

constexpr double kLossCurvePadding = 14.0;
constexpr int kMaxEpochsWithMarkers = 60;

int epoch_count(const std::vector<LossSeries>& series) {
  std::size_t epochs = 0;
  for (const LossSeries& s : series) epochs = std::max(epochs, s.values.size());
  return static_cast<int>(epochs);
}

std::vector<double> all_values(const std::vector<LossSeries>& series) {
  std::vector<double> values;
  for (const LossSeries& s : series) values.insert(values.end(), s.values.begin(), s.values.end());
  return values;
}

std::string last_value_text(const LossSeries& series, const ValueScale& scale) {
  for (auto it = series.values.rbegin(); it != series.values.rend(); ++it) {
    if (scale.plottable(*it)) {
      char text[48];
      std::snprintf(text, sizeof text, "%.4g", *it);
      return text;
    }
  }
  return "n/a";
}

double x_pixel(const PlotBox& box, const AxisTicks& ticks, double epoch) {
  return box.left + (epoch - ticks.low) / (ticks.high - ticks.low) * box.width();
}

void draw_epoch_axis(cairo_t* cr, const PlotBox& box, const AxisTicks& ticks) {
  cairo_save(cr);
  cairo_set_line_width(cr, 1.0);
  for (std::size_t i = 0; i < ticks.values.size(); ++i) {
    double x = std::round(x_pixel(box, ticks, ticks.values[i])) + 0.5;
    set_color(cr, kGridColor);
    cairo_move_to(cr, x, box.top);
    cairo_line_to(cr, x, box.bottom);
    cairo_stroke(cr);
    set_color(cr, kAxisColor);
    cairo_move_to(cr, x, box.bottom);
    cairo_line_to(cr, x, box.bottom + kTickLength);
    cairo_stroke(cr);
    draw_text(cr, x, box.bottom + kTickLength + kChartGap / 2, ticks.labels[i], kTickText,
              Align::kCenter, Align::kStart);
  }
  cairo_restore(cr);
}

void draw_series(cairo_t* cr, const PlotBox& box, const AxisTicks& x_ticks, const ValueScale& scale,
                 const LossSeries& series, bool markers) {
  cairo_save(cr);
  cairo_rectangle(cr, box.left, box.top, box.width(), box.height());
  cairo_clip(cr);
  set_color(cr, series.color);
  cairo_set_line_width(cr, 2.5);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  double dashes[] = {7.0, 5.0};
  cairo_set_dash(cr, dashes, series.dashed ? 2 : 0, 0.0);
  bool started = false;
  for (std::size_t i = 0; i < series.values.size(); ++i) {
    double v = series.values[i];
    if (!scale.plottable(v)) continue;
    double x = x_pixel(box, x_ticks, static_cast<double>(i + 1));
    if (started) {
      cairo_line_to(cr, x, scale.y(v));
    } else {
      cairo_move_to(cr, x, scale.y(v));
      started = true;
    }
  }
  cairo_stroke(cr);
  if (markers) {
    for (std::size_t i = 0; i < series.values.size(); ++i) {
      double v = series.values[i];
      if (!scale.plottable(v)) continue;
      cairo_arc(cr, x_pixel(box, x_ticks, static_cast<double>(i + 1)), scale.y(v), 3.5, 0.0,
                2 * M_PI);
      cairo_fill(cr);
    }
  }
  cairo_restore(cr);
}

void draw_no_data(cairo_t* cr, const PlotBox& box) {
  draw_frame(cr, box);
  draw_text(cr, (box.left + box.right) / 2, (box.top + box.bottom) / 2, "no data", kLabelText,
            Align::kCenter, Align::kCenter);
}

void draw_loss_curve(cairo_t* cr, const std::vector<LossSeries>& series,
                     const LossCurveOptions& options) {
  paint_background(cr);
  double top = kLossCurvePadding;
  if (!options.title.empty()) {
    draw_text(cr, options.width / 2.0, top, options.title, kTitleText, Align::kCenter);
    top += text_height(kTitleText) + kChartGap;
  }
  std::vector<double> values = all_values(series);
  AxisTicks y_ticks = ticks_for(values, options.log_scale, false);
  int epochs = std::max(epoch_count(series), 1);
  AxisTicks x_ticks = integer_ticks(1, epochs);
  // A little room at both ends, so the first and last markers show whole.
  double x_margin = std::max(0.03 * (x_ticks.high - x_ticks.low), 0.1);
  x_ticks.low -= x_margin;
  x_ticks.high += x_margin;
  std::string y_label = options.y_label + (options.log_scale ? " (log scale)" : "");

  PlotBox box;
  box.left = kLossCurvePadding + value_axis_room(y_ticks, y_label);
  box.top = top + kChartGap;
  box.bottom = options.height - kLossCurvePadding - 2 * text_height(kLabelText) - kChartGap - kTickLength;
  // Half of the last epoch label may stick out to the right of the plot.
  box.right = options.width - kLossCurvePadding - text_width(x_ticks.labels.back(), kTickText) / 2;
  ValueScale scale(y_ticks, options.log_scale, box);

  bool any =
      std::any_of(values.begin(), values.end(), [&](double v) { return scale.plottable(v); });
  if (!any) {
    draw_no_data(cr, box);
    return;
  }
  draw_value_axis(cr, box, scale, y_ticks, y_label, kLossCurvePadding);
  draw_epoch_axis(cr, box, x_ticks);
  draw_frame(cr, box);
  draw_text(cr, (box.left + box.right) / 2, options.height - kLossCurvePadding, options.x_label, kLabelText,
            Align::kCenter, Align::kEnd);

  bool markers = epochs <= kMaxEpochsWithMarkers;
  for (const LossSeries& s : series) draw_series(cr, box, x_ticks, scale, s, markers);
  std::vector<LegendEntry> legend;
  for (const LossSeries& s : series) {
    legend.push_back({s.name + " (last " + last_value_text(s, scale) + ")", s.color, s.dashed});
  }
  draw_legend(cr, box.right - kChartGap - legend_width(legend), box.top + kChartGap, legend);
}

}  // namespace

Figure loss_curve_figure(const std::vector<LossSeries>& series, const LossCurveOptions& options) {
  if (options.width < 200 || options.height < 150) {
    throw std::invalid_argument("loss curve: size " + std::to_string(options.width) + "x" +
                                std::to_string(options.height) + " is below 200x150");
  }
  return Figure{options.width, options.height,
                [series, options](cairo_t* cr) { draw_loss_curve(cr, series, options); }};
}

std::vector<LossSeries> train_and_test_series(const std::vector<double>& train_loss,
                                              const std::vector<double>& test_mse) {
  return {LossSeries{"train loss", train_loss, series_color(0)},
          LossSeries{"test MSE", test_mse, series_color(1)}};
}

bool prefers_log_scale(const std::vector<LossSeries>& series) {
  double low = std::numeric_limits<double>::infinity();
  double high = 0.0;
  for (const LossSeries& s : series) {
    for (double v : s.values) {
      if (std::isfinite(v) && v > 0.0) {
        low = std::min(low, v);
        high = std::max(high, v);
      }
    }
  }
  return high > 0.0 && high / low > 10.0;
}

void write_loss_curve_png(const std::filesystem::path& path, const std::vector<LossSeries>& series,
                          const LossCurveOptions& options) {
  write_figure(path, loss_curve_figure(series, options));
  std::filesystem::path csv = path;
  write_loss_series_csv(csv.replace_extension(".csv"), series);
}

}  // namespace cae
