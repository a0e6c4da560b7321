#include "report/bar_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "report/plot_frame.hpp"

namespace cae {
namespace {

constexpr double kBarChartPadding = 14.0;
constexpr double kSlantDegrees = 35.0;
// Share of a group's width its bars fill; the rest separates the groups.
constexpr double kGroupFill = 0.8;

void check_input(const std::vector<std::string>& categories, const std::vector<BarSeries>& series,
                 const BarChartOptions& options) {
  if (categories.empty()) throw std::invalid_argument("bar chart: no categories");
  for (const BarSeries& s : series) {
    if (s.values.size() != categories.size()) {
      throw std::invalid_argument("bar chart: series \"" + s.name + "\" has " +
                                  std::to_string(s.values.size()) + " values for " +
                                  std::to_string(categories.size()) + " categories");
    }
  }
  if (options.width < 240 || options.height < 160) {
    throw std::invalid_argument("bar chart: size " + std::to_string(options.width) + "x" +
                                std::to_string(options.height) + " is below 240x160");
  }
}

// Height the category names need below the plot, and whether they are slanted.
double category_room(const std::vector<std::string>& categories, double group_width,
                     bool& slanted) {
  double widest = 0.0;
  for (const std::string& c : categories) widest = std::max(widest, text_width(c, kTickText));
  slanted = widest > group_width - 4;
  double height = text_height(kTickText);
  if (!slanted) return height;
  double angle = kSlantDegrees * M_PI / 180.0;
  return widest * std::sin(angle) + height * std::cos(angle);
}

void draw_bars(cairo_t* cr, const PlotBox& box, const ValueScale& scale,
               const std::vector<BarSeries>& series, std::size_t categories) {
  double group_width = box.width() / static_cast<double>(categories);
  double bar_width =
      group_width * kGroupFill / static_cast<double>(std::max<std::size_t>(1, series.size()));
  for (std::size_t s = 0; s < series.size(); ++s) {
    set_color(cr, series[s].color);
    for (std::size_t c = 0; c < categories; ++c) {
      double value = series[s].values[c];
      if (!scale.plottable(value)) continue;
      double x = box.left + group_width * (static_cast<double>(c) + (1.0 - kGroupFill) / 2) +
                 bar_width * static_cast<double>(s);
      double base = scale.log_scale() ? box.bottom : std::clamp(scale.y(0.0), box.top, box.bottom);
      double top = std::clamp(scale.y(value), box.top, box.bottom);
      cairo_rectangle(cr, x, std::min(top, base), std::max(bar_width - 1.0, 1.0),
                      std::fabs(base - top));
      cairo_fill(cr);
    }
  }
}

void draw_categories(cairo_t* cr, const PlotBox& box, const std::vector<std::string>& categories,
                     bool slanted) {
  double group_width = box.width() / static_cast<double>(categories.size());
  for (std::size_t c = 0; c < categories.size(); ++c) {
    double middle = box.left + group_width * (static_cast<double>(c) + 0.5);
    if (slanted) {
      draw_text(cr, middle, box.bottom + kChartGap / 2, categories[c], kTickText, Align::kEnd,
                Align::kStart, kSlantDegrees);
    } else {
      draw_text(cr, middle, box.bottom + kChartGap / 2, categories[c], kTickText, Align::kCenter,
                Align::kStart);
    }
  }
}

// Whether the positive values differ by more than a factor of 10. A log axis
// over less would start its bars at an arbitrary value, so their lengths
// would suggest ratios the data does not have.
bool spans_a_decade(const std::vector<double>& values) {
  double low = std::numeric_limits<double>::infinity();
  double high = 0.0;
  for (double v : values) {
    if (std::isfinite(v) && v > 0.0) {
      low = std::min(low, v);
      high = std::max(high, v);
    }
  }
  return high > 10.0 * low;
}

}  // namespace

Figure bar_chart_figure(const std::vector<std::string>& categories,
                        const std::vector<BarSeries>& series, const BarChartOptions& options) {
  check_input(categories, series, options);
  std::vector<double> values;
  for (const BarSeries& s : series) values.insert(values.end(), s.values.begin(), s.values.end());
  values.push_back(options.axis_includes_low);
  values.push_back(options.axis_includes_high);
  BarChartOptions chosen = options;
  chosen.log_scale = options.log_scale && spans_a_decade(values);
  AxisTicks ticks = ticks_for(values, chosen.log_scale, true);
  std::vector<LegendEntry> legend;
  if (options.legend) {
    for (const BarSeries& s : series) legend.push_back({s.name, s.color, false, true});
  }
  std::string y_label = options.y_label + (chosen.log_scale ? " (log scale)" : "");

  return Figure{
      options.width, options.height, [=](cairo_t* cr) {
        paint_background(cr);
        double top = kBarChartPadding;
        if (!options.title.empty()) {
          draw_text(cr, options.width / 2.0, top, options.title, kTitleText, Align::kCenter);
          top += text_height(kTitleText) + kChartGap;
        }
        // The legend sits right of the plot, so it never hides a bar.
        double legend_room = legend.empty() ? 0.0 : legend_width(legend) + kChartGap;
        PlotBox box;
        box.left = kBarChartPadding + value_axis_room(ticks, y_label);
        box.right = options.width - kBarChartPadding - legend_room;
        box.top = top + kChartGap;
        bool slanted = false;
        double group_width = (box.right - box.left) / categories.size();
        box.bottom =
            options.height - kBarChartPadding - category_room(categories, group_width, slanted) - kChartGap / 2;
        ValueScale scale(ticks, chosen.log_scale, box);
        draw_value_axis(cr, box, scale, ticks, y_label, kBarChartPadding);
        draw_bars(cr, box, scale, series, categories.size());
        draw_frame(cr, box);
        draw_categories(cr, box, categories, slanted);
        draw_legend(cr, box.right + kChartGap, box.top, legend);
      }};
}

}  // namespace cae
