#include "report/plot_frame.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cae {
namespace {

constexpr double kSampleLength = 26.0;

double legend_row_height() { return text_height(kLabelText) + 4.0; }

}  // namespace

ValueScale::ValueScale(const AxisTicks& ticks, bool log_scale, const PlotBox& box)
    : ticks_(ticks), log_(log_scale), box_(box) {}

bool ValueScale::plottable(double value) const {
  return std::isfinite(value) && (!log_ || value > 0.0);
}

double ValueScale::y(double value) const {
  double fraction = log_ ? (std::log10(value) - std::log10(ticks_.low)) /
                               (std::log10(ticks_.high) - std::log10(ticks_.low))
                         : (value - ticks_.low) / (ticks_.high - ticks_.low);
  return box_.bottom - fraction * box_.height();
}

double value_axis_room(const AxisTicks& ticks, const std::string& title) {
  double widest = 0.0;
  for (const std::string& label : ticks.labels)
    widest = std::max(widest, text_width(label, kTickText));
  double title_room = title.empty() ? 0.0 : text_height(kLabelText) + kChartGap;
  return title_room + widest + kChartGap / 2 + kTickLength;
}

void draw_value_axis(cairo_t* cr, const PlotBox& box, const ValueScale& scale,
                     const AxisTicks& ticks, const std::string& title, double title_x) {
  cairo_save(cr);
  cairo_set_line_width(cr, 1.0);
  // A label is left out where it would touch the last one drawn (every digit
  // of a short log axis): its grid line still shows the step.
  const double label_room = text_height(kTickText);
  double last_label_y = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < ticks.values.size(); ++i) {
    // Half-pixel offsets put one-pixel lines exactly on a pixel row.
    double y = std::round(scale.y(ticks.values[i])) + 0.5;
    set_color(cr, kGridColor);
    cairo_move_to(cr, box.left, y);
    cairo_line_to(cr, box.right, y);
    cairo_stroke(cr);
    set_color(cr, kAxisColor);
    cairo_move_to(cr, box.left - kTickLength, y);
    cairo_line_to(cr, box.left, y);
    cairo_stroke(cr);
    if (last_label_y - y < label_room) continue;
    last_label_y = y;
    draw_text(cr, box.left - kTickLength - kChartGap / 2, y, ticks.labels[i], kTickText, Align::kEnd,
              Align::kCenter);
  }
  cairo_restore(cr);
  draw_text(cr, title_x, (box.top + box.bottom) / 2, title, kLabelText, Align::kCenter,
            Align::kStart, 90.0);
}

void draw_frame(cairo_t* cr, const PlotBox& box) {
  cairo_save(cr);
  set_color(cr, kAxisColor);
  cairo_set_line_width(cr, 1.0);
  cairo_rectangle(cr, std::round(box.left) + 0.5, std::round(box.top) + 0.5,
                  std::round(box.width()), std::round(box.height()));
  cairo_stroke(cr);
  cairo_restore(cr);
}

void paint_background(cairo_t* cr) {
  cairo_save(cr);
  cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
  cairo_paint(cr);
  cairo_restore(cr);
}

double legend_width(const std::vector<LegendEntry>& entries) {
  double widest = 0.0;
  for (const LegendEntry& entry : entries) {
    widest = std::max(widest, text_width(entry.text, kLabelText));
  }
  return kChartGap + kSampleLength + kChartGap + widest + kChartGap;
}

double legend_height(const std::vector<LegendEntry>& entries) {
  return kChartGap + static_cast<double>(entries.size()) * legend_row_height() + kChartGap / 2;
}

void draw_legend(cairo_t* cr, double left, double top, const std::vector<LegendEntry>& entries) {
  if (entries.empty()) return;
  cairo_save(cr);
  double width = legend_width(entries);
  double height = legend_height(entries);
  cairo_rectangle(cr, std::round(left) + 0.5, std::round(top) + 0.5, std::round(width),
                  std::round(height));
  cairo_set_source_rgba(cr, 1.0, 1.0, 1.0, 0.92);
  cairo_fill_preserve(cr);
  set_color(cr, Rgb{200, 200, 200});
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const LegendEntry& entry = entries[i];
    double middle = top + kChartGap + (static_cast<double>(i) + 0.5) * legend_row_height();
    double sample_x = left + kChartGap;
    set_color(cr, entry.color);
    if (entry.swatch) {
      cairo_rectangle(cr, sample_x + kSampleLength / 2 - 6, middle - 6, 12, 12);
      cairo_fill(cr);
    } else {
      cairo_set_line_width(cr, 2.5);
      double dashes[] = {6.0, 4.0};
      cairo_set_dash(cr, dashes, entry.dashed ? 2 : 0, 0.0);
      cairo_move_to(cr, sample_x, middle);
      cairo_line_to(cr, sample_x + kSampleLength, middle);
      cairo_stroke(cr);
      cairo_set_dash(cr, nullptr, 0, 0.0);
    }
    draw_text(cr, sample_x + kSampleLength + kChartGap, middle, entry.text, kLabelText, Align::kStart,
              Align::kCenter);
  }
  cairo_restore(cr);
}

AxisTicks ticks_for(const std::vector<double>& values, bool log_scale, bool from_zero) {
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  for (double v : values) {
    if (!std::isfinite(v) || (log_scale && v <= 0.0)) continue;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  if (!(low <= high)) return log_scale ? log_ticks(0.1, 1.0) : linear_ticks(0.0, 1.0);
  if (log_scale) return log_ticks(low, high);
  if (from_zero) {
    low = std::min(low, 0.0);
    high = std::max(high, 0.0);
  }
  return linear_ticks(low, high);
}

}  // namespace cae
