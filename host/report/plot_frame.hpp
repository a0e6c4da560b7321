// Parts every chart shares: the plot box, the value axis with its grid,
// the legend and the title.
#pragma once

#include <cairo.h>

#include <string>
#include <vector>

#include "report/axis_ticks.hpp"
#include "report/chart_text.hpp"

namespace cae {

// Text sizes shared by the charts, so figures side by side match.
inline const TextStyle kTitleText{15.0, true, kInk};
inline const TextStyle kLabelText{13.0, false, kInk};
inline const TextStyle kTickText{12.0, false, kInk};
// Space between a chart's parts and the length of an axis tick (pixels), the
// same in every chart.
inline constexpr double kChartGap = 8.0;
inline constexpr double kTickLength = 5.0;

struct PlotBox {
  double left = 0.0;
  double top = 0.0;
  double right = 0.0;
  double bottom = 0.0;
  double width() const { return right - left; }
  double height() const { return bottom - top; }
};

// Where values lie along the vertical axis of a plot box.
class ValueScale {
 public:
  ValueScale(const AxisTicks& ticks, bool log_scale, const PlotBox& box);
  // Finite, and positive on a log axis.
  bool plottable(double value) const;
  double y(double value) const;
  bool log_scale() const { return log_; }

 private:
  AxisTicks ticks_;
  bool log_;
  PlotBox box_;
};

// Room (pixels) the value axis needs left of the box: tick labels and the
// upright axis title.
double value_axis_room(const AxisTicks& ticks, const std::string& title);

// Horizontal grid lines at the ticks, their labels left of the box, and the
// axis title turned upright at the figure's left edge (x = `title_x`).
void draw_value_axis(cairo_t* cr, const PlotBox& box, const ValueScale& scale,
                     const AxisTicks& ticks, const std::string& title, double title_x);

// A one-pixel frame around the box, drawn on the pixel grid so it stays sharp.
void draw_frame(cairo_t* cr, const PlotBox& box);

// White background over the whole figure.
void paint_background(cairo_t* cr);

struct LegendEntry {
  std::string text;
  Rgb color;
  bool dashed = false;  // a dashed line sample
  bool swatch = false;  // a filled square (bars) instead of a line
};

// Size of the legend box for `entries`.
double legend_width(const std::vector<LegendEntry>& entries);
double legend_height(const std::vector<LegendEntry>& entries);

// The legend box with its top-left corner at (left, top).
void draw_legend(cairo_t* cr, double left, double top, const std::vector<LegendEntry>& entries);

// Ticks for values a chart plots (NaN and, on a log axis, non-positive values
// left out); `from_zero` makes a linear axis include 0 (bars grow from it).
// With nothing plottable the axis spans [0, 1] (linear) or [0.1, 1] (log).
AxisTicks ticks_for(const std::vector<double>& values, bool log_scale, bool from_zero);

}  // namespace cae
